//===- Stopwatch.cpp - Timing queued work without waiting for it ----------===//
//
// The event pool and the readings; see Stopwatch.h.
//===----------------------------------------------------------------------===//
#include "measure/Stopwatch.h"

#include "base/Forever.h"
#include "base/Locks.h"

#include <algorithm>
#include <utility>

namespace smc {
namespace {

struct EventPool {
  OrderedMutex Mutex{LockLevel::Events}; // guards Free
  std::vector<cudaEvent_t> Free;
};

// A timing event from the pool, or a new one; null (no error left behind)
// when none can be made.
cudaEvent_t takeEvent() {
  EventPool &P = forever<EventPool>();
  {
    Guard Lock(P.Mutex);
    if (!P.Free.empty()) {
      cudaEvent_t E = P.Free.back();
      P.Free.pop_back();
      return E;
    }
  }
  cudaEvent_t E = nullptr;
  if (cudaEventCreate(&E) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return E;
}

void giveBack(cudaEvent_t E) {
  if (!E)
    return;
  EventPool &P = forever<EventPool>();
  Guard Lock(P.Mutex);
  P.Free.push_back(E);
}

// Records a pooled event on `Stream` into `E`; false (E null, no error
// left behind) on failure.
bool recordNew(cudaEvent_t &E, cudaStream_t Stream) {
  E = takeEvent();
  if (!E)
    return false;
  if (cudaEventRecord(E, Stream) != cudaSuccess) {
    cudaGetLastError();
    giveBack(E);
    E = nullptr;
    return false;
  }
  return true;
}

} // namespace

Stopwatch::Stopwatch(Stopwatch &&Other) noexcept
    : Start(std::exchange(Other.Start, nullptr)), Ends(std::move(Other.Ends)) {
  Other.Ends.clear();
}

Stopwatch &Stopwatch::operator=(Stopwatch &&Other) noexcept {
  if (this != &Other) {
    reset();
    Start = std::exchange(Other.Start, nullptr);
    Ends = std::move(Other.Ends);
    Other.Ends.clear();
  }
  return *this;
}

bool Stopwatch::start(cudaStream_t Stream) {
  reset();
  return recordNew(Start, Stream);
}

bool Stopwatch::stop(cudaStream_t Stream) {
  cudaEvent_t End = nullptr;
  if (!Start || !recordNew(End, Stream))
    return false;
  Ends.push_back(End);
  return true;
}

Stopwatch::Reading Stopwatch::read(double &Seconds, Combine How) const {
  if (!Start || Ends.empty())
    return Reading::Failed;
  double Latest = 0, Sum = 0;
  for (cudaEvent_t End : Ends) {
    cudaError_t Err = cudaEventQuery(End);
    if (Err == cudaErrorNotReady)
      return Reading::Pending;
    float Ms = 0;
    if (Err != cudaSuccess ||
        cudaEventElapsedTime(&Ms, Start, End) != cudaSuccess) {
      cudaGetLastError();
      return Reading::Failed;
    }
    Latest = std::max(Latest, double(Ms));
    Sum += Ms;
  }
  Seconds = (How == Combine::Sum ? Sum : Latest) * 1e-3;
  return Reading::Done;
}

Stopwatch::Reading Stopwatch::wait(double &Seconds, Combine How) const {
  for (cudaEvent_t End : Ends)
    if (cudaEventSynchronize(End) != cudaSuccess) {
      cudaGetLastError();
      return Reading::Failed;
    }
  return read(Seconds, How);
}

void Stopwatch::reset() {
  giveBack(Start);
  Start = nullptr;
  for (cudaEvent_t End : Ends)
    giveBack(End);
  Ends.clear();
}

} // namespace smc
