//===- DeviceResources.cpp - What the runtime keeps on each device --------===//
//
// Per device: the runtime's own stream, device buffers (queue tables, the
// statistics block) and counter blocks.
//
// Counter blocks (worker_count, queue_next, launch_counters) belong to one
// (device, stream) - one per host thread for the per-thread default stream -
// because the variant's last worker resets them for the next stream-ordered
// launch.  A launch into a capturing stream gets a fresh block that no
// stream ever uses (GraphExec.cpp then gives each executable graph blocks of
// its own).  Device memory the runtime owns is never freed: launches in
// flight and captured graphs may still use it.  cudaDeviceReset retires all
// of it, and the next launch builds it again.
//===----------------------------------------------------------------------===//
#include "core/RuntimeState.h"
#include "observe/Stats.h"

namespace smc {
namespace {

// Counter blocks are carved from slabs of this many blocks.
constexpr size_t CounterBlocksPerSlab = 64;

// Which stream a counter block serves.
enum StreamKind : int {
  LegacyStream = 0,    // id 0
  PerThreadStream = 1, // id = the host thread's number
  NamedStream = 2,     // id = cudaStreamGetId
};

// A stream's counter block on one device state: after a cudaDeviceReset the
// device has a new state, so slots of the old one never match again.
struct CounterSlot {
  uint32_t *Block;
  uint64_t Id;
  const DeviceState *State;
  int Kind;
};
constexpr unsigned NumCounterSlots = 4;
thread_local CounterSlot TlCounters[NumCounterSlots];
thread_local unsigned TlCountersNext;
thread_local uint64_t TlThreadNumber;
std::atomic<uint64_t> ThreadCount{0};

} // namespace

bool copyToDevice(DeviceState &Dev, void *Ptr, const void *Host, size_t Bytes,
                  std::string &Error) {
  cudaError_t Err = Host ? cudaMemcpyAsync(Ptr, Host, Bytes,
                                           cudaMemcpyHostToDevice, Dev.Stream)
                         : cudaMemsetAsync(Ptr, 0, Bytes, Dev.Stream);
  if (Err == cudaSuccess)
    Err = cudaStreamSynchronize(Dev.Stream);
  if (Err != cudaSuccess) {
    Error = failed("copying to the device", Err);
    return false;
  }
  return true;
}

uint32_t *deviceBuffer(DeviceState &Dev, const void *Host, size_t Bytes,
                       std::string &Error) {
  void *Ptr = nullptr;
  cudaError_t Err = cudaMalloc(&Ptr, Bytes);
  if (Err != cudaSuccess) {
    Error = failed("cudaMalloc", Err);
    return nullptr;
  }
  // Not freed on failure: cudaFree could synchronize with a capturing stream.
  if (!copyToDevice(Dev, Ptr, Host, Bytes, Error))
    return nullptr;
  return static_cast<uint32_t *>(Ptr);
}

uint32_t *newCounterBlock(DeviceState &Dev) {
  if (Dev.SlabLeft == 0) {
    std::string Error;
    uint32_t *Slab = deviceBuffer(
        Dev, nullptr, CounterBlocksPerSlab * Dev.CounterWords * 4, Error);
    if (!Slab) {
      tell("cannot allocate launch counters on device " +
           std::to_string(Dev.Ordinal) + ": " + Error);
      return nullptr;
    }
    Dev.Slab = Slab;
    Dev.SlabLeft = CounterBlocksPerSlab;
  }
  uint32_t *Block = Dev.Slab;
  Dev.Slab += Dev.CounterWords;
  --Dev.SlabLeft;
  return Block;
}

void useCounterBlock(SmcDescriptor &Desc, uint32_t *Block, unsigned NumSMs) {
  Desc.worker_count = Block;
  Desc.queue_next = Block + size_t(NumSMs) * SMC_COUNTER_STRIDE;
  Desc.launch_counters = Block + 2 * size_t(NumSMs) * SMC_COUNTER_STRIDE;
}

DeviceState *deviceState(int Ordinal) {
  Globals &G = globals();
  if (Ordinal < 0)
    return nullptr;
  if (G.Devices.size() <= size_t(Ordinal))
    G.Devices.resize(size_t(Ordinal) + 1);
  if (G.Devices[Ordinal])
    return G.Devices[Ordinal].get();

  auto Dev = std::make_unique<DeviceState>();
  Dev->Ordinal = Ordinal;
  int Sms = 0;
  cudaError_t Err =
      cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, Ordinal);
  if (Err != cudaSuccess || Sms <= 0) {
    if (Err != cudaSuccess)
      cudaGetLastError();
    return nullptr;
  }
  Dev->NumSMs = unsigned(Sms);
  Dev->CounterWords = SMC_COUNTER_BLOCK_WORDS(size_t(Sms));
  Err = cudaStreamCreateWithFlags(&Dev->Stream, cudaStreamNonBlocking);
  if (Err != cudaSuccess) {
    tell("cannot create a stream on device " + std::to_string(Ordinal) + ": " +
         failed("cudaStreamCreateWithFlags", Err) +
         "; its kernels run the original");
    return nullptr;
  }
  if (stats::enabled()) {
    cudaDeviceProp Prop;
    if (cudaGetDeviceProperties(&Prop, Ordinal) == cudaSuccess)
      Dev->Name = Prop.name;
    else
      cudaGetLastError();
    std::string Error;
    Dev->StatsBlock = deviceBuffer(
        *Dev, nullptr, SMC_STATS_WORDS(Dev->NumSMs) * sizeof(uint32_t), Error);
    if (!Dev->StatsBlock)
      tell("SMC_STATS: no statistics block on device " +
           std::to_string(Ordinal) + ": " + Error);
  }
  if (traceEnabled())
    makeTraceBlock(*Dev);
  G.Devices[Ordinal] = std::move(Dev);
  return G.Devices[Ordinal].get();
}

