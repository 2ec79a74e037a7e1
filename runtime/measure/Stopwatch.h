//===- Stopwatch.h - Timing queued work without waiting for it --*- C++ -*-===//
//
// How the runtime times the real launches its measured choices judge
// (Measured.h): a start event recorded on a stream before the work, one end
// event after it on each stream the work ends on, and the elapsed time read
// later, once every end has completed, with no host thread ever waiting for
// it.  Events come from a pool the measure room keeps (LockLevel::Events),
// so that timing a launch creates no event once the pool is warm.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_MEASURE_STOPWATCH_H
#define SMC_RUNTIME_MEASURE_STOPWATCH_H

#include <cuda_runtime_api.h>

#include <vector>

namespace smc {

class Stopwatch {
public:
  Stopwatch() = default;
  ~Stopwatch() { reset(); }
  Stopwatch(Stopwatch &&Other) noexcept;
  Stopwatch &operator=(Stopwatch &&Other) noexcept;
  Stopwatch(const Stopwatch &) = delete;
  Stopwatch &operator=(const Stopwatch &) = delete;

  // Records the start on `Stream` (a stopwatch started before is reset
  // first).  False, with nothing recorded and no error left behind, when
  // an event cannot be had or recorded.
  bool start(cudaStream_t Stream);
  // The start event, for other streams to wait on (null before start()).
  cudaEvent_t startEvent() const { return Start; }
  // Records one more end on `Stream`.  False (and no error left behind)
  // when that fails.
  bool stop(cudaStream_t Stream);

  enum class Reading { Pending, Done, Failed };
  // How the ends combine: the latest end (a makespan), or the sum of the
  // ends' times (a sum of turnarounds).
  enum class Combine { Latest, Sum };
  // Once every end has completed: Done with the elapsed seconds (> 0).
  // Pending while some end has not; Failed when it was not started or
  // stopped, or CUDA cannot say (the error is cleared).
  Reading read(double &Seconds, Combine How = Combine::Latest) const;
  // The same after waiting for every end (SMC_PROFILE_RECORD, which times
  // launches one at a time): Done or Failed.
  Reading wait(double &Seconds, Combine How = Combine::Latest) const;

  bool started() const { return Start != nullptr; }
  // Returns the events to the pool (CUDA releases work queued on them).
  void reset();

private:
  cudaEvent_t Start = nullptr;
  std::vector<cudaEvent_t> Ends;
};

} // namespace smc

#endif // SMC_RUNTIME_MEASURE_STOPWATCH_H
