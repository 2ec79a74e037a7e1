//===- CoRunScheduler.cpp - SM splits for kernels that co-run -------------===//
//
// The model behind decide() and the hill climbing of OnlineSearch.  See
// CoRunScheduler.h.
//
// Model.  Kernel i's curve t_i(s) is its profile's best time on s SMs;
// alone time A_i = t_i(N) on all N SMs; its rate on s SMs r_i(s) =
// A_i / t_i(s) is the fraction of its alone speed it keeps.
//  - Partition: kernel i runs on its s_i SMs alone: T_i = t_i(s_i).
//  - Sharing: the hardware spreads every kernel's CTAs over all SMs, and a
//    kernel takes SMs as far as it can use them.  Kernel i's demand d_i is
//    the fewest SMs on which t_i(d_i) <= (1 + DemandTolerance) A_i; under
//    sharing each kernel runs as if it had N d_i / sum_j d_j SMs.  Kernels
//    whose demands fit together run at full speed side by side; kernels
//    that all want every SM split the device evenly, which for two
//    perfectly scaling kernels predicts STP 1, what time-slicing gives.
//  - STP = sum_i A_i / T_i, ANTT = mean_i T_i / A_i; a partition is chosen
//    when its STP beats sharing's by the margin, or when sharing would run
//    a High kernel slower than (1 + HighSlack) A_i.
// The model leaves out that co-resident kernels overlap on one SM when
// they need different units (memory against arithmetic), so it predicts
// less for sharing than such pairs get; the margin covers part of that,
// and OnlineSearch measures the rest.
//===----------------------------------------------------------------------===//
#include "corun/CoRunScheduler.h"
#include "base/Text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace smc {
namespace {

constexpr double Eps = 1e-9;

// A kernel's curve: t(s) and r(s) of the model.
struct Curve {
  const KernelProfile *Profile = nullptr;
  double Alone = 0;
  double time(unsigned Sms) const { return *Profile->bestTimeOn(Sms); }
  double rate(unsigned Sms) const { return Alone / time(Sms); }
};

// Why Profile gives no curve on a device of NumSms SMs; empty if it does.
std::string noCurve(const KernelProfile *Profile, unsigned NumSms) {
  if (!Profile)
    return "has no profile";
  if (Profile->deviceSms() != 0 && Profile->deviceSms() != NumSms)
    return "was profiled on a device of " +
           std::to_string(Profile->deviceSms()) + " SMs, not " +
           std::to_string(NumSms);
  if (Profile->smCountsMeasured() < 2)
    return "was measured on fewer than two SM counts";
  return "";
}

// The fewest SMs, a multiple of Step below Max, on which C runs within
// (1 + Slack) of its alone time; else Max.
unsigned fewestSmsWithin(const Curve &C, double Slack, unsigned Step,
                         unsigned Max) {
  for (unsigned Sms = Step; Sms < Max; Sms += Step)
    if (C.time(Sms) <= (1 + Slack) * C.Alone * (1 + Eps))
      return Sms;
  return Max;
}

struct Score {
  double Stp = 0, Antt = 0;
  // Higher STP; of equal STPs, lower ANTT.
  bool betterThan(const Score &O) const {
    return Stp > O.Stp + Eps || (Stp >= O.Stp - Eps && Antt < O.Antt - Eps);
  }
};

Score score(const std::vector<Curve> &Curves, const std::vector<unsigned> &Sms,
            std::vector<double> *Seconds = nullptr) {
  Score S;
  for (size_t I = 0; I < Curves.size(); ++I) {
    double T = Curves[I].time(Sms[I]);
    S.Stp += Curves[I].Alone / T;
    S.Antt += T / Curves[I].Alone;
    if (Seconds)
      Seconds->push_back(T);
  }
  S.Antt /= Curves.size();
  return S;
}

std::vector<unsigned> timesGranularity(std::vector<unsigned> Groups,
                                       unsigned Granularity) {
  for (unsigned &G : Groups)
    G *= Granularity;
  return Groups;
}

// The split of Groups groups, kernel i getting at least Min[i], with the
// best score: every split for two kernels; for more, one group at a time to
// the kernel whose rate gains most (of equals the slowest, then the first).
std::vector<unsigned> bestSplit(const std::vector<Curve> &Curves,
                                const std::vector<unsigned> &Min,
                                unsigned Groups, unsigned Granularity) {
  if (Curves.size() == 2) {
    std::vector<unsigned> Best;
    Score BestScore;
    for (unsigned G0 = Min[0]; G0 + Min[1] <= Groups; ++G0) {
      std::vector<unsigned> Split = {G0, Groups - G0};
      Score S = score(Curves, timesGranularity(Split, Granularity));
      if (Best.empty() || S.betterThan(BestScore)) {
        Best = Split;
        BestScore = S;
      }
    }
    return Best;
  }
  std::vector<unsigned> Split = Min;
  for (unsigned Left = Groups - std::accumulate(Min.begin(), Min.end(), 0u);
       Left > 0; --Left) {
    size_t Best = 0;
    double BestGain = 0, BestRate = 0;
    for (size_t I = 0; I < Curves.size(); ++I) {
      double Rate = Curves[I].rate(Split[I] * Granularity);
      double Gain = Curves[I].rate((Split[I] + 1) * Granularity) - Rate;
      if (I == 0 || Gain > BestGain + Eps ||
          (Gain >= BestGain - Eps && Rate < BestRate - Eps)) {
        Best = I;
        BestGain = Gain;
        BestRate = Rate;
      }
    }
    ++Split[Best];
  }
  return Split;
}

} // namespace

