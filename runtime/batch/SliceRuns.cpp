//===- SliceRuns.cpp - A batch's runs and the slice-size rule -------------===//
//
// See SliceRuns.h.
//===----------------------------------------------------------------------===//
#include "batch/SliceRuns.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace smc::batch {

unsigned minSliceCtas(const PlanDevice &M, const KernelTraits &T) {
  double Ctas =
      T.Ctas * M.SliceLaunchSeconds / (M.MaxSliceOverhead * T.AloneSeconds);
  if (!(Ctas >= 1) || !std::isfinite(Ctas))
    return 1;
  return unsigned(std::min<double>(std::ceil(Ctas), UINT32_MAX));
}

const IssueProfile *useIssueProfile(const ProfileSet &Profiles,
                                    KernelTraits &T) {
  const KernelProfile *Profile = Profiles.find(T.Name);
  if (!Profile || !Profile->issue() || T.CtasPerSm == 0)
    return nullptr;
  const IssueProfile &Issue = *Profile->issue();
  T.MemRatio = Issue.MemRatio;
  T.AloneSeconds = Issue.Seconds;
  return &Issue;
}

bool checkTraits(const KernelTraits &T, std::string *Error) {
  const char *Why = T.Ctas == 0          ? "no CTAs"
                    : T.WarpsPerCta == 0 ? "no warps per CTA"
                    : T.CtasPerSm == 0   ? "no CTAs per SM"
                    : !(T.MemRatio >= 0 && T.MemRatio <= 1)
                        ? "memory ratio outside [0, 1]"
                    : !(T.AloneSeconds > 0) || !std::isfinite(T.AloneSeconds)
                        ? "no alone time"
                        : nullptr;
  if (Why && Error)
    *Error = Why;
  return !Why;
}

Schedule planSerial(const std::vector<PendingLaunch> &Launches) {
  Schedule Out;
  for (unsigned L = 0; L < Launches.size(); ++L) {
    const KernelTraits &T = Launches[L].Traits;
    if (T.Ctas == 0)
      continue;
    Out.Runs.push_back({L, 0, 0, T.Ctas, T.Ctas});
    if (T.AloneSeconds > 0 && std::isfinite(T.AloneSeconds))
      Out.PredictedSeconds += T.AloneSeconds;
  }
  Out.Notes.push_back("serial: every launch whole on lane 0, in order");
  return Out;
}

bool checkSchedule(const std::vector<PendingLaunch> &Launches,
                   const Schedule &S, std::string *Error, unsigned NumSms) {
  auto Fail = [&](const std::string &Why) {
    if (Error)
      *Error = Why;
    return false;
  };
  size_t N = Launches.size();
  std::vector<uint64_t> Next(N, 0);
  std::vector<int> Lane(N, -1);
  for (size_t I = 0; I < S.Runs.size(); ++I) {
    const SliceRun &R = S.Runs[I];
    std::string Where = "run " + std::to_string(I) + ": ";
    if (R.launch >= N)
      return Fail(Where + "no launch " + std::to_string(R.launch));
    const PendingLaunch &L = Launches[R.launch];
    if (R.lane > 1 || (Lane[R.launch] >= 0 && Lane[R.launch] != int(R.lane)))
      return Fail(Where + "a launch runs on one lane, 0 or 1");
    if (R.ctas == 0 || R.sliceCtas == 0 || R.firstCta != Next[R.launch] ||
        uint64_t(R.firstCta) + R.ctas > L.Traits.Ctas)
      return Fail(Where + "launch " + std::to_string(R.launch) +
                  " must continue at CTA " + std::to_string(Next[R.launch]) +
                  " with at least one CTA, within its " +
                  std::to_string(L.Traits.Ctas) +
                  ", in slices of at least one");
    bool Whole = R.firstCta == 0 && R.ctas == L.Traits.Ctas;
    if (R.workersPerSm && (!Whole || !L.Workers))
      return Fail(Where + "launch " + std::to_string(R.launch) +
                  " runs as workers only whole, and only with persistent "
                  "workers");
    if (R.smCount && !R.workersPerSm)
      return Fail(Where + "launch " + std::to_string(R.launch) +
                  " is confined to SMs only as workers");
    if (R.smCount && NumSms && uint64_t(R.smFirst) + R.smCount > NumSms)
      return Fail(Where + "launch " + std::to_string(R.launch) +
                  " is confined to SMs " + std::to_string(R.smFirst) + "-" +
                  std::to_string(uint64_t(R.smFirst) + R.smCount - 1) +
                  ", beyond the device's " + std::to_string(NumSms));
    if (!L.Sliceable && !R.workersPerSm && (!Whole || R.sliceCtas < R.ctas))
      return Fail(Where + "launch " + std::to_string(R.launch) +
                  " is not sliceable: it runs whole");
    if (Lane[R.launch] < 0)
      for (size_t E = 0; E < R.launch; ++E)
        if (Launches[E].Stream == L.Stream &&
            Next[E] != Launches[E].Traits.Ctas)
          return Fail(Where + "launch " + std::to_string(R.launch) +
                      " starts before launch " + std::to_string(E) +
                      " of its stream is planned");
    Lane[R.launch] = int(R.lane);
    Next[R.launch] += R.ctas;
  }
  for (size_t L = 0; L < N; ++L)
    if (Next[L] != Launches[L].Traits.Ctas)
      return Fail("launch " + std::to_string(L) + " has " +
                  std::to_string(Next[L]) + " of its " +
                  std::to_string(Launches[L].Traits.Ctas) + " CTAs planned");
  return true;
}

} // namespace smc::batch
