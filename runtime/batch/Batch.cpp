//===- Batch.cpp - smc::Batch: the API and its run modes ------------------===//
//
// The smc::Batch API.  Launches recorded between begin() and end()
// (RecordedLaunches.cpp) run() turns into slice runs - ranges of a launch's
// CTAs run as __slice launches of a given size, or a whole launch as
// persistent workers, on one of two lanes (streams of the batch) - and
// enqueues them (Executor.cpp):
//
//   Mode::Search    the layout search of LayoutSearch.h: for a set of
//                   launches that recurs, layouts of its streams on the
//                   lanes, each timed with events, the fastest kept;
//   Mode::Serial    each launch whole on lane 0, in record order;
//   Mode::Streams   each launch through the ordinary launch path, on its
//                   own stream: what the program did without the batch;
//   explicit runs   a plan of the caller's (the benchmark's oracle, or the
//                   Kernelet model's plan in bench/kernelet).
//===----------------------------------------------------------------------===//
#include "base/Cuda.h"
#include "base/Forever.h"
#include "base/Locks.h"
#include "base/Messages.h"
#include "batch/Executor.h"
#include "batch/LayoutSearch.h"
#include "batch/RecordedLaunches.h"
#include "policy/Config.h"

#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace smc {

namespace {

std::string ctaRange(unsigned First, unsigned Count) {
  return std::to_string(First) + "-" + std::to_string(First + Count - 1);
}

// Mode::Search: one layout search per set of launches (their profile
// names, in order, and streams), for the process.
struct SearchState {
  OrderedMutex Mutex{LockLevel::Batch}; // guards the rest
  std::map<std::string, std::unique_ptr<batch::LayoutSearch>> Searches;
  std::map<std::string, BatchTiming> Pending; // the last timed run's events
};

bool anyCapturing(const std::vector<RecordedLaunch> &Launches) {
  for (const RecordedLaunch &L : Launches) {
    cudaStreamCaptureStatus Status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(L.Stream, &Status) != cudaSuccess) {
      cudaGetLastError();
      return true;
    }
    if (Status != cudaStreamCaptureStatusNone)
      return true;
  }
  return false;
}

// Whether Runs is a plan the executor can run for the launches F
// describes: batch::checkSchedule (every CTA once, one lane per launch,
// whole where a launch cannot be sliced, workers only for a whole launch
// that has them, SM ranges only for workers and on the device's SMs, each
// stream's launches in order).
bool validPlan(const Facts &F, const std::vector<batch::SliceRun> &Runs,
               std::string &Error) {
  batch::Schedule Plan;
  Plan.Runs = Runs;
  return batch::checkSchedule(F.Pending, Plan, &Error, F.Plan.NumSms);
}

std::vector<std::string> launchNames(const Facts &F) {
  std::vector<std::string> Names;
  for (const batch::PendingLaunch &P : F.Pending)
    Names.push_back(P.Traits.Name);
  return Names;
}

// run()'s failure: false, with *Error (if given) saying What.
bool refuseRun(std::string *Error, const std::string &What) {
  if (Error)
    *Error = "smc::Batch::run: " + What;
  return false;
}

// The plan of Mode::Search for the launches F describes: the next layout
// of the search of their set, with Timing (else null) the events to time
// this run with; the search's note in Note.
std::vector<batch::SliceRun> searchRuns(const Facts &F, bool Turnaround,
                                        SearchState &Searches, std::string &Key,
                                        BatchTiming *&Timing,
                                        std::string &Note) {
  unsigned Streams = 0;
  if (Turnaround)
    Key = "turnaround;";
  for (const batch::PendingLaunch &P : F.Pending) {
    Key += P.Traits.Name + "@" + std::to_string(P.Stream) + ";";
    Streams = std::max(Streams, P.Stream + 1);
  }
  std::unique_ptr<batch::LayoutSearch> &Search = Searches.Searches[Key];
  if (!Search)
    Search =
        std::make_unique<batch::LayoutSearch>(batch::streamsLayout(Streams));
  // The last timed run of these launches, if it has ended, is the
  // measurement of the layout it ran; while it runs, this run is not
  // timed.
  bool Timed = true;
  auto Last = Searches.Pending.find(Key);
  if (Last != Searches.Pending.end()) {
    double Seconds = Last->second.seconds();
    Timed = Seconds != 0;
    if (Timed) {
      Search->measured(Seconds);
      Searches.Pending.erase(Last);
    }
  }
  const batch::Layout &Layout = Search->next();
  Note = "layout " + Layout.text() + ", " +
         (Search->settled() ? "the fastest of " : "trial after ") +
         std::to_string(Search->trials()) + " measured" +
         (Turnaround ? " (sum of the streams' turnaround)" : "");
  if (Timed && !Search->settled()) {
    Timing = &Searches.Pending[Key];
    Timing->Turnaround = Turnaround;
  }
  return batch::layoutRuns(F.Plan, F.Pending, Layout);
}

} // namespace

void Batch::setObjective(Objective O) { impl->Objective = O; }

const std::vector<Batch::SliceRun> &Batch::lastRuns() const {
  return impl->LastRuns;
}