CoRunDecision decide(const std::vector<CoRunKernel> &Kernels,
                     const CoRunOptions &Options) {
  CoRunDecision D;
  const unsigned N = Options.NumSms, Gran = Options.Granularity;
  const size_t K = Kernels.size();
  D.Shares.assign(K, KernelShare{0, N, 0});
  auto ShareAll = [&](std::string Reason) {
    D.Kind = CoRunKind::Shared;
    D.Reason = std::move(Reason);
    return D;
  };
  if (K < 2)
    return ShareAll("fewer than two kernels: nothing to split");
  if (Gran == 0 || N < Gran)
    return ShareAll("no whole group of SMs to split");
  const unsigned Groups = N / Gran;
  if (Groups < K)
    return ShareAll("more kernels than groups of " + std::to_string(Gran) +
                    " SMs");

  bool AnyHigh = false, AnyNormal = false;
  for (const CoRunKernel &Kernel : Kernels)
    (Kernel.Priority == KernelPriority::High ? AnyHigh : AnyNormal) = true;
  // Priority matters only between High and Normal kernels.
  auto IsHigh = [&](size_t I) {
    return AnyNormal && Kernels[I].Priority == KernelPriority::High;
  };

  std::vector<Curve> Curves(K);
  std::string Missing;
  for (size_t I = 0; I < K; ++I) {
    std::string Why = noCurve(Kernels[I].Profile, N);
    if (Why.empty())
      Curves[I] = {Kernels[I].Profile, *Kernels[I].Profile->bestTimeOn(N)};
    else
      Missing += (Missing.empty() ? "" : "; ") + Kernels[I].Name + " " + Why;
  }
  const bool Predicted = Missing.empty();
  if (!Predicted && !AnyHigh)
    return ShareAll("no prediction: " + Missing);

  // Sharing, as the model predicts it.
  std::vector<double> SharedSeconds;
  bool HighSlowShared = false;
  if (Predicted) {
    std::vector<unsigned> Demand(K);
    for (size_t I = 0; I < K; ++I)
      Demand[I] = fewestSmsWithin(Curves[I], Options.DemandTolerance, 1, N);
    double TotalDemand = std::accumulate(Demand.begin(), Demand.end(), 0.0);
    std::vector<unsigned> SharedSms(K);
    for (size_t I = 0; I < K; ++I)
      SharedSms[I] = std::max(
          1u, unsigned(std::lround(double(N) * Demand[I] / TotalDemand)));
    Score S = score(Curves, SharedSms, &SharedSeconds);
    D.SharedStp = S.Stp;
    D.SharedAntt = S.Antt;
    for (size_t I = 0; I < K; ++I)
      HighSlowShared |=
          IsHigh(I) && SharedSeconds[I] > (1 + Options.HighSlack) *
                                              Curves[I].Alone * (1 + Eps);
  }

  // The fewest groups of each kernel: one, or what a High kernel needs.
  std::vector<unsigned> Min(K, 1);
  for (size_t I = 0; I < K; ++I) {
    if (!IsHigh(I))
      continue;
    unsigned Sms;
    if (Curves[I].Profile)
      Sms = fewestSmsWithin(Curves[I], Options.HighSlack, Gran, Groups * Gran);
    else if (Kernels[I].Profile && !Kernels[I].Profile->points().empty())
      Sms = std::min_element(Kernels[I].Profile->points().begin(),
                             Kernels[I].Profile->points().end(),
                             [](const ScalingPoint &A, const ScalingPoint &B) {
                               return A.Sms < B.Sms;
                             })
                ->Sms;
    else
      Sms = N / 2;
    Min[I] = std::max(1u, (Sms + Gran - 1) / Gran);
  }
  unsigned MinTotal = std::accumulate(Min.begin(), Min.end(), 0u);
  if (MinTotal > Groups)
    return ShareAll("the High kernels need more SMs than the Normal kernels "
                    "leave them (" +
                    std::to_string(MinTotal) + " groups of " +
                    std::to_string(Gran) + " SMs, the device has " +
                    std::to_string(Groups) + ")");

  std::vector<unsigned> Split;
  if (Predicted) {
    Split = bestSplit(Curves, Min, Groups, Gran);
  } else {
    // No curves to split by: the Normal kernels share what is left evenly.
    Split = Min;
    size_t NumNormal = 0;
    for (size_t I = 0; I < K; ++I)
      NumNormal += !IsHigh(I);
    unsigned Left = Groups - MinTotal;
    for (size_t I = 0, J = 0; I < K; ++I)
      if (!IsHigh(I))
        Split[I] += Left / NumNormal + (J++ < Left % NumNormal);
  }

  std::vector<KernelShare> Partition(K);
  unsigned First = 0;
  for (size_t I = 0; I < K; ++I) {
    unsigned Sms = Split[I] * Gran;
    unsigned Workers =
        Curves[I].Profile ? *Curves[I].Profile->bestWorkersOn(Sms) : 0;
    Partition[I] = {First, Sms, Workers};
    First += Sms;
  }

  if (!Predicted) {
    D.Kind = CoRunKind::Partition;
    D.Shares = Partition;
    D.Reason = "High kernels get their share without a prediction: " + Missing;
    return D;
  }
  std::vector<double> PartitionSeconds;
  Score P = score(Curves, timesGranularity(Split, Gran), &PartitionSeconds);
  std::string Compared = "predicted STP " + fixed3(P.Stp) + " partitioned, " +
                         fixed3(D.SharedStp) + " shared";
  if (!HighSlowShared && !(P.Stp > D.SharedStp * (1 + Options.Margin) + Eps)) {
    D.PredictedSeconds = SharedSeconds;
    D.PredictedStp = D.SharedStp;
    D.PredictedAntt = D.SharedAntt;
    return ShareAll(Compared + ": no split beats sharing by the margin, " +
                    fixed3(Options.Margin));
  }
  D.Kind = CoRunKind::Partition;
  D.Shares = Partition;
  D.PredictedSeconds = PartitionSeconds;
  D.PredictedStp = P.Stp;
  D.PredictedAntt = P.Antt;
  D.Reason = Compared + (HighSlowShared ? ": sharing would slow a High kernel "
                                          "beyond its slack"
                                        : "");
  return D;
}

