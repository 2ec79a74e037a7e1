//===- Executor.cpp - A batch's runs enqueued on its two lanes ------------===//
//
// Stream order is kept with events: a launch's first run waits for the end
// of the previous launch of its stream when that ran on the other lane (or
// for what the stream held before run(), for the stream's first launch),
// and each stream waits, after run(), for the end of its last launch.  A
// fenced run waits for the last run of both lanes.  The runs themselves are
// launched by launchRun() (RecordedLaunches.cpp).
//===----------------------------------------------------------------------===//
#include "batch/Executor.h"

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

void BatchTiming::release() {
  for (cudaEvent_t E : {Begin, End[0], End[1]})
    if (E)
      cudaEventDestroy(E);
  for (cudaEvent_t E : StreamEnd)
    if (E)
      cudaEventDestroy(E);
  *this = BatchTiming();
}

double BatchTiming::seconds() const {
  std::vector<cudaEvent_t> Ends(std::begin(End), std::end(End));
  if (Turnaround)
    Ends = StreamEnd;
  double Latest = 0, Sum = 0;
  for (cudaEvent_t E : Ends) {
    cudaError_t Err = cudaEventQuery(E);
    if (Err == cudaErrorNotReady)
      return 0;
    float Ms = 0;
    if (Err != cudaSuccess ||
        cudaEventElapsedTime(&Ms, Begin, E) != cudaSuccess) {
      cudaGetLastError();
      return -1;
    }
    Latest = std::max(Latest, double(Ms));
    Sum += Ms;
  }
  return (Turnaround ? Sum : Latest) * 1e-3;
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
  if (Timing) {
    for (cudaEvent_t *E : {&Timing->Begin, &Timing->End[0], &Timing->End[1]})
      if (cudaError_t Err = cudaEventCreate(E))
        return Fail("creating a timing event", Err);
    if (cudaError_t Err = cudaEventRecord(Timing->Begin, Res.Lanes[0]))
      return Fail("recording the batch's start", Err);
    if (cudaError_t Err = cudaStreamWaitEvent(Res.Lanes[1], Timing->Begin, 0))
      return Fail("recording the batch's start", Err);
  }

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
    if (Timing && Timing->Turnaround) {
      cudaEvent_t &E = Timing->StreamEnd.emplace_back();
      if (cudaError_t Err = cudaEventCreate(&E))
        return Fail("creating a timing event", Err);
      if (cudaError_t Err = cudaEventRecord(E, Stream))
        return Fail("recording a stream's end", Err);
    }
  }
  if (Timing)
    for (unsigned Lane : {0u, 1u})
      if (cudaError_t Err = cudaEventRecord(Timing->End[Lane], Res.Lanes[Lane]))
        return Fail("recording the batch's end", Err);
  return true;
}

} // namespace smc
