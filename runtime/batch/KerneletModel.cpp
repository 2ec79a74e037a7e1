//===- KerneletModel.cpp - Kernelet's IPC model and co-scheduler ----------===//
//
// See KerneletModel.h.  The chains are solved exactly by Grassmann-Taksar-
// Heyman elimination, cubic in the states; power iteration, slow for
// kernels that rarely touch memory, is only the fallback for chains with
// several closed classes.  A pair that fits one SM (at most 16 warps per
// scheduler together: 81 states) solves in well under 0.1 ms, two kernels
// of 16 warps each (289 states) in about 2 ms; each planner call memoizes
// the chains it solves (Predictor).  One event loop (Engine) runs a plan in
// model time: it replays a finished Schedule for predictSeconds(), runs
// under planGreedy() while the plan grows (so the two predict the same
// makespan), and runs ahead on copies to check that a pair pays off.
//===----------------------------------------------------------------------===//
#include "batch/KerneletModel.h"
#include "base/Text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <mutex>
#include <tuple>

namespace smc::kernelet {

namespace {

constexpr double Inf = std::numeric_limits<double>::infinity();
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

// Memoized model evaluations for one device model (one planner call).
class Predictor {
public:
  explicit Predictor(const DeviceModel &M) : M(M), ModelOk(checkModel(M)) {}

  const DeviceModel M;
  const bool ModelOk;

  double solo(double Rm, unsigned W) { return pair(Rm, W, 0, 0).First; }
  PairIpc pair(double RmA, unsigned WA, double RmB, unsigned WB) {
    auto Key = std::make_tuple(RmA, WA, RmB, WB);
    auto It = Pairs.find(Key);
    if (It == Pairs.end())
      It = Pairs.emplace(Key, pairIpc(M, RmA, WA, RmB, WB)).first;
    return It->second;
  }

  unsigned warps(const KernelTraits &T, unsigned CtasPerSm) const {
    uint64_t W = uint64_t(CtasPerSm) * T.WarpsPerCta;
    return warpsPerScheduler(M, unsigned(std::min<uint64_t>(W, UINT32_MAX)));
  }
  // CTAs per SM of the launch alone, and of a slice of Slice CTAs.
  unsigned aloneCtasPerSm(const KernelTraits &T) const {
    return sliceCtasPerSm(T, T.Ctas);
  }
  unsigned sliceCtasPerSm(const KernelTraits &T, unsigned Slice) const {
    unsigned Sms = std::max(M.NumSms, 1u);
    unsigned C = unsigned((uint64_t(Slice) + Sms - 1) / Sms);
    return std::max(1u, std::min(C, T.CtasPerSm));
  }
  double aloneIpc(const KernelTraits &T) {
    return solo(T.MemRatio, warps(T, aloneCtasPerSm(T)));
  }
  // CTAs per second of T alone in slices of Slice CTAs (Whole: the launch
  // as measured).
  double soloRate(const KernelTraits &T, unsigned Slice, bool Whole) {
    unsigned C = sliceCtasPerSm(T, Slice);
    if (Whole || C >= aloneCtasPerSm(T))
      return aloneRate(T);
    return aloneRate(T) * solo(T.MemRatio, warps(T, C)) / aloneIpc(T);
  }
  static double aloneRate(const KernelTraits &T) {
    return T.AloneSeconds > 0 && std::isfinite(T.AloneSeconds)
               ? T.Ctas / T.AloneSeconds
               : Inf;
  }

private:
  std::map<std::tuple<double, unsigned, double, unsigned>, PairIpc> Pairs;
};

double profitOf(double NormA, double NormB) {
  double Sum = NormA + NormB;
  return Sum > 0 ? 1 - 1 / Sum : -std::numeric_limits<double>::max();
}

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
// The event loop
//===----------------------------------------------------------------------===//

// Runs a growing list of slice runs in model time.  Runs of no CTAs are
// dropped ones (planGreedy replaced them): done from the start.
class Engine {
public:
  Engine(Predictor &P, const std::vector<PendingLaunch> &Launches)
      : P(P), Launches(Launches) {
    for (const PendingLaunch &L : Launches)
      Modelable.push_back(L.Known && P.ModelOk && checkTraits(L.Traits));
  }

  std::vector<SliceRun> Runs;
  std::vector<double> Left; // CTAs each run has left
  std::vector<bool> Started;
  double Now = 0;