OnlineSearch::OnlineSearch(std::vector<std::string> Names, Space Sp,
                           Config StartConfig)
    : Key(keyOf(Names)), NumKernels(unsigned(Names.size())), S(std::move(Sp)) {
  S.Granularity = std::max(1u, S.Granularity);
  S.MaxWorkersPerSm.resize(NumKernels, 1);
  for (unsigned &Max : S.MaxWorkersPerSm)
    Max = std::max(1u, Max);
  Groups = int(S.NumSms / S.Granularity);
  if (NumKernels == 0 || Groups < int(NumKernels))
    return;
  for (unsigned I = 0; I < NumKernels; ++I)
    for (unsigned J = I + 1; J < NumKernels; ++J) {
      Point D(2 * NumKernels, 0);
      D[I] = 1;
      D[J] = -1;
      Directions.push_back(D);
    }
  for (unsigned I = 0; I < NumKernels; ++I) {
    Point D(2 * NumKernels, 0);
    D[NumKernels + I] = 1;
    Directions.push_back(D);
  }
  if (StartConfig.size() == NumKernels)
    for (unsigned I = 0; I < NumKernels; ++I)
      StartConfig[I].WorkersPerSm =
          std::clamp(StartConfig[I].WorkersPerSm, 1u, S.MaxWorkersPerSm[I]);
  if (std::optional<Point> P = toPoint(StartConfig)) {
    Start = *P;
    return;
  }
  // An even split, the first kernels taking one group more.
  for (unsigned I = 0; I < NumKernels; ++I)
    Start.push_back(Groups / int(NumKernels) +
                    (int(I) < Groups % int(NumKernels)));
  for (unsigned I = 0; I < NumKernels; ++I)
    Start.push_back(int(S.MaxWorkersPerSm[I]));
}

