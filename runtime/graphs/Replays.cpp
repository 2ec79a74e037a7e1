//===- Replays.cpp - One executable graph's replays and their search ------===//
//
// Replays.h says what runs on each replay; this file keeps the timings,
// steps the search, and tells the user once what was kept.
//===----------------------------------------------------------------------===//
#include "graphs/Replays.h"

#include "base/Messages.h"
#include "measure/Measured.h"
#include "observe/Stats.h"

#include <chrono>
#include <cmath>
#include <cstdio>

namespace smc::graphs {

namespace {

std::string formatMs(double Ms) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.3f ms", Ms);
  return Text;
}

} // namespace

Replays::Replays(cudaGraphExec_t Program, std::unique_ptr<GraphModel> Model,
                 GraphLayouts Mode, unsigned long long Flags)
    : Program(Program), Model(std::move(Model)), Mode(Mode), Flags(Flags),
      Kept(this->Model->sets().size()) {
  if (cudaEventCreateWithFlags(&Order, cudaEventDisableTiming) != cudaSuccess)
    Order = nullptr;
  if (Mode == GraphLayouts::Search)
    startSet(0);
}

Replays::~Replays() {
  for (cudaGraphExec_t *Exec : {&Current, &Trial, &Drawn})
    destroyOurs(*Exec);
  // Timings still pending are dropped; destroying a recorded event is safe.
  for (const Timed &T : Pending) {
    cudaEventDestroy(T.Start);
    cudaEventDestroy(T.End);
  }
  for (cudaEvent_t E : FreeEvents)
    cudaEventDestroy(E);
  if (Order)
    cudaEventDestroy(Order);
}

// A launched executable graph may be destroyed: CUDA frees it when it ends.
void Replays::destroyOurs(cudaGraphExec_t &Exec) {
  if (Exec && Exec != Program)
    cudaGraphExecDestroy(Exec);
  Exec = nullptr;
}

GraphLayout Replays::withSet(const batch::Layout &L) const {
  GraphLayout Full = Kept;
  Full[SetAt] = L;
  return Full;
}

void Replays::startSet(size_t Set) {
  SetAt = Set;
  BaselineMs.clear();
  BaselineMedian = 0;
  unsigned Chains = unsigned(Model->sets()[Set].Set.Chains.size());
  Search.emplace(batch::streamsLayout(Chains), DefaultMargin, GraphTrials,
                 GraphConfirmRuns);
}

cudaGraphExec_t Replays::buildOrStop(const GraphLayout &L) {
  std::string Error;
  cudaGraphExec_t Exec = Model->build(L, Flags, Error);
  if (!Exec)
    stop("building a layout: " + Error);
  return Exec;
}

void Replays::stop(const std::string &Why) {
  if (!Stopped.empty())
    return;
  Stopped = Why;
  tell("graph layouts: an executable graph runs as instantiated from now on: " +
       Why);
  destroyOurs(Trial);
  destroyOurs(Drawn);
  destroyOurs(Current);
  Search.reset();
  Settled = true;
}

void Replays::waitForLast() {
  if (Order && LastExec && LastExec != Program)
    cudaEventSynchronize(Order);
}

void Replays::poll() {
  while (!Pending.empty() &&
         cudaEventQuery(Pending.front().End) == cudaSuccess) {
    Timed T = Pending.front();
    Pending.pop_front();
    float Ms = 0;
    cudaEventElapsedTime(&Ms, T.Start, T.End);
    FreeEvents.push_back(T.Start);
    FreeEvents.push_back(T.End);
    if (T.Kind == Role::CheckKept || T.Kind == Role::CheckProgram) {
      (T.Kind == Role::CheckKept ? CheckKeptMs : CheckProgramMs).push_back(Ms);
      recheck();
      continue;
    }
    if (!Search || Settled)
      continue;
    if (T.Kind == Role::Baseline) {
      BaselineMs.push_back(Ms);
      if (BaselineMs.size() > BaselineWindow)
        BaselineMs.erase(BaselineMs.begin());
      BaselineMedian = median(BaselineMs);
    } else if (T.Kind == Role::Trial) {
      TrialOut = false;
      Budget.spent(TrialBuildMs + Ms - BaselineMedian);
      Search->measured(Ms / 1e3);
    }
  }
  if (!Search || Settled || TrialOut || BaselineMs.size() < GraphConfirmRuns)
    return;
  if (Search->settled()) {
    finishSet();
    return;
  }
  // Once a trial was measured: is the graph long enough to search?
  if (Budget.trials() && !LengthChecked) {
    LengthChecked = true;
    unsigned Affordable = Budget.affordable(BaselineMedian);
    if (Affordable < GraphTrials)
      settle("a trial costs " + formatMs(Budget.spentMs() / Budget.trials()) +
             ", and 5% of 1,000 replays of " + formatMs(BaselineMedian) +
             " pays for " + std::to_string(Affordable) +
             ": too short a graph to search");
  }
}

