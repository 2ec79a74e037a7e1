//===- TraceLaunch.cpp - SMC_TRACE on the launch path ---------------------===//
//
// The devices' trace blocks, launch numbers and the file written at exit;
// see TraceLaunch.h.
//===----------------------------------------------------------------------===//
#include "observe/TraceLaunch.h"

#include "base/Cuda.h"
#include "base/Files.h"
#include "base/Forever.h"
#include "base/Locks.h"
#include "base/Messages.h"
#include "observe/Trace.h"
#include "policy/Config.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <vector>

namespace smc {
namespace trace {
namespace {

// A device's records, in host memory.
struct DeviceRecords {
  const uint32_t *Words = nullptr;
  uint32_t Capacity = 0;
};

struct TraceState {
  std::string Path;
  std::atomic<uint32_t> NextLaunch{0};
  OrderedMutex Mutex{LockLevel::Records}; // guards the rest
  std::map<uint32_t, LaunchInfo> Launches;
  // Every device's records (those of devices since reset too).
  std::vector<DeviceRecords> Devices;
  // Each device's block now, by ordinal.
  std::map<int, uint32_t *> Blocks;
};

void writeTraceAtExit() {
  TraceState &S = forever<TraceState>();
  Guard Lock(S.Mutex);
  std::vector<Record> Records;
  bool Full = false;
  for (const DeviceRecords &D : S.Devices) {
    std::vector<Record> Some = decode(D.Words, D.Capacity);
    Full |= Some.size() == D.Capacity;
    Records.insert(Records.end(), Some.begin(), Some.end());
  }
  size_t Unended = 0;
  std::vector<ChunkSpan> Spans = chunkSpans(std::move(Records), Unended);
  std::ofstream File(S.Path);
  File << toCsv(Spans, S.Launches);
  File.close();
  if (!File) {
    std::fprintf(stderr, "smc: cannot write SMC_TRACE file '%s'\n",
                 S.Path.c_str());
    return;
  }
  std::fprintf(stderr, "smc: SMC_TRACE: %zu chunks of %zu launches in '%s'\n",
               Spans.size(), S.Launches.size(), S.Path.c_str());
  if (Unended)
    std::fprintf(stderr,
                 "smc: SMC_TRACE: %zu chunks had no end recorded (a worker "
                 "that ended early, or records dropped) and are left out\n",
                 Unended);
  if (Full)
    std::fprintf(stderr,
                 "smc: SMC_TRACE: the trace is full; later records were "
                 "dropped (SMC_TRACE_RECORDS raises the room)\n");
}

} // namespace

bool enabled() {
  static const bool Enabled = writeAtExit(
      config().TracePath, forever<TraceState>().Path, writeTraceAtExit);
  return Enabled;
}

void makeDeviceBlock(int Ordinal, cudaStream_t Stream) {
  uint32_t Capacity = config().TraceRecords;
  size_t Bytes = size_t(Capacity) * SMC_TRACE_RECORD_WORDS * sizeof(uint32_t);
  void *Host = nullptr, *Mapped = nullptr;
  cudaError_t Err =
      cudaHostAlloc(&Host, Bytes, cudaHostAllocMapped | cudaHostAllocPortable);
  if (Err == cudaSuccess) {
    std::memset(Host, 0, Bytes);
    Err = cudaHostGetDevicePointer(&Mapped, Host, 0);
  }
  std::string Error;
  void *Block = nullptr;
  if (Err == cudaSuccess) {
    uint64_t Address = reinterpret_cast<uintptr_t>(Mapped);
    uint32_t Header[SMC_TRACE_HEADER_WORDS] = {Capacity, 0, uint32_t(Address),
                                               uint32_t(Address >> 32)};
    Block = newDeviceMemory(Stream, Header, sizeof(Header), Error);
  } else {
    Error = failed("cudaHostAlloc", Err);
  }
  if (!Block) {
    if (Host)
      cudaFreeHost(Host);
    tell("SMC_TRACE: no trace on device " + std::to_string(Ordinal) + ": " +
         Error);
    return;
  }
  TraceState &S = forever<TraceState>();
  Guard Lock(S.Mutex);
  S.Devices.push_back({static_cast<const uint32_t *>(Host), Capacity});
  S.Blocks[Ordinal] = static_cast<uint32_t *>(Block);
}

void forgetDevice(int Ordinal) {
  TraceState &S = forever<TraceState>();
  Guard Lock(S.Mutex);
  S.Blocks.erase(Ordinal);
}

bool traceLaunch(int Ordinal, const std::string &Kernel, SmcDescriptor &Desc) {
  TraceState &S = forever<TraceState>();
  Guard Lock(S.Mutex);
  auto Block = S.Blocks.find(Ordinal);
  if (Block == S.Blocks.end())
    return false;
  uint32_t Launch = ++S.NextLaunch;
  Desc.trace = Block->second;
  Desc.trace_launch = Launch;
  S.Launches[Launch] = {Kernel, Ordinal};
  return true;
}

} // namespace trace
} // namespace smc