std::string OnlineSearch::keyOf(std::vector<std::string> Names) {
  std::sort(Names.begin(), Names.end());
  return join(Names, ";");
}

bool OnlineSearch::inRange(const Point &P) const {
  if (NumKernels == 0 || P.size() != 2 * NumKernels)
    return false;
  int Total = 0;
  for (unsigned I = 0; I < NumKernels; ++I) {
    int Workers = P[NumKernels + I];
    if (P[I] < 1 || Workers < 1 || Workers > int(S.MaxWorkersPerSm[I]))
      return false;
    Total += P[I];
  }
  return Total == Groups;
}

std::optional<OnlineSearch::Point>
OnlineSearch::toPoint(const Config &Run) const {
  if (Run.size() != NumKernels)
    return std::nullopt;
  Point P;
  unsigned First = 0;
  for (const KernelShare &Share : Run) {
    if (Share.FirstSm != First || Share.NumSms % S.Granularity != 0)
      return std::nullopt;
    First += Share.NumSms;
    P.push_back(int(Share.NumSms / S.Granularity));
  }
  for (const KernelShare &Share : Run)
    P.push_back(int(Share.WorkersPerSm));
  if (!inRange(P))
    return std::nullopt;
  return P;
}

OnlineSearch::Config OnlineSearch::toConfig(const Point &P) const {
  Config Run(NumKernels);
  unsigned First = 0;
  for (unsigned I = 0; I < NumKernels; ++I) {
    unsigned Sms = unsigned(P[I]) * S.Granularity;
    Run[I] = {First, Sms, unsigned(P[NumKernels + I])};
    First += Sms;
  }
  return Run;
}

bool OnlineSearch::isValid(const Config &Run) const {
  return toPoint(Run).has_value();
}

std::vector<OnlineSearch::Point>
OnlineSearch::neighbours(const Point &P) const {
  std::vector<Point> Result;
  for (const Point &D : Directions)
    for (int Step : {-1, 1}) {
      Point Q = P;
      for (size_t C = 0; C < Q.size(); ++C)
        Q[C] += Step * D[C];
      if (inRange(Q))
        Result.push_back(Q);
    }
  return Result;
}