  void add(const SliceRun &R) {
    Runs.push_back(R);
    Left.push_back(R.Ctas);
    Started.push_back(false);
  }
  bool done(size_t I) const { return Left[I] <= 0; }

  // The first run of Lane not yet done, or Runs.size().
  size_t laneHead(unsigned Lane) const {
    for (size_t I = 0; I < Runs.size(); ++I)
      if (Runs[I].Lane == Lane && !done(I))
        return I;
    return Runs.size();
  }

  // Starts the head run of each lane when the runs it waits for are done.
  void startReady() {
    for (unsigned Lane = 0; Lane < 2; ++Lane) {
      size_t I = laneHead(Lane);
      if (I < Runs.size() && !Started[I] && canStart(I))
        Started[I] = true;
    }
  }

  // Advances to the end of the next run in flight; false when none is.
  bool advance() {
    std::vector<size_t> Flying;
    for (unsigned Lane = 0; Lane < 2; ++Lane) {
      size_t I = laneHead(Lane);
      if (I < Runs.size() && Started[I])
        Flying.push_back(I);
    }
    if (Flying.empty())
      return false;
    std::vector<double> Rate =
        Flying.size() == 2 ? pairRates(Runs[Flying[0]], Runs[Flying[1]])
                           : std::vector<double>{soloRate(Runs[Flying[0]])};
    double Step = Inf;
    size_t First = 0;
    for (size_t K = 0; K < Flying.size(); ++K) {
      double T = Rate[K] == Inf ? 0 : Left[Flying[K]] / Rate[K];
      if (T < Step) {
        Step = T;
        First = K;
      }
    }
    if (!std::isfinite(Step)) { // nothing progresses
      Now = Inf;
      return false;
    }
    Now += Step;
    for (size_t K = 0; K < Flying.size(); ++K) {
      double &L = Left[Flying[K]];
      L = Rate[K] == Inf ? 0 : L - Rate[K] * Step;
      if (K == First || L <= 1e-9 * Runs[Flying[K]].Ctas)
        L = 0;
    }
    return true;
  }

  bool launchDone(unsigned Launch) const {
    for (size_t I = 0; I < Runs.size(); ++I)
      if (Runs[I].Launch == Launch && !done(I))
        return false;
    return true;
  }

private:
  Predictor &P;
  const std::vector<PendingLaunch> &Launches;
  std::vector<bool> Modelable;

  // Waits for earlier runs of its lane and launch, of earlier launches of
  // its stream, and every run before the last fence up to it.
  bool canStart(size_t I) const {
    const SliceRun &R = Runs[I];
    size_t Fence = 0;
    for (size_t J = 0; J <= I; ++J)
      if (Runs[J].Fence && Runs[J].Ctas > 0)
        Fence = J;
    for (size_t J = 0; J < I; ++J) {
      if (done(J))
        continue;
      const SliceRun &E = Runs[J];
      if (J < Fence || E.Lane == R.Lane || E.Launch == R.Launch ||
          Launches[E.Launch].Stream == Launches[R.Launch].Stream)
        return false;
    }
    return true;
  }

  bool whole(const SliceRun &R) const {
    const KernelTraits &T = Launches[R.Launch].Traits;
    return R.FirstCta == 0 && R.Ctas == T.Ctas && R.SliceCtas >= R.Ctas;
  }

  double soloRate(const SliceRun &R) {
    const KernelTraits &T = Launches[R.Launch].Traits;
    return Modelable[R.Launch] ? P.soloRate(T, R.SliceCtas, whole(R))
                               : Predictor::aloneRate(T);
  }

