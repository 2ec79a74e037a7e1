//===- CoRunTrials.cpp - Measured decisions for a co-run that recurs ------===//
//
// See CoRunTrials.h.
//===----------------------------------------------------------------------===//
#include "corun/CoRunTrials.h"

#include "base/Text.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace smc {
namespace {

std::vector<std::string> namesOf(const std::vector<CoRunKernel> &Kernels) {
  std::vector<std::string> Names;
  for (const CoRunKernel &K : Kernels)
    Names.push_back(K.Name);
  return Names;
}

// Shares as OnlineSearch knows them: workers 0 (the original's occupancy)
// as the kernel's most workers.
OnlineSearch::Config explicitWorkers(OnlineSearch::Config Shares,
                                     const std::vector<unsigned> &MostWorkers) {
  for (size_t I = 0; I < Shares.size() && I < MostWorkers.size(); ++I)
    if (Shares[I].WorkersPerSm == 0)
      Shares[I].WorkersPerSm = MostWorkers[I];
  return Shares;
}

// OnlineSearch's start: the model's split; empty (an even split) when the
// model shares.
OnlineSearch::Config searchStart(const CoRunDecision &Model,
                                 const std::vector<unsigned> &MaxWorkersPerSm) {
  if (Model.Kind != CoRunKind::Partition ||
      Model.Shares.size() != MaxWorkersPerSm.size())
    return {};
  return explicitWorkers(Model.Shares, MaxWorkersPerSm);
}

OnlineSearch::Space searchSpace(const CoRunTrials::Options &O,
                                std::vector<unsigned> MaxWorkersPerSm) {
  OnlineSearch::Space S;
  S.NumSms = O.NumSms;
  S.Granularity = O.Granularity;
  S.MaxWorkersPerSm = std::move(MaxWorkersPerSm);
  S.MaxSteps = O.MaxTrials;
  return S;
}

std::string sharesText(const std::vector<KernelShare> &Shares,
                       unsigned NumSms) {
  if (std::all_of(Shares.begin(), Shares.end(), [&](const KernelShare &S) {
        return S.FirstSm == 0 && S.NumSms == NumSms && S.WorkersPerSm == 0;
      }))
    return "every kernel's SM-centric variant on every SM";
  std::string Text;
  for (const KernelShare &S : Shares) {
    Text += Text.empty() ? "SMs " : ", ";
    Text += std::to_string(S.FirstSm) + "-" +
            std::to_string(S.FirstSm + S.NumSms - 1);
    Text += S.WorkersPerSm ? " x" + std::to_string(S.WorkersPerSm) : "";
  }
  return Text;
}

} // namespace

unsigned trialGranularity(unsigned NumSms) {
  for (unsigned G = NumSms / 12; G > 1; --G)
    if (NumSms % G == 0)
      return G;
  return 1;
}

CoRunTrials::CoRunTrials(const std::vector<CoRunKernel> &Kernels,
                         std::vector<unsigned> MaxWorkersPerSm,
                         const CoRunDecision &Model, const Options &O)
    : Names(namesOf(Kernels)), MaxWorkers(MaxWorkersPerSm), Opt(O),
      Search(Names, searchSpace(O, MaxWorkersPerSm),
             searchStart(Model, MaxWorkersPerSm)) {
  MaxWorkers.resize(Names.size(), 1);
  for (unsigned &Max : MaxWorkers)
    Max = std::max(1u, Max);
  for (const CoRunKernel &K : Kernels) {
    std::optional<double> T =
        K.Profile ? K.Profile->bestTimeOn(O.NumSms) : std::nullopt;
    Alone.push_back(T.value_or(0));
  }
  CoRunDecision First = Model;
  First.Reason = nextTrialName() + ", the model's decision: " + Model.Reason;
  SharingPending = Model.Kind == CoRunKind::Partition;
  start(std::move(First));
}