void Replays::finishSet() {
  double Baseline = BaselineMedian;
  if (SetAt == 0)
    OriginalMs = Baseline;
  double BestMs = Search->bestSeconds() * 1e3;
  if (fasterBy(BestMs, Baseline)) {
    GraphLayout Best = withSet(Search->best());
    cudaGraphExec_t Exec = nullptr;
    if (Trial && TrialLayout == Best)
      std::swap(Exec, Trial);
    else
      Exec = buildOrStop(Best);
    if (!Exec)
      return;
    destroyOurs(Current);
    Current = Exec;
    Kept = std::move(Best);
    KeptMs = BestMs;
  }
  destroyOurs(Trial);
  if (SetAt + 1 < Model->sets().size())
    startSet(SetAt + 1);
  else
    settle();
}

void Replays::recheck() {
  bool Ours = Current != nullptr;
  if (CheckProgramMs.size() < RecheckRuns ||
      (Ours && CheckKeptMs.size() < RecheckRuns))
    return;
  double ProgramMs = median(CheckProgramMs);
  double KeptNowMs = median(CheckKeptMs);
  CheckKeptMs.clear();
  CheckProgramMs.clear();
  ++Rechecks;
  if (Ours && !fasterBy(KeptNowMs, ProgramMs)) {
    tell("graph layouts: a graph's kept layout no longer beats it as "
         "instantiated (" +
         formatMs(KeptNowMs) + " against " + formatMs(ProgramMs) +
         "): it runs as instantiated");
    destroyOurs(Current);
    Kept.assign(Model->sets().size(), std::nullopt);
    KeptMs = 0;
    OriginalMs = ProgramMs;
  } else if (!Ours &&
             std::abs(ProgramMs - OriginalMs) > DriftShare * OriginalMs) {
    tell("graph layouts: a graph's replays went from " + formatMs(OriginalMs) +
         " to " + formatMs(ProgramMs) + ": searching again");
    Settled = Searched = false;
    startSet(0);
  }
}

void Replays::settle(const std::string &Why) {
  Search.reset();
  Settled = true;
  Searched = Why.empty();
  SettledAt = Count;
  destroyOurs(Trial);
  bool Original = !Current;
  if (!Why.empty()) {
    tell("graph layouts: a graph of " + std::to_string(Model->branches()) +
         " branches runs as instantiated: " + Why);
    if (SetAt == 0)
      OriginalMs = BaselineMedian;
  }
  std::string Layout =
      Original ? std::string("original") : GraphModel::text(Kept);
  if (Why.empty())
    tell("graph layouts: a graph of " + std::to_string(Model->branches()) +
         " branches settled on " +
         (Original ? "the graph as instantiated" : Layout) + " after " +
         std::to_string(Budget.trials()) + " trials (" +
         (Original ? formatMs(OriginalMs) + ", no layout faster by 2%"
                   : formatMs(KeptMs) + " against " + formatMs(OriginalMs)) +
         ")");
  stats::GraphRecord R;
  R.CoRunSets = unsigned(Model->sets().size());
  R.Branches = Model->branches();
  R.Trials = Budget.trials();
  R.Layout = Layout;
  R.OriginalMs = OriginalMs;
  R.LayoutMs = Original ? OriginalMs : KeptMs;
  stats::recordGraph(R);
}

cudaGraphExec_t Replays::chooseRandom() {
  destroyOurs(Drawn);
  if (Random() % 3 == 0)
    return Program;
  GraphLayout L(Model->sets().size());
  for (size_t K = 0; K < L.size(); ++K) {
    if (Random() % 4 == 0)
      continue; // this set as instantiated
    unsigned Chains = unsigned(Model->sets()[K].Set.Chains.size());
    batch::Layout Drawn;
    Drawn.Splits.resize(Chains);
    for (unsigned C = 0; C < Chains; ++C) {
      Drawn.Lanes[Random() % 2].push_back(C);
      Drawn.Splits[C] = batch::Split(Random() % batch::SearchSplits);
    }
    for (auto &Lane : Drawn.Lanes)
      std::shuffle(Lane.begin(), Lane.end(), Random);
    L[K] = std::move(Drawn);
  }
  if (!Model->acyclic(L))
    return Program;
  Drawn = buildOrStop(L);
  return Drawn ? Drawn : Program;
}