  std::vector<double> pairRates(const SliceRun &A, const SliceRun &B) {
    const KernelTraits &Ta = Launches[A.Launch].Traits,
                       &Tb = Launches[B.Launch].Traits;
    double AloneA = Predictor::aloneRate(Ta), AloneB = Predictor::aloneRate(Tb);
    if (!Modelable[A.Launch] || !Modelable[B.Launch])
      return {AloneA / 2, AloneB / 2};
    PairIpc I =
        P.pair(Ta.MemRatio, P.warps(Ta, P.sliceCtasPerSm(Ta, A.SliceCtas)),
               Tb.MemRatio, P.warps(Tb, P.sliceCtasPerSm(Tb, B.SliceCtas)));
    return {AloneA * I.First / P.aloneIpc(Ta),
            AloneB * I.Second / P.aloneIpc(Tb)};
  }
};

// The greedy co-scheduler: decisions at the ends of launches, the engine
// running the runs decided so far in between.  A pair that profits enough
// co-runs only if the engine, run ahead on a copy, has the two end sooner
// than one after the other (slicing a launch of few waves can make it
// slower than its partner makes up for).
class Greedy {
public:
  Greedy(const DeviceModel &M, const std::vector<PendingLaunch> &Launches,
         double MinProfit)
      : P(M), E(P, Launches), Launches(Launches), MinProfit(MinProfit),
        Emitted(Launches.size()), Ended(Launches.size()),
        CtasPerSm(Launches.size()) {
    for (unsigned L = 0; L < Launches.size(); ++L)
      Streams[Launches[L].Stream].push_back(L);
  }

  Schedule plan() {
    retire();
    decide();
    for (E.startReady(); E.advance(); E.startReady())
      if (retire())
        decide();
    for (unsigned L = 0; L < Launches.size(); ++L)
      if (!Ended[L] && Launches[L].Traits.Ctas > 0)
        note("internal: " + name(L) + " was never run"); // a bug if seen
    for (const SliceRun &R : E.Runs)
      if (R.Ctas > 0)
        Out.Runs.push_back(R);
    Out.PredictedSeconds = E.Now;
    return std::move(Out);
  }

private:
  using Partner = std::pair<PairChoice, unsigned>; // the split, the launch

  Predictor P;
  Engine E;
  const std::vector<PendingLaunch> &Launches;
  const double MinProfit;
  Schedule Out;
  // Each stream's launches in order, and the first of them not ended.
  std::map<unsigned, std::vector<unsigned>> Streams;
  std::map<unsigned, size_t> Head;
  std::vector<bool> Emitted, Ended;
  std::vector<unsigned> CtasPerSm; // of its current split; 0: alone

  void note(const std::string &S) { Out.Notes.push_back(S); }
  std::string name(unsigned L) const {
    const std::string &Name = Launches[L].Traits.Name;
    return "launch " + std::to_string(L) +
           (Name.empty() ? std::string() : " (" + Name + ")");
  }
  // Why launch L cannot be co-scheduled; empty if it can.
  std::string unpairable(unsigned L) const {
    const PendingLaunch &Launch = Launches[L];
    std::string Error;
    if (!Launch.Sliceable)
      return "not sliceable";
    if (!Launch.Known)
      return "traits not measured";
    if (!checkTraits(Launch.Traits, &Error))
      return "traits incomplete (" + Error + ")";
    if (!checkModel(P.M, &Error))
      return "device model incomplete (" + Error + ")";
    if (2ull * minSliceCtas(P.M, Launch.Traits) > Launch.Traits.Ctas)
      return "too short to slice (two slices would cost more than " +
             std::to_string(int(P.M.MaxSliceOverhead * 100 + 0.5)) +
             "% of its time)";
    return "";
  }

  // Ends the launches at the heads of their streams whose runs are all
  // done (and those of no CTAs); true if any ended.
  bool retire() {
    bool Any = false;
    for (auto &[Stream, List] : Streams)
      for (size_t &H = Head[Stream]; H < List.size(); ++H) {
        unsigned L = List[H];
        if (Launches[L].Traits.Ctas == 0)
          note(name(L) + " has no CTAs: nothing to run");
        else if (!Emitted[L] || !E.launchDone(L))
          break;
        Ended[L] = Any = true;
      }
    return Any;
  }

  //===--- Changes to a plan, made on E or on a copy to look ahead ---===//

  // Adds launch L from CTA First to its end, in slices of C CTAs per SM (0:
  // one launch of the range).
  void add(Engine &T, unsigned L, unsigned Lane, unsigned First, unsigned C,
           bool Fence) const {
    unsigned Ctas = Launches[L].Traits.Ctas - First;
    uint64_t Slice =
        C ? std::max<uint64_t>(uint64_t(C) * std::max(P.M.NumSms, 1u),
                               minSliceCtas(P.M, Launches[L].Traits))
          : Ctas;
    T.add({L, Lane, First, Ctas, unsigned(std::min<uint64_t>(Slice, Ctas)),
           Fence});
  }