bool CoRunTrials::applies(const std::vector<CoRunKernel> &Kernels,
                          unsigned NumSms) {
  if (Kernels.size() < 2)
    return false;
  std::set<std::string> Seen;
  for (const CoRunKernel &K : Kernels) {
    if (K.Priority != KernelPriority::Normal || !Seen.insert(K.Name).second ||
        !K.Profile || K.Profile->smCountsMeasured() < 2 ||
        (K.Profile->deviceSms() != 0 && K.Profile->deviceSms() != NumSms))
      return false;
    std::optional<double> Alone = K.Profile->bestTimeOn(NumSms);
    if (!Alone || !(*Alone > 0))
      return false;
  }
  return true;
}

std::string CoRunTrials::names() const { return join(Names, " + "); }

std::string CoRunTrials::nextTrialName() const {
  return "trial " + std::to_string(Measured.size() + 1) + " of the co-run " +
         names();
}

void CoRunTrials::start(CoRunDecision Next) {
  ++TrialId;
  Current = std::move(Next);
  SumSeconds.assign(Names.size(), 0);
  Samples.assign(Names.size(), 0);
}

CoRunDecision CoRunTrials::partitionOf(const OnlineSearch::Config &Shares,
                                       const std::string &Why) const {
  CoRunDecision D;
  D.Kind = CoRunKind::Partition;
  D.Shares = Shares;
  // A kernel's most workers are its original's occupancy: 0 says so.
  for (size_t I = 0; I < D.Shares.size() && I < MaxWorkers.size(); ++I)
    if (D.Shares[I].WorkersPerSm == MaxWorkers[I])
      D.Shares[I].WorkersPerSm = 0;
  D.Reason = Why;
  return D;
}

bool CoRunTrials::record(unsigned Trial, size_t Index, double Seconds) {
  if (Settled || Trial != TrialId || Index >= Names.size() ||
      !std::isfinite(Seconds) || !(Seconds > 0))
    return false;
  SumSeconds[Index] += Seconds;
  ++Samples[Index];
  for (unsigned Count : Samples)
    if (Count < Opt.SamplesPerKernel)
      return false;
  double Stp = 0;
  for (size_t I = 0; I < Names.size(); ++I)
    Stp += Alone[I] / (SumSeconds[I] / Samples[I]);
  Measured.push_back({Current, Stp});
  if (Current.Kind == CoRunKind::Shared) {
    SharedStp = Stp;
  } else {
    Search.report(explicitWorkers(Current.Shares, MaxWorkers), Stp);
  }
  advance();
  return true;
}

void CoRunTrials::advance() {
  std::optional<OnlineSearch::Config> Next;
  if (Measured.size() < Opt.MaxTrials) {
    if (SharingPending) {
      SharingPending = false;
      CoRunDecision Sharing;
      Sharing.Reason = nextTrialName() + ": sharing";
      start(std::move(Sharing));
      return;
    }
    if (EverywherePending) {
      EverywherePending = false;
      start(partitionOf(
          OnlineSearch::Config(Names.size(), KernelShare{0, Opt.NumSms, 0}),
          nextTrialName() + ": every kernel's SM-centric variant on every SM"));
      return;
    }
    if (!Search.converged())
      Next = Search.next();
  }
  if (Next) {
    start(partitionOf(*Next, nextTrialName() + ", hill climbing: " +
                                 sharesText(*Next, Opt.NumSms)));
    return;
  }
  // Settle on the fastest measured partition if it beat sharing's measured
  // STP by the margin, else on sharing.
  const Trial *Best = nullptr;
  for (const Trial &T : Measured)
    if (T.Decision.Kind == CoRunKind::Partition && (!Best || T.Stp > Best->Stp))
      Best = &T;
  std::string Over = " (measured over " + std::to_string(Measured.size()) +
                     " trials: sharing STP " +
                     (SharedStp ? fixed3(*SharedStp) : "not measured") +
                     ", best partition " +
                     (Best ? fixed3(Best->Stp) + ", " +
                                 sharesText(Best->Decision.Shares, Opt.NumSms)
                           : "none") +
                     ")";
  CoRunDecision Chosen;
  if (Best && SharedStp && higherBy(Best->Stp, *SharedStp, Opt.Margin)) {
    Chosen = partitionOf(Best->Decision.Shares,
                         "settled on the partition measured fastest" + Over);
  } else {
    Chosen.Reason = "settled on sharing" + Over;
  }
  Settled = true;
  ++TrialId;
  Current = std::move(Chosen);
}

} // namespace smc
