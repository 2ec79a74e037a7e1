//===- Devices.h - What the runtime keeps on each device --------*- C++ -*-===//
//
// Per device: its SM count and name, the runtime's own non-blocking stream
// (copies that must not wait for kernels), device buffers (queue tables,
// live targets) and counter blocks, and a slot per room for the state the
// rooms above core keep with the device (base/RoomSlots.h).
//
// Counter blocks (worker_count, queue_next, launch_counters) belong to one
// (device, stream) - one per host thread for the per-thread default stream -
// because the variant's last worker resets them for the next stream-ordered
// launch.  A launch into a capturing stream gets a fresh block that no
// stream ever uses (GraphExec.cpp then gives each executable graph blocks of
// its own).  Device memory the runtime owns is never freed: launches in
// flight and captured graphs may still use it.  cudaDeviceReset retires a
// device's state (kept, never used again: other threads' caches may still
// point into it), and the next launch builds it again.
//
// The registry lock (LockLevel::Registry) guards core's state: devices,
// kernels (Kernels.h), prepared launches (Prepared.h) and counter blocks.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORE_DEVICES_H
#define SMC_RUNTIME_CORE_DEVICES_H

#include "base/Cuda.h"
#include "base/Locks.h"
#include "base/RoomSlots.h"
#include "smc/abi.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <string>

namespace smc {

// core's one lock: devices, kernels, prepared launches, counter blocks.
OrderedMutex &registryMutex();

// One device the process launches on.
struct DeviceState {
  int Ordinal = 0;
  unsigned NumSMs = 0; // num_slots of every plan on this device
  std::string Name;
  cudaStream_t Stream = nullptr; // the runtime's own non-blocking stream
  // The rooms' state for this device (their types, their locks).
  RoomSlots Rooms;

  // Counter blocks (registry lock).
  size_t CounterWords = 0;  // words of one counter block
  uint32_t *Slab = nullptr; // zeroed counter blocks not yet handed out
  size_t SlabLeft = 0;
  std::map<StreamKey, uint32_t *> StreamCounters;
};

// Registry lock held.  The state of device `Ordinal`, created on first use.
// Null if the device cannot be used.
DeviceState *deviceState(int Ordinal);
// The same, taking the registry lock.
DeviceState *lockedDeviceState(int Ordinal);

// Device memory of `Bytes`, filled from `Host` or zeroed if it is null,
// through the device's own stream.  Null with `Error` set on failure.  No
// lock needed (the device's stream never changes).
uint32_t *deviceBuffer(DeviceState &Dev, const void *Host, size_t Bytes,
                       std::string &Error);

// Copies `Bytes` from `Host` (or zeroes them if it is null) to `Ptr` through
// the device's own non-blocking stream, and waits for the copy only: it
// completes while kernels run.  False with `Error` set on failure.
bool copyToDevice(DeviceState &Dev, void *Ptr, const void *Host, size_t Bytes,
                  std::string &Error);

// Registry lock held.  A zeroed counter block no one else has, or null (and
// told why).
uint32_t *newCounterBlock(DeviceState &Dev);

// Points the descriptor's worker_count, queue_next and launch_counters at
// `Block`, a counter block of a device with `NumSMs` SMs.
void useCounterBlock(SmcDescriptor &Desc, uint32_t *Block, unsigned NumSMs);

// No lock held.  The counter block of a stream that is not capturing,
// cached per thread.  Null if the stream cannot be identified
// (`AllocFailed` false: the launch itself will fail) or no block can be
// allocated (`AllocFailed` true).
uint32_t *streamCounters(DeviceState &Dev, cudaStream_t Stream,
                         bool &AllocFailed);

// No lock held.  A counter block for one launch into a capturing stream:
// never reused by streams.  Null if none can be allocated.
uint32_t *captureCounters(DeviceState &Dev);

// Whether every launch runs the original (the CUDA driver API cannot be
// had), and setting it.
bool forwardAll();
void forwardEverything();

// Retires what the runtime keeps for the current device, ahead of
// cudaDeviceReset (no lock held).
void retireCurrentDevice();

} // namespace smc

#endif // SMC_RUNTIME_CORE_DEVICES_H
