//===- Counts.cpp - SMC_STATS on the launch path --------------------------===//
//
// The devices' statistics blocks and the counted launch; see Counts.h.
//===----------------------------------------------------------------------===//
#include "observe/Counts.h"

#include "base/Cuda.h"
#include "base/Forever.h"
#include "base/Messages.h"
#include "smc/abi.h"

#include <map>

namespace smc {
namespace stats {
namespace {

struct Blocks {
  // Held across an SMC_STATS launch and the read-back of its counts.
  OrderedMutex LaunchMutex{LockLevel::StatsLaunch};
  OrderedMutex Mutex{LockLevel::Records}; // guards ByDevice
  std::map<int, uint32_t *> ByDevice;
};

size_t blockBytes(unsigned NumSMs) {
  return SMC_STATS_WORDS(NumSMs) * sizeof(uint32_t);
}

} // namespace

void makeDeviceBlock(int Ordinal, unsigned NumSMs, cudaStream_t Stream) {
  std::string Error;
  void *Block = newDeviceMemory(Stream, nullptr, blockBytes(NumSMs), Error);
  if (!Block) {
    tell("SMC_STATS: no statistics block on device " + std::to_string(Ordinal) +
         ": " + Error);
    return;
  }
  Blocks &B = forever<Blocks>();
  Guard Lock(B.Mutex);
  B.ByDevice[Ordinal] = static_cast<uint32_t *>(Block);
}

void forgetDevice(int Ordinal) {
  Blocks &B = forever<Blocks>();
  Guard Lock(B.Mutex);
  B.ByDevice.erase(Ordinal);
}

CountedLaunch::CountedLaunch(LaunchRecord &Record, int Ordinal, unsigned NumSMs,
                             cudaStream_t RuntimeStream, bool Count)
    : Lock(forever<Blocks>().LaunchMutex), Record(Record), NumSMs(NumSMs),
      RuntimeStream(RuntimeStream) {
  if (!Count)
    return;
  {
    Blocks &B = forever<Blocks>();
    Guard BlocksLock(B.Mutex);
    auto It = B.ByDevice.find(Ordinal);
    if (It == B.ByDevice.end())
      return;
    Block = It->second;
  }
  RelaxedCaptureMode Relaxed;
  std::string Error;
  if (!copyThrough(RuntimeStream, Block, nullptr, blockBytes(NumSMs), Error)) {
    Record.Error =
        "statistics not collected: zeroing the statistics block: " + Error;
    Block = nullptr;
  }
}

void CountedLaunch::finish(cudaStream_t Stream, const std::string &DeviceName) {
  if (Block) {
    RelaxedCaptureMode Relaxed;
    Record.Counts.resize(SMC_STATS_WORDS(NumSMs));
    cudaError_t Err = cudaStreamSynchronize(Stream);
    if (Err == cudaSuccess)
      Err = cudaMemcpyAsync(Record.Counts.data(), Block, blockBytes(NumSMs),
                            cudaMemcpyDeviceToHost, RuntimeStream);
    if (Err == cudaSuccess)
      Err = cudaStreamSynchronize(RuntimeStream);
    if (Err != cudaSuccess) {
      Record.Error = "statistics not collected: " +
                     failed("reading the statistics block", Err);
      Record.Counts.clear();
    }
  }
  record(Record, DeviceName);
}

} // namespace stats
} // namespace smc