cudaGraphExec_t Replays::choose(Role &Kind) {
  Kind = Role::Untimed;
  if (!Stopped.empty())
    return Program;
  if (Mode == GraphLayouts::Random)
    return chooseRandom();
  cudaGraphExec_t Kept = Current ? Current : Program;
  if (Settled) {
    if (!Searched || Mode != GraphLayouts::Search)
      return Kept;
    if (!CheckLeft && Count - SettledAt >= RecheckEvery) {
      CheckLeft = Current ? 2 * RecheckRuns : RecheckRuns;
      SettledAt = Count;
    }
    if (!CheckLeft)
      return Kept;
    --CheckLeft;
    // Only the program's graph is timed when it is what was kept.
    bool ProgramTurn = !Current || CheckLeft % 2;
    Kind = ProgramTurn ? Role::CheckProgram : Role::CheckKept;
    return ProgramTurn ? Program : Kept;
  }
  Kind = Role::Baseline;
  // A trial every other replay, within the budget; none while the last
  // one's time is unread.
  if (TrialOut || Count % 2 == 0 || Search->settled() ||
      !Budget.allows(BaselineMedian, Count))
    return Kept;
  GraphLayout L = withSet(Search->next());
  // A layout whose lane edges would close a cycle never runs: it counts as
  // one that never ends.
  while (!Model->acyclic(L) && !Search->settled()) {
    Search->measured(1e9);
    L = withSet(Search->next());
  }
  if (Search->settled())
    return Kept;
  TrialBuildMs = 0;
  if (!Trial || !(TrialLayout == L)) {
    destroyOurs(Trial);
    auto Start = std::chrono::steady_clock::now();
    Trial = buildOrStop(L);
    if (!Trial)
      return Program;
    TrialBuildMs = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - Start)
                       .count();
    TrialLayout = std::move(L);
  }
  Kind = Role::Trial;
  TrialOut = true;
  return Trial;
}

cudaError_t Replays::launch(cudaStream_t Stream) {
  poll();
  Role Kind;
  cudaGraphExec_t Exec = choose(Kind);
  ++Count;
  // Replays of one executable graph are ordered by CUDA; between two
  // different ones, by the event recorded after the last replay.
  if (LastExec && Order && (Exec != LastExec || Stream != LastStream))
    cudaStreamWaitEvent(Stream, Order, 0);
  Timed T;
  T.Kind = Kind;
  if (Kind != Role::Untimed) {
    for (cudaEvent_t *E : {&T.Start, &T.End}) {
      if (!FreeEvents.empty()) {
        *E = FreeEvents.back();
        FreeEvents.pop_back();
      } else if (cudaEventCreate(E) != cudaSuccess) {
        *E = nullptr;
      }
    }
    if (!T.Start || !T.End)
      Kind = T.Kind = Role::Untimed;
    else
      cudaEventRecord(T.Start, Stream);
  }
  cudaError_t Err = cudaGraphLaunch(Exec, Stream);
  if (Kind != Role::Untimed) {
    cudaEventRecord(T.End, Stream);
    Pending.push_back(T);
  } else {
    for (cudaEvent_t E : {T.Start, T.End})
      if (E)
        FreeEvents.push_back(E);
  }
  if (Err != cudaSuccess && Kind == Role::Trial) {
    // The trial did not run: its time would mean nothing.
    Pending.pop_back();
    FreeEvents.push_back(T.Start);
    FreeEvents.push_back(T.End);
    stop(std::string("a layout's launch failed with ") + cudaGetErrorName(Err));
    return cudaGraphLaunch(Program, Stream);
  }
  // Once settled on the program's own executable graph, nothing is
  // recorded: CUDA orders its replays.  Settled on one of the runtime's, a
  // recheck may interleave the two.
  bool Record = !Settled || Current;
  if (Order && Record)
    cudaEventRecord(Order, Stream);
  LastExec = Record ? Exec : nullptr;
  LastStream = Stream;
  return Err;
}

void Replays::report(GraphLayoutReport &R) const {
  R.laidOut = Stopped.empty();
  R.reason = Stopped;
  R.coRunSets = unsigned(Model->sets().size());
  R.branches = Model->branches();
  R.replays = Count;
  R.trials = Budget.trials();
  R.settled = Settled && Stopped.empty() && Mode == GraphLayouts::Search;
  R.layout = Current ? GraphModel::text(Kept) : std::string("original");
  R.originalMs = OriginalMs;
  R.layoutMs = Current ? KeptMs : OriginalMs;
  R.executables = unsigned(!!Current + !!Trial + !!Drawn);
  R.rechecks = Rechecks;
}

} // namespace smc::graphs
