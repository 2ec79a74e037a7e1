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
#include "RuntimeState.h"
#include "Stats.h"

namespace smc {
namespace {

// Counter blocks are carved from slabs of this many blocks.
constexpr size_t kCounterBlocksPerSlab = 64;

// Which stream a counter block serves.
enum StreamKind : int {
  LegacyStream = 0,    // id 0
  PerThreadStream = 1, // id = the host thread's number
  NamedStream = 2,     // id = cudaStreamGetId
};

// A stream's counter block on one device state: after a cudaDeviceReset the
// device has a new state, so slots of the old one never match again.
struct CounterSlot {
  uint32_t *block;
  uint64_t id;
  const DeviceState *state;
  int kind;
};
constexpr unsigned kCounterSlots = 4;
thread_local CounterSlot tlCounters[kCounterSlots];
thread_local unsigned tlCountersNext;
thread_local uint64_t tlThreadNumber;
std::atomic<uint64_t> threadCount{0};

} // namespace

uint32_t *deviceBuffer(DeviceState &dev, const void *host, size_t bytes,
                       std::string &error) {
  void *ptr = nullptr;
  cudaError_t err = cudaMalloc(&ptr, bytes);
  if (err != cudaSuccess) {
    error = failed("cudaMalloc", err);
    return nullptr;
  }
  err = host ? cudaMemcpyAsync(ptr, host, bytes, cudaMemcpyHostToDevice,
                               dev.stream)
             : cudaMemsetAsync(ptr, 0, bytes, dev.stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(dev.stream);
  if (err != cudaSuccess) {
    // Not freed: cudaFree could synchronize with a capturing stream.
    error = failed("copying to the device", err);
    return nullptr;
  }
  return static_cast<uint32_t *>(ptr);
}

uint32_t *newCounterBlock(DeviceState &dev) {
  if (dev.slabLeft == 0) {
    std::string error;
    uint32_t *slab = deviceBuffer(
        dev, nullptr, kCounterBlocksPerSlab * dev.counterWords * 4, error);
    if (!slab) {
      tell("cannot allocate launch counters on device " +
           std::to_string(dev.ordinal) + ": " + error);
      return nullptr;
    }
    dev.slab = slab;
    dev.slabLeft = kCounterBlocksPerSlab;
  }
  uint32_t *block = dev.slab;
  dev.slab += dev.counterWords;
  --dev.slabLeft;
  return block;
}

void useCounterBlock(SmcDescriptor &desc, uint32_t *block, unsigned numSMs) {
  desc.worker_count = block;
  desc.queue_next = block + size_t(numSMs) * SMC_COUNTER_STRIDE;
  desc.launch_counters = block + 2 * size_t(numSMs) * SMC_COUNTER_STRIDE;
}

DeviceState *deviceState(int ordinal) {
  Globals &g = globals();
  if (ordinal < 0)
    return nullptr;
  if (g.devices.size() <= size_t(ordinal))
    g.devices.resize(size_t(ordinal) + 1);
  if (g.devices[ordinal])
    return g.devices[ordinal].get();

  auto dev = std::make_unique<DeviceState>();
  dev->ordinal = ordinal;
  int sms = 0;
  cudaError_t err =
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ordinal);
  if (err != cudaSuccess || sms <= 0) {
    if (err != cudaSuccess)
      cudaGetLastError();
    return nullptr;
  }
  dev->numSMs = unsigned(sms);
  dev->counterWords = SMC_COUNTER_BLOCK_WORDS(size_t(sms));
  err = cudaStreamCreateWithFlags(&dev->stream, cudaStreamNonBlocking);
  if (err != cudaSuccess) {
    tell("cannot create a stream on device " + std::to_string(ordinal) + ": " +
         failed("cudaStreamCreateWithFlags", err) +
         "; its kernels run the original");
    return nullptr;
  }
  if (stats::enabled()) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, ordinal) == cudaSuccess)
      dev->name = prop.name;
    else
      cudaGetLastError();
    std::string error;
    dev->statsBlock = deviceBuffer(
        *dev, nullptr, SMC_STATS_WORDS(dev->numSMs) * sizeof(uint32_t), error);
    if (!dev->statsBlock)
      tell("SMC_STATS: no statistics block on device " +
           std::to_string(ordinal) + ": " + error);
  }
  g.devices[ordinal] = std::move(dev);
  return g.devices[ordinal].get();
}

uint32_t *streamCounters(DeviceState &dev, cudaStream_t stream,
                         bool &allocFailed) {
  allocFailed = false;
  int kind;
  uint64_t id;
  if (stream == cudaStreamLegacy) {
    kind = LegacyStream;
    id = 0;
  } else if (stream == cudaStreamPerThread) {
    if (tlThreadNumber == 0)
      tlThreadNumber = threadCount.fetch_add(1) + 1;
    kind = PerThreadStream;
    id = tlThreadNumber;
  } else {
    unsigned long long streamId = 0;
    if (cudaStreamGetId(stream, &streamId) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    kind = NamedStream;
    id = streamId;
  }
  for (const CounterSlot &s : tlCounters)
    if (s.block && s.id == id && s.kind == kind && s.state == &dev)
      return s.block;

  uint32_t *block;
  {
    Globals &g = globals();
    std::lock_guard<std::mutex> lock(g.mutex);
    RelaxedCaptureMode relaxed;
    uint32_t *&slot = dev.streamCounters[{kind, id}];
    if (!slot)
      slot = newCounterBlock(dev);
    block = slot;
    if (!block) {
      dev.streamCounters.erase({kind, id});
      allocFailed = true;
      return nullptr;
    }
  }
  tlCounters[tlCountersNext++ % kCounterSlots] =
      CounterSlot{block, id, &dev, kind};
  return block;
}

uint32_t *captureCounters(DeviceState &dev) {
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  RelaxedCaptureMode relaxed;
  return newCounterBlock(dev);
}

// The device's memory, modules and streams go with its context, so the
// runtime retires all it keeps for the device (tables, counter blocks,
// variants, prepared launches) and builds them again at the next launch.
// Launches must not race with a reset, as CUDA itself requires.
void retireCurrentDevice() {
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  if (size_t(device) < g.devices.size() && g.devices[device])
    g.retiredDevices.push_back(std::move(g.devices[device]));
  for (auto it = g.smcVariants.begin(); it != g.smcVariants.end();) {
    if (it->second->device->ordinal == device)
      it = g.smcVariants.erase(it);
    else
      ++it;
  }
  for (auto it = g.kernels.begin(); it != g.kernels.end();) {
    if (it->first.second == device) {
      g.retiredKernels.push_back(std::move(it->second));
      it = g.kernels.erase(it);
    } else {
      ++it;
    }
  }
  policiesChanged(); // no thread-local prepared launch matches any more
}

} // namespace smc
