//===- Devices.cpp - What the runtime keeps on each device ----------------===//
//
// Device states, device buffers and counter blocks; see Devices.h.  A
// thread-local cache maps a stream to its counter block, so that a launch
// takes no lock once its stream has one.
//===----------------------------------------------------------------------===//
#include "core/Devices.h"

#include "base/Forever.h"
#include "base/Messages.h"
#include "core/Kernels.h"
#include "observe/Counts.h"
#include "observe/TraceLaunch.h"
#include "policy/Policies.h"

#include <memory>
#include <vector>

namespace smc {
namespace {

// Counter blocks are carved from slabs of this many blocks.
constexpr size_t CounterBlocksPerSlab = 64;

struct Devices {
  // Guards core's state: this, Kernels.cpp's tables, prepared launches.
  OrderedMutex Mutex{LockLevel::Registry};
  std::vector<std::unique_ptr<DeviceState>> Current;
  // States of devices that were reset: kept, as other threads' caches may
  // still point into them (they are never used again).
  std::vector<std::unique_ptr<DeviceState>> Retired;
};

// Never destroyed, so launches from static destructors still find it.
// A stream's counter block on one device state: after a cudaDeviceReset the
// device has a new state, so slots of the old one never match again.
struct CounterSlot {
  uint32_t *Block;
  StreamKey Key;
  const DeviceState *State;
};
constexpr unsigned NumCounterSlots = 4;
thread_local CounterSlot TlCounters[NumCounterSlots];
thread_local unsigned TlCountersNext;

std::atomic<bool> ForwardAll{false};

} // namespace

OrderedMutex &registryMutex() { return forever<Devices>().Mutex; }

bool forwardAll() { return ForwardAll.load(std::memory_order_relaxed); }
void forwardEverything() { ForwardAll.store(true, std::memory_order_relaxed); }

bool copyToDevice(DeviceState &Dev, void *Ptr, const void *Host, size_t Bytes,
                  std::string &Error) {
  return copyThrough(Dev.Stream, Ptr, Host, Bytes, Error);
}

uint32_t *deviceBuffer(DeviceState &Dev, const void *Host, size_t Bytes,
                       std::string &Error) {
  return static_cast<uint32_t *>(
      newDeviceMemory(Dev.Stream, Host, Bytes, Error));
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
  Devices &D = forever<Devices>();
  if (Ordinal < 0)
    return nullptr;
  if (D.Current.size() <= size_t(Ordinal))
    D.Current.resize(size_t(Ordinal) + 1);
  if (D.Current[Ordinal])
    return D.Current[Ordinal].get();

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
  cudaDeviceProp Prop;
  if (cudaGetDeviceProperties(&Prop, Ordinal) == cudaSuccess)
    Dev->Name = Prop.name;
  else
    cudaGetLastError();
  Err = cudaStreamCreateWithFlags(&Dev->Stream, cudaStreamNonBlocking);
  if (Err != cudaSuccess) {
    tell("cannot create a stream on device " + std::to_string(Ordinal) + ": " +
         failed("cudaStreamCreateWithFlags", Err) +
         "; its kernels run the original");
    return nullptr;
  }
  if (stats::enabled())
    stats::makeDeviceBlock(Ordinal, Dev->NumSMs, Dev->Stream);
  if (trace::enabled())
    trace::makeDeviceBlock(Ordinal, Dev->Stream);
  D.Current[Ordinal] = std::move(Dev);
  return D.Current[Ordinal].get();
}

DeviceState *lockedDeviceState(int Ordinal) {
  Guard Lock(registryMutex());
  RelaxedCaptureMode Relaxed;
  return deviceState(Ordinal);
}

uint32_t *streamCounters(DeviceState &Dev, cudaStream_t Stream,
                         bool &AllocFailed) {
  AllocFailed = false;
  StreamKey Key;
  if (!streamKey(Stream, Key))
    return nullptr;
  for (const CounterSlot &S : TlCounters)
    if (S.Block && S.Key == Key && S.State == &Dev)
      return S.Block;

  uint32_t *Block;
  {
    Guard Lock(registryMutex());
    RelaxedCaptureMode Relaxed;
    uint32_t *&Slot = Dev.StreamCounters[Key];
    if (!Slot)
      Slot = newCounterBlock(Dev);
    Block = Slot;
    if (!Block) {
      Dev.StreamCounters.erase(Key);
      AllocFailed = true;
      return nullptr;
    }
  }
  TlCounters[TlCountersNext++ % NumCounterSlots] =
      CounterSlot{Block, Key, &Dev};
  return Block;
}

uint32_t *captureCounters(DeviceState &Dev) {
  Guard Lock(registryMutex());
  RelaxedCaptureMode Relaxed;
  return newCounterBlock(Dev);
}

// The device's memory, modules and streams go with its context, so the
// runtime retires all it keeps for the device (tables, counter blocks,
// variants, prepared launches, the rooms' state) and builds them again at
// the next launch.  Launches must not race with a reset, as CUDA itself
// requires.
void retireCurrentDevice() {
  int Device = -1;
  if (cudaGetDevice(&Device) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  {
    Devices &D = forever<Devices>();
    Guard Lock(D.Mutex);
    if (size_t(Device) < D.Current.size() && D.Current[Device])
      D.Retired.push_back(std::move(D.Current[Device]));
    retireKernels(Device);
  }
  stats::forgetDevice(Device);
  trace::forgetDevice(Device);
  policiesChanged(); // no thread-local prepared launch matches any more
}

} // namespace smc
