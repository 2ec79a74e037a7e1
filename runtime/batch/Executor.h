//===- Executor.h - A batch's runs enqueued on its two lanes ----*- C++ -*-===//
//
// enqueueRuns() puts a plan's slice runs on the batch's two lanes and keeps
// stream order with events; BatchTiming times one run() of a batch, for
// Mode::Search's measurements.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BATCHEXECUTOR_H
#define SMC_RUNTIME_BATCHEXECUTOR_H

#include "batch/RecordedLaunches.h"

#include <string>
#include <vector>

namespace smc {

// Events that time one run() of a batch: both lanes start at Begin and
// end at End[0] and End[1]; with Turnaround, each stream's wait for its
// last launch ends at StreamEnd[s].
struct BatchTiming {
  cudaEvent_t Begin = nullptr, End[2] = {nullptr, nullptr};
  bool Turnaround = false;
  std::vector<cudaEvent_t> StreamEnd;

  // Destroys the events (CUDA frees them once the work queued on them has
  // run) and resets the timing.
  void release();
  // What the search minimizes, in seconds, once every event has completed:
  // the makespan (the later lane's end), or with Turnaround the sum of the
  // streams' ends.  0 before, and -1 after an error (the timing is then
  // useless).
  double seconds() const;
};

// Enqueues `Runs` (valid for `Launches`); `Slices[l]` is launch l's
// prepared __slice configuration (null: it runs whole, as the original).
// Both lanes start once every stream of the batch has run what it held
// before run().  A fenced run starts after every earlier run, and so does
// every later one (the lanes wait for each other's last run): a launch
// alone on the GPU.  With `Timing`, its events are made and recorded.
bool enqueueRuns(const std::vector<RecordedLaunch> &Launches,
                 const std::vector<Prepared *> &Slices,
                 const std::vector<batch::SliceRun> &Runs, std::string &Error,
                 BatchTiming *Timing = nullptr);

} // namespace smc

#endif // SMC_RUNTIME_BATCHEXECUTOR_H