  unsigned laneOf(const Engine &T, unsigned K) const {
    for (const SliceRun &R : T.Runs)
      if (R.Launch == K && R.Ctas > 0)
        return R.Lane;
    return 0;
  }

  // Cuts busy launch K's current run after the slice the model has it in
  // (its CTAs done, rounded up to whole slices) and drops its runs queued
  // behind; returns the CTA the rest of K starts at.
  unsigned cut(Engine &T, unsigned K) const {
    unsigned End = Launches[K].Traits.Ctas;
    bool Current = false;
    for (size_t I = 0; I < T.Runs.size(); ++I) {
      SliceRun &R = T.Runs[I];
      if (R.Launch != K || T.done(I))
        continue;
      double Done = R.Ctas - T.Left[I];
      unsigned Keep = Current
                          ? 0
                          : unsigned(std::min<uint64_t>(
                                uint64_t(std::ceil(Done / R.SliceCtas - 1e-9)) *
                                    R.SliceCtas,
                                R.Ctas));
      T.Left[I] = Keep ? Keep - Done : 0;
      R.Ctas = Keep;
      if (!Current)
        End = R.FirstCta + Keep;
      Current = true;
    }
    return End;
  }

  // Busy launch K takes C CTAs per SM from its next slice on (its current
  // run is cut there, unless the split is the same and nothing is queued).
  void resplit(Engine &T, unsigned K, unsigned C) const {
    unsigned Lane = laneOf(T, K);
    bool Queued = false;
    for (size_t I = T.laneHead(Lane) + 1; I < T.Runs.size(); ++I)
      Queued |= T.Runs[I].Launch == K && !T.done(I);
    if (C != CtasPerSm[K] || Queued)
      if (unsigned From = cut(T, K); From < Launches[K].Traits.Ctas)
        add(T, K, Lane, From, C, false);
  }

  // Busy launch K runs the CTAs after its current slice whole, alone;
  // returns how many.
  unsigned finishAlone(Engine &T, unsigned K) const {
    unsigned From = cut(T, K), Ctas = Launches[K].Traits.Ctas;
    if (From < Ctas)
      add(T, K, laneOf(T, K), From, 0, true);
    return Ctas - From;
  }

  // Runs T until launch A or launch B has ended.
  static void runUntilEnd(Engine &T, unsigned A, unsigned B) {
    while (!T.launchDone(A) && !T.launchDone(B)) {
      T.startReady();
      if (!T.advance())
        return;
    }
  }

  // Seconds from now until K (busy or not started) and X (not started)
  // have both ended: co-running at C, the one left over then finishing
  // alone (first), or K alone and X after it, whole (second).
  std::pair<double, double> lookAhead(unsigned K, unsigned X,
                                      const PairChoice &C) const {
    bool Busy = Emitted[K];
    unsigned Lane = Busy ? laneOf(E, K) : 0;
    Engine Co = E, Apart = E;
    if (Busy)
      resplit(Co, K, C.CtasPerSmA);
    else
      add(Co, K, Lane, 0, C.CtasPerSmA, false);
    add(Co, X, 1 - Lane, 0, C.CtasPerSmB, false);
    runUntilEnd(Co, K, X);
    unsigned Left = Co.launchDone(K) ? X : K;
    finishAlone(Co, Left);
    runUntilEnd(Co, Left, Left);
    if (Busy)
      finishAlone(Apart, K);
    else
      add(Apart, K, Lane, 0, 0, false);
    add(Apart, X, Lane, 0, 0, true);
    runUntilEnd(Apart, X, X);
    return {Co.Now - E.Now, Apart.Now - E.Now};
  }

  //===--- Decisions ---===//

  // Of Candidates, the launch whose balanced split with K profits most, of
  // those that profit at least MinProfit and end sooner co-running with K
  // than after it; else none, and why in *Why.
  std::optional<Partner> bestPartner(unsigned K,
                                     const std::vector<unsigned> &Candidates,
                                     std::string *Why = nullptr) {
    std::optional<Partner> Best;
    std::optional<double> Rejected; // the best profit turned down
    std::string Reason = "no ready launch pairs with it";
    for (unsigned X : Candidates) {
      if (X == K)
        continue;
      std::optional<PairChoice> C =
          balanced(P.M, options(P, Launches[K].Traits, Launches[X].Traits));
      if (!C || (Best && C->Profit <= Best->first.Profit))
        continue;
      std::string Against;
      if (C->Profit < MinProfit) {
        Against = " < " + fixed3(MinProfit);
      } else {
        auto [Together, Apart] = lookAhead(K, X, *C);
        if (Together < Apart) {
          Best = Partner{*C, X};
          continue;
        }
        Against = ", but the two end later co-running (" +
                  fixed3(Together * 1e3) + " ms) than one after the other (" +
                  fixed3(Apart * 1e3) + " ms)";
      }
      if (!Rejected || C->Profit > *Rejected) {
        Rejected = C->Profit;
        Reason = "its best partner, " + name(X) + ", profits " +
                 fixed3(C->Profit) + Against;
      }
    }
    if (!Best && Why)
      *Why = Reason;
    return Best;
  }