std::string Batch::describe() const {
  std::ostringstream Out;
  for (const SliceRun &R : impl->LastRuns) {
    Out << "launch " << R.launch;
    if (R.launch < impl->LaunchNames.size())
      Out << " (" << impl->LaunchNames[R.launch] << ")";
    Out << " lane " << R.lane << " CTAs " << ctaRange(R.firstCta, R.ctas);
    if (R.workersPerSm && R.smCount)
      Out << " as " << R.workersPerSm << " workers per SM on SMs " << R.smFirst
          << "-" << R.smFirst + R.smCount - 1;
    else if (R.workersPerSm)
      Out << " as " << R.workersPerSm << " workers per SM";
    else if (R.sliceCtas < R.ctas)
      Out << " in slices of " << R.sliceCtas;
    if (R.fence)
      Out << ", after every earlier run";
    Out << "\n";
  }
  for (const std::string &Note : impl->LastNotes)
    Out << Note << "\n";
  return Out.str();
}

bool Batch::run(Mode RunMode, std::string *Error) {
  Impl &B = *impl;
  std::string Message;
  auto Fail = [&](const std::string &What) { return refuseRun(Error, What); };
  if (B.Recording)
    return Fail("end() the recording first");
  std::vector<RecordedLaunch> Launches = std::move(B.Launches);
  B.Launches.clear();
  B.LastRuns.clear();
  B.LastNotes.clear();
  if (Launches.empty())
    return true;

  if (RunMode == Mode::Streams || config().Disabled || anyCapturing(Launches)) {
    if (RunMode != Mode::Streams)
      tell("smc::Batch: a stream of the batch is being captured (or SMC is "
           "disabled): its launches run as the program made them");
    for (size_t I = 0; I < Launches.size(); ++I)
      if (cudaError_t Err = Launches[I].replay(Launches[I].Stream))
        return Fail("launch " + std::to_string(I) + ": " +
                    failed("launching", Err));
    return true;
  }

  Facts F;
  if (!gatherFacts(Launches, F, Message))
    return Fail(Message);
  B.LaunchNames = launchNames(F);
  std::vector<batch::SliceRun> Runs;
  SearchState &Searches = forever<SearchState>();
  std::unique_lock<OrderedMutex> SearchLock(Searches.Mutex, std::defer_lock);
  std::string Key;
  BatchTiming *Timing = nullptr;
  if (RunMode == Mode::Serial) {
    Runs = batch::planSerial(F.Pending).Runs;
  } else {
    SearchLock.lock();
    B.LastNotes.emplace_back();
    Runs = searchRuns(F, B.Objective == Objective::Turnaround, Searches, Key,
                      Timing, B.LastNotes.back());
  }
  if (!validPlan(F, Runs, Message))
    return Fail("the scheduler's plan is not valid (" + Message + ")");
  B.LastRuns = Runs;
  if (!enqueueRuns(Launches, F.Slices, Runs, Message, Timing)) {
    if (Timing) {
      Searches.Pending.erase(Key);
    }
    return Fail(Message);
  }
  return true;
}

bool Batch::run(const std::vector<SliceRun> &Runs, std::string *Error) {
  Impl &B = *impl;
  std::string Message;
  auto Fail = [&](const std::string &What) { return refuseRun(Error, What); };
  if (B.Recording)
    return Fail("end() the recording first");
  Facts F;
  if (!B.Launches.empty() && !gatherFacts(B.Launches, F, Message))
    return Fail(Message);
  if (!validPlan(F, Runs, Message))
    return Fail(Message);
  std::vector<RecordedLaunch> Launches = std::move(B.Launches);
  B.Launches.clear();
  B.LastRuns = Runs;
  B.LastNotes.clear();
  B.LaunchNames = launchNames(F);
  if (Launches.empty())
    return true;
  if (!enqueueRuns(Launches, F.Slices, Runs, Message))
    return Fail(Message);
  return true;
}

void Batch::forgetSearches() {
  SearchState &Searches = forever<SearchState>();
  Guard Lock(Searches.Mutex);
  Searches.Pending.clear();
  Searches.Searches.clear();
}

std::vector<Batch::Layout> Batch::balancedLayouts(unsigned Streams,
                                                  unsigned Splits) {
  std::vector<Layout> Out;
  for (const batch::Layout &L : batch::balancedLayouts(Streams, Splits))
    Out.push_back({{L.Lanes[0], L.Lanes[1]}, L.Splits});
  return Out;
}

std::vector<Batch::Layout>
Batch::balancedLayouts(unsigned Streams, const std::vector<Split> &Splits) {
  std::vector<Layout> Out;
  for (const batch::Layout &L : batch::balancedLayouts(Streams, Splits))
    Out.push_back({{L.Lanes[0], L.Lanes[1]}, L.Splits});
  return Out;
}

std::vector<Batch::SliceRun> Batch::layoutRuns(const Layout &L) const {
  Facts F;
  std::string Unused;
  batch::Layout Plan{{L.lanes[0], L.lanes[1]}, L.splits};
  if (impl->Launches.empty() || !gatherFacts(impl->Launches, F, Unused))
    return {};
  unsigned Streams = 0;
  for (const batch::PendingLaunch &P : F.Pending)
    Streams = std::max(Streams, P.Stream + 1);
  if (!batch::validLayout(Plan, Streams))
    return {};
  return batch::layoutRuns(F.Plan, F.Pending, Plan);
}

std::vector<Batch::LaunchInfo> Batch::launches() const {
  std::vector<LaunchInfo> Out;
  Facts F;
  std::string Unused;
  if (impl->Launches.empty() || !gatherFacts(impl->Launches, F, Unused))
    return Out;
  for (const batch::PendingLaunch &P : F.Pending)
    Out.push_back({P.Traits.Name, P.Traits.Ctas, P.Traits.WarpsPerCta,
                   P.Traits.CtasPerSm,
                   P.Known ? batch::minSliceCtas(F.Plan, P.Traits) : 1,
                   P.Stream, P.Sliceable, P.Known, P.Workers});
  return Out;
}

} // namespace smc
