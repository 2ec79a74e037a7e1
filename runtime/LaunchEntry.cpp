//===- LaunchEntry.cpp - The launch entry points and their fast path ------===//
//
// Programs built with the SMC plugin call __smc_launch_kernel (and
// __smc_launch_kernel_ptsz) where they called cudaLaunchKernel, and
// __smc_device_reset where they called cudaDeviceReset.
//
// Steady state: a thread-local cache maps (kernel, device, launch shape,
// policy epoch) to the prepared launch, and another (DeviceResources.cpp)
// maps the stream to its counter block, so a launch costs cudaGetDevice,
// cudaStreamIsCapturing, cudaStreamGetId (named streams only) and
// cuLaunchKernel: no lock, allocation or string work.  A miss goes to
// prepare() (PreparedLaunch.cpp).
//===----------------------------------------------------------------------===//
#include "HostEntries.h"
#include "RuntimeState.h"
#include "Stats.h"

namespace smc {
namespace {

struct PreparedSlot {
  const void *func;
  Prepared *prepared;
  uint64_t epoch;
  int device;
  LaunchShape shape;
};
constexpr unsigned kPreparedSlots = 8;
thread_local PreparedSlot tlPrepared[kPreparedSlots];
thread_local unsigned tlPreparedNext;

Prepared *cachedPrepared(const LaunchRequest &req, int device, uint64_t epoch) {
  for (const PreparedSlot &s : tlPrepared)
    if (s.prepared && s.func == req.func && s.device == device &&
        s.epoch == epoch && s.shape == req.shape)
      return s.prepared;
  return nullptr;
}

void cachePrepared(const LaunchRequest &req, int device, uint64_t epoch,
                   Prepared *prepared) {
  tlPrepared[tlPreparedNext++ % kPreparedSlots] =
      PreparedSlot{req.func, prepared, epoch, device, req.shape};
}

cudaError_t launch(const LaunchRequest &req) {
  // Reads SMC_STATS on the first launch, so that its file is written even
  // if no launch gets recorded.
  stats::enabled();
  if (smcDisabled() || forwardAll.load(std::memory_order_relaxed))
    return launchOriginal(req);
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    // No usable device or driver: the original launch reports it.
    cudaGetLastError();
    return launchOriginal(req);
  }
  uint64_t epoch = currentPolicyEpoch();
  Prepared *p = cachedPrepared(req, device, epoch);
  if (!p) {
    p = prepare(req, device);
    if (!p)
      return launchOriginal(req);
    cachePrepared(req, device, epoch, p);
  }
  if (p->variant == Variant::Original)
    return runOriginal(*p, p->reason.c_str(), req);
  if (p->variantFailed.load(std::memory_order_relaxed))
    return runOriginal(*p, "variant launch failed", req);
  return launchPrepared(*p, req);
}

LaunchRequest request(const void *func, dim3 grid, dim3 block, void **args,
                      size_t sharedMem, cudaStream_t stream, bool ptsz) {
  LaunchRequest req;
  req.func = func;
  req.shape.grid = grid;
  req.shape.block = block;
  req.shape.sharedMem = sharedMem;
  req.args = args;
  req.stream = stream;
  req.ptsz = ptsz;
  return req;
}

} // namespace
} // namespace smc

extern "C" cudaError_t __smc_launch_kernel(const void *func, dim3 grid,
                                           dim3 block, void **args,
                                           size_t sharedMem,
                                           cudaStream_t stream) {
  return smc::launch(smc::request(func, grid, block, args, sharedMem, stream,
                                  /*ptsz=*/false));
}

extern "C" cudaError_t __smc_launch_kernel_ptsz(const void *func, dim3 grid,
                                                dim3 block, void **args,
                                                size_t sharedMem,
                                                cudaStream_t stream) {
  return smc::launch(smc::request(func, grid, block, args, sharedMem, stream,
                                  /*ptsz=*/true));
}

// The device's memory, modules and streams go with its context: the runtime
// retires what it keeps there first, and builds it again at the next launch.
extern "C" cudaError_t __smc_device_reset() {
  smc::retireCurrentDevice();
  return cudaDeviceReset();
}