bool streamKey(cudaStream_t Stream, StreamKey &Key) {
  int Kind;
  uint64_t Id;
  if (Stream == cudaStreamLegacy) {
    Kind = LegacyStream;
    Id = 0;
  } else if (Stream == cudaStreamPerThread) {
    if (TlThreadNumber == 0)
      TlThreadNumber = ThreadCount.fetch_add(1) + 1;
    Kind = PerThreadStream;
    Id = TlThreadNumber;
  } else {
    unsigned long long StreamId = 0;
    if (cudaStreamGetId(Stream, &StreamId) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    Kind = NamedStream;
    Id = StreamId;
  }
  Key = {Kind, Id};
  return true;
}

uint32_t *streamCounters(DeviceState &Dev, cudaStream_t Stream,
                         bool &AllocFailed) {
  AllocFailed = false;
  StreamKey Key;
  if (!streamKey(Stream, Key))
    return nullptr;
  auto [Kind, Id] = Key;
  for (const CounterSlot &S : TlCounters)
    if (S.Block && S.Id == Id && S.Kind == Kind && S.State == &Dev)
      return S.Block;

  uint32_t *Block;
  {
    Globals &G = globals();
    std::lock_guard<std::mutex> Lock(G.Mutex);
    RelaxedCaptureMode Relaxed;
    uint32_t *&Slot = Dev.StreamCounters[{Kind, Id}];
    if (!Slot)
      Slot = newCounterBlock(Dev);
    Block = Slot;
    if (!Block) {
      Dev.StreamCounters.erase({Kind, Id});
      AllocFailed = true;
      return nullptr;
    }
  }
  TlCounters[TlCountersNext++ % NumCounterSlots] =
      CounterSlot{Block, Id, &Dev, Kind};
  return Block;
}

uint32_t *captureCounters(DeviceState &Dev) {
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  RelaxedCaptureMode Relaxed;
  return newCounterBlock(Dev);
}

// The device's memory, modules and streams go with its context, so the
// runtime retires all it keeps for the device (tables, counter blocks,
// variants, prepared launches) and builds them again at the next launch.
// Launches must not race with a reset, as CUDA itself requires.
void retireCurrentDevice() {
  int Device = -1;
  if (cudaGetDevice(&Device) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  if (size_t(Device) < G.Devices.size() && G.Devices[Device])
    G.RetiredDevices.push_back(std::move(G.Devices[Device]));
  for (auto It = G.SmcVariants.begin(); It != G.SmcVariants.end();) {
    if (It->second->Device->Ordinal == Device)
      It = G.SmcVariants.erase(It);
    else
      ++It;
  }
  for (auto It = G.Kernels.begin(); It != G.Kernels.end();) {
    if (It->first.second == Device) {
      G.RetiredKernels.push_back(std::move(It->second));
      It = G.Kernels.erase(It);
    } else {
      ++It;
    }
  }
  policiesChanged(); // no thread-local prepared launch matches any more
}

} // namespace smc
