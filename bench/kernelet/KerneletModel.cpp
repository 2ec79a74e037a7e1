//===- KerneletModel.cpp - Kernelet's IPC model and pair co-schedules -----===//
//
// See KerneletModel.h.  The chains are solved exactly by Grassmann-Taksar-
// Heyman elimination, cubic in the states; power iteration, slow for
// kernels that rarely touch memory, is only the fallback for chains with
// several closed classes.  A pair that fits one SM (at most 16 warps per
// scheduler together: 81 states) solves in well under 0.1 ms, two kernels
// of 16 warps each (289 states) in about 2 ms; each planner call memoizes
// the chains it solves (Predictor, KerneletPredictor.h).
//===----------------------------------------------------------------------===//
#include "KerneletModel.h"
#include "KerneletPredictor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <tuple>

namespace smc::kernelet {

namespace {

constexpr double Tolerance = 1e-12; // of the power iteration, in L1
constexpr unsigned MaxPowerIterations = 20000;

double clampRatio(double R) { return R > 0 ? std::min(R, 1.0) : 0.0; }

unsigned clampWarps(unsigned W) { return std::min(W, MaxChainWarps); }

// Rows[n][k] = P(k successes of n trials of probability P), n = 0..MaxN,
// by repeated convolution with (1 - P, P): exact at P = 0 and P = 1.
std::vector<std::vector<double>> binomialRows(unsigned MaxN, double P) {
  std::vector<std::vector<double>> Rows(MaxN + 1);
  Rows[0] = {1.0};
  for (unsigned N = 1; N <= MaxN; ++N) {
    std::vector<double> &Row = Rows[N];
    Row.assign(N + 1, 0.0);
    for (unsigned K = 0; K < N; ++K) {
      Row[K] += Rows[N - 1][K] * (1 - P);
      Row[K + 1] += Rows[N - 1][K] * P;
    }
  }
  return Rows;
}

// The probability that an idle warp wakes in a round of a virtual SM of
// Warps warps of which Idle are idle.
double wakeProbability(const DeviceModel &M, unsigned Warps, unsigned Idle) {
  double Latency = M.LatencyBase + M.LatencySlope * Idle;
  double Round = std::max(double(Warps) - Idle, 1.0);
  return Latency > Round ? Round / Latency : 1.0;
}

// The transition matrix of kernels A and B (B may have no warps) sharing a
// virtual SM: row-major over states p * (WB + 1) + q, p and q the idle
// warps of each.
std::vector<double> pairChain(const DeviceModel &M, double RmA, unsigned WA,
                              double RmB, unsigned WB) {
  unsigned NA = WA + 1, NB = WB + 1, N = NA * NB, W = WA + WB;
  std::vector<std::vector<double>> IssueA = binomialRows(WA, RmA),
                                   IssueB = binomialRows(WB, RmB);
  // Wake[x][n]: how many of n idle warps wake with x idle in all.
  std::vector<std::vector<std::vector<double>>> Wake(W + 1);
  for (unsigned X = 0; X <= W; ++X)
    Wake[X] =
        binomialRows(std::min(X, std::max(WA, WB)), wakeProbability(M, W, X));
  // The distribution of a kernel's idle warps after the round: Idle plus
  // those that issue a memory instruction, less those that wake.
  auto Next = [](const std::vector<double> &Issue,
                 const std::vector<double> &Woken, unsigned Idle,
                 std::vector<double> &Out) {
    std::fill(Out.begin(), Out.end(), 0.0);
    for (unsigned A = 0; A < Issue.size(); ++A)
      for (unsigned B = 0; B < Woken.size(); ++B)
        Out[Idle + A - B] += Issue[A] * Woken[B];
  };
  std::vector<double> P(size_t(N) * N, 0.0), NextA(NA), NextB(NB);
  for (unsigned Pa = 0; Pa < NA; ++Pa)
    for (unsigned Qb = 0; Qb < NB; ++Qb) {
      unsigned X = Pa + Qb;
      Next(IssueA[WA - Pa], Wake[X][Pa], Pa, NextA);
      Next(IssueB[WB - Qb], Wake[X][Qb], Qb, NextB);
      double *Row = &P[size_t(Pa * NB + Qb) * N];
      for (unsigned J = 0; J < NA; ++J)
        if (NextA[J] != 0)
          for (unsigned K = 0; K < NB; ++K)
            Row[J * NB + K] = NextA[J] * NextB[K];
    }
  return P;
}

// Grassmann-Taksar-Heyman: the stationary distribution of the chain P
// (destroyed), exact to rounding and free of subtractions.  False when a
// state cannot reach the states below it (several closed classes).
bool gth(std::vector<double> &P, unsigned N, std::vector<double> &Pi) {
  for (unsigned K = N - 1; K > 0; --K) {
    const double *RowK = &P[size_t(K) * N];
    double S = 0;
    for (unsigned J = 0; J < K; ++J)
      S += RowK[J];
    if (!(S > 0) || !std::isfinite(S))
      return false;
    for (unsigned I = 0; I < K; ++I) {
      double *RowI = &P[size_t(I) * N];
      double F = RowI[K] / S;
      RowI[K] = F;
      if (F != 0)
        for (unsigned J = 0; J < K; ++J)
          RowI[J] += F * RowK[J];
    }
  }
  Pi.assign(N, 0.0);
  Pi[0] = 1;
  double Sum = 1;
  for (unsigned K = 1; K < N; ++K) {
    double V = 0;
    for (unsigned I = 0; I < K; ++I)
      V += Pi[I] * P[size_t(I) * N + K];
    Pi[K] = V;
    Sum += V;
  }
  if (!std::isfinite(Sum))
    return false;
  for (double &V : Pi)
    V /= Sum;
  return true;
}

// The lazy chain (P + I) / 2 iterated from state 0: converges for periodic
// chains too, and to the class state 0 reaches.
std::vector<double> powerIterate(const std::vector<double> &P, unsigned N) {
  std::vector<double> Pi(N, 0.0), Next(N);
  Pi[0] = 1;
  for (unsigned It = 0; It < MaxPowerIterations; ++It) {
    for (unsigned J = 0; J < N; ++J)
      Next[J] = 0.5 * Pi[J];
    for (unsigned I = 0; I < N; ++I)
      if (Pi[I] != 0)
        for (unsigned J = 0; J < N; ++J)
          Next[J] += 0.5 * Pi[I] * P[size_t(I) * N + J];
    double Change = 0, Sum = 0;
    for (unsigned J = 0; J < N; ++J) {
      Change += std::fabs(Next[J] - Pi[J]);
      Sum += Next[J];
    }
    for (unsigned J = 0; J < N; ++J)
      Pi[J] = Next[J] / Sum;
    if (Change < Tolerance)
      break;
  }
  return Pi;
}

std::vector<double> pairStationary(const DeviceModel &M, double RmA,
                                   unsigned WA, double RmB, unsigned WB) {
  unsigned N = (WA + 1) * (WB + 1);
  std::vector<double> P = pairChain(M, RmA, WA, RmB, WB), Pi;
  if (N == 1 || gth(P, N, Pi))
    return N == 1 ? std::vector<double>{1.0} : Pi;
  return powerIterate(pairChain(M, RmA, WA, RmB, WB), N);
}

double profitOf(double NormA, double NormB) {
  double Sum = NormA + NormB;
  return Sum > 0 ? 1 - 1 / Sum : -std::numeric_limits<double>::max();
}

} // namespace

std::vector<PairChoice> options(Predictor &P, const KernelTraits &A,
                                const KernelTraits &B) {
  std::vector<PairChoice> Out;
  if (!P.ModelOk || !checkTraits(A) || !checkTraits(B))
    return Out;
  unsigned MaxA = P.aloneCtasPerSm(A), MaxB = P.aloneCtasPerSm(B);
  double IpcA = P.aloneIpc(A), IpcB = P.aloneIpc(B);
  for (unsigned Ca = 1; Ca <= MaxA; ++Ca)
    for (unsigned Cb = 1; Cb <= MaxB; ++Cb) {
      double Share = double(Ca) / A.CtasPerSm + double(Cb) / B.CtasPerSm;
      uint64_t Warps =
          uint64_t(Ca) * A.WarpsPerCta + uint64_t(Cb) * B.WarpsPerCta;
      if (Share > 1 + 1e-9 || Warps > P.M.MaxWarpsPerSm)
        continue;
      PairIpc I =
          P.pair(A.MemRatio, P.warps(A, Ca), B.MemRatio, P.warps(B, Cb));
      double NormA = I.First / IpcA, NormB = I.Second / IpcB;
      PairChoice C;
      C.CtasPerSmA = Ca;
      C.CtasPerSmB = Cb;
      C.Profit = profitOf(NormA, NormB);
      C.RateA = Predictor::aloneRate(A) * NormA;
      C.RateB = Predictor::aloneRate(B) * NormB;
      Out.push_back(C);
    }
  return Out;
}

std::optional<PairChoice> balanced(const DeviceModel &M,
                                   const std::vector<PairChoice> &Options) {
  double Least = Inf;
  for (const PairChoice &C : Options)
    Least = std::min(Least, sliceImbalance(M, C));
  std::optional<PairChoice> Best;
  for (const PairChoice &C : Options)
    if (sliceImbalance(M, C) <= Least + 0.05 + 1e-12 &&
        (!Best || C.Profit > Best->Profit))
      Best = C;
  return Best;
}

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

bool checkModel(const DeviceModel &M, std::string *Error) {
  const char *Why = M.NumSms == 0          ? "no SMs"
                    : M.MaxWarpsPerSm == 0 ? "no warps per SM"
                                           : nullptr;
  if (Why && Error)
    *Error = Why;
  return !Why;
}

unsigned warpsPerScheduler(const DeviceModel &M, unsigned WarpsPerSm) {
  if (WarpsPerSm == 0)
    return 0;
  uint64_t S = std::max(M.WarpSchedulers, 1u);
  return unsigned(std::max<uint64_t>(1, (WarpsPerSm + S / 2) / S));
}

std::vector<double> stationaryDistribution(std::vector<double> Transition,
                                           unsigned States) {
  if (States == 0 || Transition.size() != size_t(States) * States)
    return {};
  for (unsigned I = 0; I < States; ++I) {
    double Sum = 0;
    for (unsigned J = 0; J < States; ++J) {
      double V = Transition[size_t(I) * States + J];
      if (!(V >= 0) || !std::isfinite(V))
        return {};
      Sum += V;
    }
    if (std::fabs(Sum - 1) > 1e-9)
      return {};
  }
  std::vector<double> Copy = Transition, Pi;
  if (gth(Transition, States, Pi))
    return Pi;
  return powerIterate(Copy, States);
}

std::vector<double> soloStationary(const DeviceModel &M, double MemRatio,
                                   unsigned WarpsPerScheduler) {
  return pairStationary(M, clampRatio(MemRatio), clampWarps(WarpsPerScheduler),
                        0, 0);
}

double soloIpc(const DeviceModel &M, double MemRatio,
               unsigned WarpsPerScheduler) {
  return pairIpc(M, MemRatio, WarpsPerScheduler, 0, 0).First;
}

PairIpc pairIpc(const DeviceModel &M, double MemRatioA, unsigned WarpsA,
                double MemRatioB, unsigned WarpsB) {
  unsigned WA = clampWarps(WarpsA), WB = clampWarps(WarpsB);
  if (WA + WB == 0)
    return {};
  // Solved chains, for the process: recurring batches plan from them (a
  // chain of 16 + 16 warps takes about 2 ms to solve).
  using Key = std::tuple<double, double, unsigned, unsigned, double, unsigned,
                         double, unsigned>;
  static std::mutex CacheMutex;
  static std::map<Key, PairIpc> Cache;
  Key K{M.LatencyBase,         M.LatencySlope,
        M.WarpSchedulers,      M.MaxWarpsPerSm,
        clampRatio(MemRatioA), WA,
        clampRatio(MemRatioB), WB};
  {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    auto It = Cache.find(K);
    if (It != Cache.end())
      return It->second;
  }
  std::vector<double> Pi =
      pairStationary(M, clampRatio(MemRatioA), WA, clampRatio(MemRatioB), WB);
  double IssuedA = 0, IssuedB = 0, Cycles = 0;
  for (unsigned Pa = 0; Pa <= WA; ++Pa)
    for (unsigned Qb = 0; Qb <= WB; ++Qb) {
      double G = Pi[Pa * (WB + 1) + Qb];
      unsigned ReadyA = WA - Pa, ReadyB = WB - Qb;
      IssuedA += G * ReadyA;
      IssuedB += G * ReadyB;
      Cycles += G * std::max(ReadyA + ReadyB, 1u);
    }
  PairIpc Result{IssuedA / Cycles, IssuedB / Cycles};
  std::lock_guard<std::mutex> Lock(CacheMutex);
  if (Cache.size() > 100000)
    Cache.clear();
  Cache.emplace(K, Result);
  return Result;
}

DeviceModel calibrate(DeviceModel Base, const std::vector<IpcSample> &Samples) {
  std::vector<IpcSample> Used;
  for (const IpcSample &S : Samples)
    if (S.WarpsPerScheduler > 0 && std::isfinite(S.MemRatio) &&
        std::isfinite(S.MeasuredIpc))
      Used.push_back(S);
  if (Used.empty())
    return Base;
  auto Loss = [&](double LatencyBase, double LatencySlope) {
    DeviceModel M = Base;
    M.LatencyBase = LatencyBase;
    M.LatencySlope = LatencySlope;
    double Sum = 0;
    for (const IpcSample &S : Used) {
      double E = soloIpc(M, S.MemRatio, S.WarpsPerScheduler) - S.MeasuredIpc;
      Sum += E * E;
    }
    return Sum;
  };
  // A Steps x Steps grid over the range, then again over +-2 steps around
  // the best point, each round 5 times finer.
  constexpr double BaseMin = 20, BaseMax = 2000, SlopeMin = 0, SlopeMax = 200;
  constexpr unsigned Steps = 16, Rounds = 7;
  double BaseLo = BaseMin, BaseHi = BaseMax, SlopeLo = SlopeMin,
         SlopeHi = SlopeMax;
  double BestBase = Base.LatencyBase, BestSlope = Base.LatencySlope,
         BestLoss = Inf;
  for (unsigned Round = 0; Round < Rounds; ++Round) {
    double BaseStep = (BaseHi - BaseLo) / Steps,
           SlopeStep = (SlopeHi - SlopeLo) / Steps;
    for (unsigned I = 0; I <= Steps; ++I)
      for (unsigned J = 0; J <= Steps; ++J) {
        double B = BaseLo + I * BaseStep, S = SlopeLo + J * SlopeStep;
        double L = Loss(B, S);
        if (L < BestLoss) {
          BestLoss = L;
          BestBase = B;
          BestSlope = S;
        }
      }
    BaseLo = std::max(BaseMin, BestBase - 2 * BaseStep);
    BaseHi = std::min(BaseMax, BestBase + 2 * BaseStep);
    SlopeLo = std::max(SlopeMin, BestSlope - 2 * SlopeStep);
    SlopeHi = std::min(SlopeMax, BestSlope + 2 * SlopeStep);
  }
  Base.LatencyBase = BestBase;
  Base.LatencySlope = BestSlope;
  return Base;
}

//===----------------------------------------------------------------------===//
// Pairs
//===----------------------------------------------------------------------===//

std::vector<PairChoice> pairOptions(const DeviceModel &M, const KernelTraits &A,
                                    const KernelTraits &B) {
  Predictor P(M);
  return options(P, A, B);
}

double sliceImbalance(const DeviceModel &M, const PairChoice &C) {
  double Ta = double(C.CtasPerSmA) * M.NumSms / C.RateA,
         Tb = double(C.CtasPerSmB) * M.NumSms / C.RateB;
  double Longer = std::max(Ta, Tb);
  return Longer > 0 && std::isfinite(Longer) ? std::fabs(Ta - Tb) / Longer
                                             : 1.0;
}

std::optional<PairChoice>
choosePair(const DeviceModel &M, const KernelTraits &A, const KernelTraits &B) {
  return balanced(M, pairOptions(M, A, B));
}

} // namespace smc::kernelet
