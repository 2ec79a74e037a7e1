//===- Executor.cpp - A batch's runs enqueued on its two lanes ------------===//
//
// Stream order is kept with events: a launch's first run waits for the end
// of the previous launch of its stream when that ran on the other lane (or
// for what the stream held before run(), for the stream's first launch),
// and each stream waits, after run(), for the end of its last launch.  A
// fenced run waits for the last run of both lanes.  The runs themselves are
// launched by launchRun() (LaunchRuns.cpp).
//===----------------------------------------------------------------------===//
#include "batch/Executor.h"

#include "base/Cuda.h"

#include <map>

namespace smc {

namespace {

// Events of one run(), released when it goes (CUDA releases them after
// the work queued on them).
struct RunResources {
  cudaStream_t Lanes[2] = {nullptr, nullptr}; // the device's (batchLanes)
  std::vector<cudaEvent_t> Events;

  ~RunResources() {
    for (cudaEvent_t E : Events)
      cudaEventDestroy(E);
  }
  cudaError_t event(cudaEvent_t &E) {
    cudaError_t Err = cudaEventCreateWithFlags(&E, cudaEventDisableTiming);
    if (Err == cudaSuccess)
      Events.push_back(E);
    return Err;
  }
};

} // namespace

double BatchTiming::seconds() const {
  double Seconds = 0;
  switch (Watch.read(Seconds, Turnaround ? Stopwatch::Combine::Sum
                                         : Stopwatch::Combine::Latest)) {
  case Stopwatch::Reading::Pending:
    return 0;
  case Stopwatch::Reading::Failed:
    return -1;
  case Stopwatch::Reading::Done:
    break;
  }
  return Seconds;
}

bool enqueueRuns(const std::vector<RecordedLaunch> &Launches,
                 const std::vector<Prepared *> &Slices,
                 const std::vector<batch::SliceRun> &Runs, std::string &Error,
                 BatchTiming *Timing) {
  RunResources Res;
  auto Fail = [&](const std::string &What, cudaError_t Err) {
    Error = failed(What.c_str(), Err);
    return false;
  };
  if (cudaError_t Err = batchLanes(*Launches[0].State, Res.Lanes))
    return Fail("creating the batch's lanes", Err);
  // What each stream held before run().
  std::map<cudaStream_t, cudaEvent_t> StreamStart;
  for (const RecordedLaunch &L : Launches)
    if (!StreamStart.count(L.Stream)) {
      cudaEvent_t &E = StreamStart[L.Stream];
      if (cudaError_t Err = Res.event(E))
        return Fail("creating an event", Err);
      if (cudaError_t Err = cudaEventRecord(E, L.Stream))
        return Fail("recording a stream's start", Err);
      for (cudaStream_t Lane : Res.Lanes)
        if (cudaError_t Err = cudaStreamWaitEvent(Lane, E, 0))
          return Fail("waiting for a stream's start", Err);
    }
  // A run whose timing cannot start runs untimed: the search ignores it.
  if (Timing && Timing->Watch.start(Res.Lanes[0]))
    if (cudaError_t Err =
            cudaStreamWaitEvent(Res.Lanes[1], Timing->Watch.startEvent(), 0))
      return Fail("recording the batch's start", Err);

  size_t N = Launches.size();
  std::vector<cudaEvent_t> Done(N, nullptr);
  std::vector<int> LaneOf(N, -1);
  std::vector<size_t> LastRun(N, 0);
  std::vector<int> Previous(N, -1); // the launch before, on the stream
  std::map<cudaStream_t, int> LastOfStream;
  for (size_t I = 0; I < Runs.size(); ++I)
    LastRun[Runs[I].launch] = I;
  for (size_t L = 0; L < N; ++L) {
    auto It = LastOfStream.find(Launches[L].Stream);
    if (It != LastOfStream.end())
      Previous[L] = It->second;
    LastOfStream[Launches[L].Stream] = int(L);
  }

  for (size_t I = 0; I < Runs.size(); ++I) {
    const batch::SliceRun &R = Runs[I];
    const RecordedLaunch &L = Launches[R.launch];
    cudaStream_t Lane = Res.Lanes[R.lane];
    std::string Which = "launch " + std::to_string(R.launch);
    if (R.fence) {
      cudaEvent_t Tails[2];
      for (unsigned Other : {0u, 1u})
        if (cudaError_t Err = Res.event(Tails[Other]))
          return Fail("creating an event", Err);
      for (unsigned Other : {0u, 1u})
        if (cudaError_t Err = cudaEventRecord(Tails[Other], Res.Lanes[Other]))
          return Fail("fencing " + Which, Err);
      for (unsigned Other : {0u, 1u})
        if (cudaError_t Err =
                cudaStreamWaitEvent(Res.Lanes[Other], Tails[1 - Other], 0))
          return Fail("fencing " + Which, Err);
    }
    if (LaneOf[R.launch] < 0) {
      int P = Previous[R.launch];
      if (P >= 0 && LaneOf[P] != int(R.lane))
        if (cudaError_t Err = cudaStreamWaitEvent(Lane, Done[P], 0))
          return Fail("ordering " + Which, Err);
      LaneOf[R.launch] = int(R.lane);
    }
    if (!launchRun(L, Slices[R.launch], R, Lane, Which, Error))
      return false;
    if (LastRun[R.launch] == I) {
      if (cudaError_t Err = Res.event(Done[R.launch]))
        return Fail("creating an event", Err);
      if (cudaError_t Err = cudaEventRecord(Done[R.launch], Lane))
        return Fail("recording the end of " + Which, Err);
    }
  }
  for (const auto &[Stream, Last] : LastOfStream) {
    if (cudaError_t Err = cudaStreamWaitEvent(Stream, Done[Last], 0))
      return Fail("making a stream wait for the batch", Err);
    if (Timing && Timing->Turnaround)
      Timing->Watch.stop(Stream);
  }
  if (Timing && !Timing->Turnaround)
    for (cudaStream_t Lane : Res.Lanes)
      Timing->Watch.stop(Lane);
  return true;
}

} // namespace smc