  // At the end of a launch (or the start): fill the free lanes.
  void decide() {
    std::vector<unsigned> Busy, Ready, Pairable;
    for (unsigned L = 0; L < Launches.size(); ++L)
      if (Emitted[L] && !Ended[L])
        Busy.push_back(L);
    for (auto &[Stream, List] : Streams)
      if (Head[Stream] < List.size() && !Emitted[List[Head[Stream]]])
        Ready.push_back(List[Head[Stream]]);
    std::sort(Ready.begin(), Ready.end());
    for (unsigned L : Ready)
      if (unpairable(L).empty())
        Pairable.push_back(L);
    if (Busy.size() == 1 && CtasPerSm[Busy[0]] != 0)
      joinOrFinish(Busy[0], Pairable);
    else if (Busy.empty() && !Ready.empty())
      startOnFreeDevice(Ready, Pairable);
  }

  void start(unsigned L, unsigned Lane, unsigned C, bool Fence) {
    add(E, L, Lane, 0, C, Fence);
    Emitted[L] = true;
    CtasPerSm[L] = C;
  }

  // K runs sliced on one lane, the other is free: the best partner for K
  // joins it, K taking the new split from its next slice on; without one,
  // K's remaining CTAs run whole, alone.
  void joinOrFinish(unsigned K, const std::vector<unsigned> &Pairable) {
    std::string Why;
    if (std::optional<Partner> With = bestPartner(K, Pairable, &Why)) {
      const PairChoice &C = With->first;
      resplit(E, K, C.CtasPerSmA);
      CtasPerSm[K] = C.CtasPerSmA;
      start(With->second, 1 - laneOf(E, K), C.CtasPerSmB, false);
      note(name(With->second) + " joins " + name(K) + " at " +
           std::to_string(C.CtasPerSmB) + "+" + std::to_string(C.CtasPerSmA) +
           " CTAs per SM: profit " + fixed3(C.Profit));
      return;
    }
    unsigned Rest = finishAlone(E, K);
    CtasPerSm[K] = 0;
    note(name(K) +
         (Rest ? " runs its last " + std::to_string(Rest) +
                     " CTAs whole, alone: "
               : std::string(" ends its last slices alone: ")) +
         Why);
  }

