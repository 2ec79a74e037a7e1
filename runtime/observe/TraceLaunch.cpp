//===- TraceLaunch.cpp - SMC_TRACE on the launch path ---------------------===//
//
// With SMC_TRACE=<file>, the SM-centric launches of kernels compiled with
// -mllvm -smc-trace (SMC_INFO_TRACED) are traced; the others are told once
// that they are not.  Each device gets a trace block when its state is
// made: a header in device memory (capacity, the atomic record count, the
// records' address) and SMC_TRACE_RECORDS records (default 2^20, 32 bytes
// each) of page-locked host memory mapped for the device.  Every SM-centric
// launch not being captured gets the next launch number and the block in its
// descriptor; its workers write their records straight into host memory
// (runtime/device/SmcWorker.cu, traceRecord), so launches are not
// serialized, unlike SMC_STATS.  At exit the host reads the records (no
// CUDA call) and writes the chunk spans (Trace.h).
//===----------------------------------------------------------------------===//
#include "core/RuntimeState.h"
#include "observe/Trace.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace smc {
namespace {

constexpr uint32_t DefaultTraceRecords = 1u << 20;

// A device's records, in host memory.
struct DeviceRecords {
  const uint32_t *Words = nullptr;
  uint32_t Capacity = 0;
};

struct TraceState {
  std::string Path;
  std::atomic<uint32_t> NextLaunch{0};
  std::mutex Mutex; // guards the rest
  std::map<uint32_t, trace::LaunchInfo> Launches;
  std::vector<DeviceRecords> Devices;
};

TraceState &traceState() {
  static TraceState *S = new TraceState;
  return *S;
}

void writeTraceAtExit() {
  TraceState &S = traceState();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  std::vector<trace::Record> Records;
  bool Full = false;
  for (const DeviceRecords &D : S.Devices) {
    std::vector<trace::Record> Some = trace::decode(D.Words, D.Capacity);
    Full |= Some.size() == D.Capacity;
    Records.insert(Records.end(), Some.begin(), Some.end());
  }
  size_t Unended = 0;
  std::vector<trace::ChunkSpan> Spans =
      trace::chunkSpans(std::move(Records), Unended);
  std::ofstream File(S.Path);
  File << trace::toCsv(Spans, S.Launches);
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

uint32_t traceCapacity() {
  const char *Text = std::getenv("SMC_TRACE_RECORDS");
  if (!Text || !*Text)
    return DefaultTraceRecords;
  char *End = nullptr;
  unsigned long long Value = std::strtoull(Text, &End, 10);
  if (*End || Value == 0 || Value > (1ull << 27)) {
    tell(std::string("SMC_TRACE_RECORDS: '") + Text +
         "' is not a number of records from 1 to 2^27; using 2^20");
    return DefaultTraceRecords;
  }
  return uint32_t(Value);
}

} // namespace

bool traceEnabled() {
  static const bool Enabled = [] {
    const char *Path = std::getenv("SMC_TRACE");
    if (!Path || !*Path)
      return false;
    traceState().Path = Path;
    std::atexit(writeTraceAtExit);
    return true;
  }();
  return Enabled;
}

void makeTraceBlock(DeviceState &Dev) {
  uint32_t Capacity = traceCapacity();
  size_t Bytes = size_t(Capacity) * SMC_TRACE_RECORD_WORDS * sizeof(uint32_t);
  void *Host = nullptr, *Mapped = nullptr;
  cudaError_t Err =
      cudaHostAlloc(&Host, Bytes, cudaHostAllocMapped | cudaHostAllocPortable);
  if (Err == cudaSuccess) {
    std::memset(Host, 0, Bytes);
    Err = cudaHostGetDevicePointer(&Mapped, Host, 0);
  }
  std::string Error;
  if (Err == cudaSuccess) {
    uint64_t Address = reinterpret_cast<uintptr_t>(Mapped);
    uint32_t Header[SMC_TRACE_HEADER_WORDS] = {Capacity, 0, uint32_t(Address),
                                               uint32_t(Address >> 32)};
    Dev.TraceBlock = deviceBuffer(Dev, Header, sizeof(Header), Error);
  } else {
    cudaGetLastError();
    Error = failed("cudaHostAlloc", Err);
  }
  if (!Dev.TraceBlock) {
    if (Host)
      cudaFreeHost(Host);
    tell("SMC_TRACE: no trace on device " + std::to_string(Dev.Ordinal) + ": " +
         Error);
    return;
  }
  TraceState &S = traceState();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  S.Devices.push_back({static_cast<const uint32_t *>(Host), Capacity});
}

void traceLaunch(const Prepared &P, SmcDescriptor &Desc) {
  if (!P.Device->TraceBlock)
    return;
  if (!(P.Kernel->Info.flags & SMC_INFO_TRACED)) {
    tellKernel(*P.Kernel, "SMC_TRACE: not traced: its __smc variant was "
                          "built without -mllvm -smc-trace");
    return;
  }
  TraceState &S = traceState();
  uint32_t Launch = ++S.NextLaunch;
  Desc.trace = P.Device->TraceBlock;
  Desc.trace_launch = Launch;
  std::lock_guard<std::mutex> Lock(S.Mutex);
  S.Launches[Launch] = {P.Kernel->Source, P.Device->Ordinal};
}

} // namespace smc
