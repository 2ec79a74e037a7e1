//===- Counts.h - SMC_STATS on the launch path ------------------*- C++ -*-===//
//
// With SMC_STATS, an SM-centric launch that is not being captured runs with
// its device's zeroed statistics block in its descriptor; the runtime waits
// for it and copies the counts into the launch's record (Stats.h).  A lock
// (LockLevel::StatsLaunch) held across launch and read-back makes the counts
// the launch's own, at the cost of serializing launches.  Each device's
// block is made with its state (core/Devices.h) and forgotten when the
// device is reset.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_OBSERVE_COUNTS_H
#define SMC_RUNTIME_OBSERVE_COUNTS_H

#include "base/Locks.h"
#include "observe/Stats.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <mutex>

namespace smc {
namespace stats {

// Makes the statistics block of device `Ordinal` (`NumSMs` SMs) through
// `Stream` (the runtime's own stream there); told once on failure, and the
// device's launches are then recorded without counts.
void makeDeviceBlock(int Ordinal, unsigned NumSMs, cudaStream_t Stream);
// Forgets device `Ordinal`'s block (cudaDeviceReset).
void forgetDevice(int Ordinal);

// One launch recorded with its counts, from construction (the lock taken,
// the block zeroed) to finish() (the launch waited for, its counts read).
class CountedLaunch {
public:
  // `Count`: the launch can be counted (SM-centric, not captured).
  CountedLaunch(LaunchRecord &Record, int Ordinal, unsigned NumSMs,
                cudaStream_t RuntimeStream, bool Count);
  CountedLaunch(const CountedLaunch &) = delete;
  CountedLaunch &operator=(const CountedLaunch &) = delete;

  // The block for the descriptor's stats field; null: no counts.
  uint32_t *block() const { return Block; }
  // After the launch on `Stream` succeeded: waits for it, reads the counts
  // and adds the record under the file's `DeviceName`.
  void finish(cudaStream_t Stream, const std::string &DeviceName);

private:
  std::lock_guard<OrderedMutex> Lock;
  LaunchRecord &Record;
  unsigned NumSMs;
  cudaStream_t RuntimeStream;
  uint32_t *Block = nullptr;
};

} // namespace stats
} // namespace smc

#endif // SMC_RUNTIME_OBSERVE_COUNTS_H