  // Both lanes free: the best pair of ready launches co-runs; else the
  // earliest ready launch runs whole, alone.
  void startOnFreeDevice(const std::vector<unsigned> &Ready,
                         const std::vector<unsigned> &Pairable) {
    bool Fence = !E.Runs.empty();
    std::optional<Partner> Best;
    unsigned First = 0;
    for (size_t I = 0; I < Pairable.size(); ++I) {
      std::vector<unsigned> Later(Pairable.begin() + I + 1, Pairable.end());
      std::optional<Partner> With = bestPartner(Pairable[I], Later);
      if (With && (!Best || With->first.Profit > Best->first.Profit)) {
        Best = With;
        First = Pairable[I];
      }
    }
    if (Best) {
      const PairChoice &C = Best->first;
      start(First, 0, C.CtasPerSmA, Fence);
      start(Best->second, 1, C.CtasPerSmB, false);
      note(name(First) + " and " + name(Best->second) + " co-run at " +
           std::to_string(C.CtasPerSmA) + "+" + std::to_string(C.CtasPerSmB) +
           " CTAs per SM: profit " + fixed3(C.Profit));
      return;
    }
    unsigned L = Ready[0];
    std::string Why = unpairable(L);
    if (Why.empty() && Ready.size() == 1)
      Why = "no other launch ready";
    else if (Why.empty())
      bestPartner(L, Pairable, &Why);
    start(L, 0, 0, Fence);
    note(name(L) + " runs whole, alone: " + Why);
  }
};

} // namespace

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

unsigned minSliceCtas(const DeviceModel &M, const KernelTraits &T) {
  double Ctas =
      T.Ctas * M.SliceLaunchSeconds / (M.MaxSliceOverhead * T.AloneSeconds);
  if (!(Ctas >= 1) || !std::isfinite(Ctas))
    return 1;
  return unsigned(std::min<double>(std::ceil(Ctas), UINT32_MAX));
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

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

Schedule planGreedy(const DeviceModel &M,
                    const std::vector<PendingLaunch> &Launches,
                    double MinProfit) {
  return Greedy(M, Launches, MinProfit).plan();
}

Schedule planSerial(const std::vector<PendingLaunch> &Launches) {
  Schedule Out;
  for (unsigned L = 0; L < Launches.size(); ++L) {
    const KernelTraits &T = Launches[L].Traits;
    if (T.Ctas == 0)
      continue;
    Out.Runs.push_back({L, 0, 0, T.Ctas, T.Ctas, false});
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
    if (R.Launch >= N)
      return Fail(Where + "no launch " + std::to_string(R.Launch));
    const PendingLaunch &L = Launches[R.Launch];
    if (R.Lane > 1 || (Lane[R.Launch] >= 0 && Lane[R.Launch] != int(R.Lane)))
      return Fail(Where + "a launch runs on one lane, 0 or 1");
    if (R.Ctas == 0 || R.SliceCtas == 0 || R.FirstCta != Next[R.Launch] ||
        uint64_t(R.FirstCta) + R.Ctas > L.Traits.Ctas)
      return Fail(Where + "launch " + std::to_string(R.Launch) +
                  " must continue at CTA " + std::to_string(Next[R.Launch]) +
                  " with at least one CTA, within its " +
                  std::to_string(L.Traits.Ctas) +
                  ", in slices of at least one");
    bool Whole = R.FirstCta == 0 && R.Ctas == L.Traits.Ctas;
    if (R.WorkersPerSm && (!Whole || !L.Workers))
      return Fail(Where + "launch " + std::to_string(R.Launch) +
                  " runs as workers only whole, and only with persistent "
                  "workers");
    if (R.SmCount && !R.WorkersPerSm)
      return Fail(Where + "launch " + std::to_string(R.Launch) +
                  " is confined to SMs only as workers");
    if (R.SmCount && NumSms && uint64_t(R.SmFirst) + R.SmCount > NumSms)
      return Fail(Where + "launch " + std::to_string(R.Launch) +
                  " is confined to SMs " + std::to_string(R.SmFirst) + "-" +
                  std::to_string(uint64_t(R.SmFirst) + R.SmCount - 1) +
                  ", beyond the device's " + std::to_string(NumSms));
    if (!L.Sliceable && !R.WorkersPerSm && (!Whole || R.SliceCtas < R.Ctas))
      return Fail(Where + "launch " + std::to_string(R.Launch) +
                  " is not sliceable: it runs whole");
    if (Lane[R.Launch] < 0)
      for (size_t E = 0; E < R.Launch; ++E)
        if (Launches[E].Stream == L.Stream &&
            Next[E] != Launches[E].Traits.Ctas)
          return Fail(Where + "launch " + std::to_string(R.Launch) +
                      " starts before launch " + std::to_string(E) +
                      " of its stream is planned");
    Lane[R.Launch] = int(R.Lane);
    Next[R.Launch] += R.Ctas;
  }
  for (size_t L = 0; L < N; ++L)
    if (Next[L] != Launches[L].Traits.Ctas)
      return Fail("launch " + std::to_string(L) + " has " +
                  std::to_string(Next[L]) + " of its " +
                  std::to_string(Launches[L].Traits.Ctas) + " CTAs planned");
  return true;
}

double predictSeconds(const DeviceModel &M,
                      const std::vector<PendingLaunch> &Launches,
                      const Schedule &S) {
  if (!checkSchedule(Launches, S))
    return Inf;
  Predictor P(M);
  Engine E(P, Launches);
  for (const SliceRun &R : S.Runs)
    E.add(R);
  do
    E.startReady();
  while (E.advance());
  for (size_t I = 0; I < E.Runs.size(); ++I)
    if (!E.done(I))
      return Inf;
  return E.Now;
}

} // namespace smc::kernelet
