//===- KerneletPlanner.cpp - Kernelet's greedy slice co-scheduler ---------===//
//
// planGreedy() and predictSeconds() of KerneletModel.h.  One event loop
// (Engine) runs a plan in model time: it replays a finished Schedule for
// predictSeconds(), runs under planGreedy() while the plan grows (so the
// two predict the same makespan), and runs ahead on copies to check that
// a pair pays off.
//===----------------------------------------------------------------------===//
#include "KerneletModel.h"
#include "KerneletPredictor.h"
#include "base/Text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace smc::kernelet {

namespace {

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
    Left.push_back(R.ctas);
    Started.push_back(false);
  }
  bool done(size_t I) const { return Left[I] <= 0; }

  // The first run of Lane not yet done, or Runs.size().
  size_t laneHead(unsigned Lane) const {
    for (size_t I = 0; I < Runs.size(); ++I)
      if (Runs[I].lane == Lane && !done(I))
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
      if (K == First || L <= 1e-9 * Runs[Flying[K]].ctas)
        L = 0;
    }
    return true;
  }

  bool launchDone(unsigned Launch) const {
    for (size_t I = 0; I < Runs.size(); ++I)
      if (Runs[I].launch == Launch && !done(I))
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
      if (Runs[J].fence && Runs[J].ctas > 0)
        Fence = J;
    for (size_t J = 0; J < I; ++J) {
      if (done(J))
        continue;
      const SliceRun &E = Runs[J];
      if (J < Fence || E.lane == R.lane || E.launch == R.launch ||
          Launches[E.launch].Stream == Launches[R.launch].Stream)
        return false;
    }
    return true;
  }

  bool whole(const SliceRun &R) const {
    const KernelTraits &T = Launches[R.launch].Traits;
    return R.firstCta == 0 && R.ctas == T.Ctas && R.sliceCtas >= R.ctas;
  }

  double soloRate(const SliceRun &R) {
    const KernelTraits &T = Launches[R.launch].Traits;
    return Modelable[R.launch] ? P.soloRate(T, R.sliceCtas, whole(R))
                               : Predictor::aloneRate(T);
  }

  std::vector<double> pairRates(const SliceRun &A, const SliceRun &B) {
    const KernelTraits &Ta = Launches[A.launch].Traits,
                       &Tb = Launches[B.launch].Traits;
    double AloneA = Predictor::aloneRate(Ta), AloneB = Predictor::aloneRate(Tb);
    if (!Modelable[A.launch] || !Modelable[B.launch])
      return {AloneA / 2, AloneB / 2};
    PairIpc I =
        P.pair(Ta.MemRatio, P.warps(Ta, P.sliceCtasPerSm(Ta, A.sliceCtas)),
               Tb.MemRatio, P.warps(Tb, P.sliceCtasPerSm(Tb, B.sliceCtas)));
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
      if (R.ctas > 0)
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
    T.add({L, Lane, First, Ctas, unsigned(std::min<uint64_t>(Slice, Ctas)), 0,
           0, 0, Fence});
  }

  unsigned laneOf(const Engine &T, unsigned K) const {
    for (const SliceRun &R : T.Runs)
      if (R.launch == K && R.ctas > 0)
        return R.lane;
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
      if (R.launch != K || T.done(I))
        continue;
      double Done = R.ctas - T.Left[I];
      unsigned Keep = Current
                          ? 0
                          : unsigned(std::min<uint64_t>(
                                uint64_t(std::ceil(Done / R.sliceCtas - 1e-9)) *
                                    R.sliceCtas,
                                R.ctas));
      T.Left[I] = Keep ? Keep - Done : 0;
      R.ctas = Keep;
      if (!Current)
        End = R.firstCta + Keep;
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
      Queued |= T.Runs[I].launch == K && !T.done(I);
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

Schedule planGreedy(const DeviceModel &M,
                    const std::vector<PendingLaunch> &Launches,
                    double MinProfit) {
  return Greedy(M, Launches, MinProfit).plan();
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
