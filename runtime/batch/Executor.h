//===- Executor.h - A batch's runs enqueued on its two lanes ----*- C++ -*-===//
//
// enqueueRuns() puts a plan's slice runs on the batch's two lanes and keeps
// stream order with events; BatchTiming times one run() of a batch, for
// Mode::Search's measurements.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BATCH_EXECUTOR_H
#define SMC_RUNTIME_BATCH_EXECUTOR_H

#include "batch/RecordedLaunches.h"
#include "measure/Stopwatch.h"

#include <string>
#include <vector>

namespace smc {

// How one run() of a batch is timed (measure/Stopwatch.h): from the start
// of lane 0, which lane 1 waits for, to the end of both lanes (the
// makespan), or with Turnaround to each stream's wait for its last launch
// (the sum of the streams' turnaround times).
struct BatchTiming {
  Stopwatch Watch;
  bool Turnaround = false;

  // What the search minimizes, in seconds, once every end has completed;
  // 0 before, and -1 when it cannot be read (the search ignores it).
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

#endif // SMC_RUNTIME_BATCH_EXECUTOR_H
