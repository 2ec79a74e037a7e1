//===- KerneletPlan.cpp - The Kernelet model's view of an smc::Batch ------===//
//
// See KerneletPlan.h.
//===----------------------------------------------------------------------===//
#include "KerneletPlan.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

namespace smc::kernelet {

namespace {

// Base with its latencies fitted to the measured IPCs of Samples, cached
// per device and set of samples.
DeviceModel fitted(const DeviceModel &Base,
                   const std::vector<IpcSample> &Samples) {
  static std::mutex Mutex;
  static std::map<std::string, DeviceModel> Fitted;
  std::ostringstream Key;
  Key << Base.NumSms << ':' << Base.MaxWarpsPerSm;
  for (const IpcSample &Sample : Samples)
    Key << ';' << Sample.MemRatio << ',' << Sample.WarpsPerScheduler << ','
        << Sample.MeasuredIpc;
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Fitted.find(Key.str());
  if (It == Fitted.end())
    It = Fitted.emplace(Key.str(), calibrate(Base, Samples)).first;
  return It->second;
}

} // namespace

BatchModel batchModel(const std::vector<Batch::LaunchInfo> &Launches,
                      const ProfileSet &Profiles, unsigned NumSms,
                      unsigned MaxThreadsPerSm) {
  BatchModel Out;
  DeviceModel Base;
  Base.NumSms = NumSms;
  if (MaxThreadsPerSm >= 32)
    Base.MaxWarpsPerSm = MaxThreadsPerSm / 32;
  std::vector<IpcSample> Samples;
  for (const Batch::LaunchInfo &Info : Launches) {
    PendingLaunch P;
    KernelTraits &T = P.Traits;
    T = {Info.name, Info.ctas, Info.warpsPerCta, Info.ctasPerSm};
    P.Stream = Info.stream;
    P.Sliceable = Info.sliceable;
    P.Workers = Info.workers;
    const IssueProfile *Issue =
        Info.profiled ? batch::useIssueProfile(Profiles, T) : nullptr;
    P.Known = Issue != nullptr;
    unsigned Warps = T.CtasPerSm * T.WarpsPerCta;
    if (Issue && Issue->Ipc > 0)
      Samples.push_back(
          {T.MemRatio, std::max(1u, (Warps + 2) / 4), Issue->Ipc});
    Out.Launches.push_back(std::move(P));
  }
  Out.Device = fitted(Base, Samples);
  return Out;
}

double predictRuns(const BatchModel &M,
                   const std::vector<Batch::SliceRun> &Runs) {
  Schedule Plan;
  Plan.Runs = Runs;
  if (M.Launches.empty() ||
      !checkSchedule(M.Launches, Plan, nullptr, M.Device.NumSms))
    return 0;
  for (const PendingLaunch &P : M.Launches)
    if (!P.Known)
      return 0;
  return predictSeconds(M.Device, M.Launches, Plan);
}

} // namespace smc::kernelet