std::optional<double> OnlineSearch::predictPoint(const Point &P) const {
  if (auto It = Results.find(P); It != Results.end())
    return It->second.stp();
  double Sum = 0;
  unsigned Count = 0;
  for (const Point &D : Directions) {
    // The nearest two measured points on each side: (distance, STP).
    auto Along = [&](int Step) {
      std::vector<std::pair<double, double>> Found;
      for (int Distance = 1; Found.size() < 2; ++Distance) {
        Point Q = P;
        for (size_t C = 0; C < Q.size(); ++C)
          Q[C] += Step * Distance * D[C];
        if (!inRange(Q))
          break;
        if (auto It = Results.find(Q); It != Results.end())
          Found.push_back({double(Distance), It->second.stp()});
      }
      return Found;
    };
    auto Below = Along(-1), Above = Along(1);
    if (!Below.empty() && !Above.empty()) {
      auto [DB, VB] = Below[0];
      auto [DA, VA] = Above[0];
      Sum += VB + (VA - VB) * DB / (DB + DA);
    } else if (Below.size() == 2 || Above.size() == 2) {
      auto &Side = Below.size() == 2 ? Below : Above;
      auto [DNear, VNear] = Side[0];
      auto [DFar, VFar] = Side[1];
      Sum += VNear + (VNear - VFar) * DNear / (DFar - DNear);
    } else {
      continue;
    }
    ++Count;
  }
  if (Count == 0)
    return std::nullopt;
  return Sum / Count;
}

const OnlineSearch::Point *OnlineSearch::bestPoint() const {
  const Point *Best = nullptr;
  double BestStp = 0;
  for (const auto &[P, M] : Results)
    if (!Best || M.stp() > BestStp) {
      Best = &P;
      BestStp = M.stp();
    }
  return Best;
}

bool OnlineSearch::converged() const {
  if (Steps >= S.MaxSteps)
    return true;
  const Point *Best = bestPoint();
  if (!Best)
    return false;
  for (const Point &Q : neighbours(*Best))
    if (!Results.count(Q))
      return false;
  return true;
}

std::optional<OnlineSearch::Config> OnlineSearch::next() const {
  if (Start.empty())
    return std::nullopt;
  const Point *Best = bestPoint();
  if (!Best)
    return toConfig(Start);
  if (converged())
    return toConfig(*Best);
  // The untried neighbour predicted best, the first of equals.
  double BestStp = Results.at(*Best).stp();
  std::optional<Point> Pick;
  double PickStp = 0;
  for (const Point &Q : neighbours(*Best)) {
    if (Results.count(Q))
      continue;
    double Predicted = predictPoint(Q).value_or(BestStp);
    if (!Pick || Predicted > PickStp) {
      Pick = Q;
      PickStp = Predicted;
    }
  }
  return toConfig(*Pick);
}

bool OnlineSearch::report(const Config &Run, double MeasuredStp) {
  std::optional<Point> P = toPoint(Run);
  if (!P || !std::isfinite(MeasuredStp) || MeasuredStp < 0)
    return false;
  Measured &M = Results[*P];
  M.SumStp += MeasuredStp;
  ++M.Count;
  ++Steps;
  return true;
}

std::optional<OnlineSearch::Config> OnlineSearch::best() const {
  if (const Point *P = bestPoint())
    return toConfig(*P);
  return std::nullopt;
}

std::optional<double> OnlineSearch::bestStp() const {
  if (const Point *P = bestPoint())
    return Results.at(*P).stp();
  return std::nullopt;
}

std::optional<double> OnlineSearch::predict(const Config &Run) const {
  if (std::optional<Point> P = toPoint(Run))
    return predictPoint(*P);
  return std::nullopt;
}

} // namespace smc
