//===- LaunchEntry.cpp - The launch entry points and their fast path ------===//
//
// Programs built with the SMC plugin call __smc_launch_kernel (and
// __smc_launch_kernel_ptsz) where they called cudaLaunchKernel, and
// __smc_device_reset where they called cudaDeviceReset.
//
// Between smc::Batch::begin() and end() a launch is recorded instead
// (Batch.cpp).  Steady state: a thread-local cache maps (kernel, device, launch
// shape, policy epoch) to the prepared launch, and another
// (DeviceResources.cpp) maps the stream to its counter block, so a launch costs
// cudaGetDevice, cudaStreamIsCapturing, cudaStreamGetId (named streams only)
// and cuLaunchKernel: no lock, allocation or string work.  A miss goes to
// prepare() (PreparedLaunch.cpp).
//===----------------------------------------------------------------------===//
#include "core/HostEntries.h"
#include "core/RuntimeState.h"
#include "observe/Stats.h"

namespace smc {
namespace {

struct PreparedSlot {
  const void *Func;
  Prepared *Prepared;
  uint64_t Epoch;
  int Device;
  const StreamPartition *Partition;
  LaunchShape Shape;
};
constexpr unsigned NumPreparedSlots = 8;
thread_local PreparedSlot TlPrepared[NumPreparedSlots];
thread_local unsigned TlPreparedNext;

Prepared *cachedPrepared(const LaunchRequest &Req, int Device, uint64_t Epoch) {
  for (const PreparedSlot &S : TlPrepared)
    if (S.Prepared && S.Func == Req.Func && S.Device == Device &&
        S.Epoch == Epoch && S.Partition == Req.Partition &&
        S.Shape == Req.Shape)
      return S.Prepared;
  return nullptr;
}

void cachePrepared(const LaunchRequest &Req, int Device, uint64_t Epoch,
                   Prepared *Prepared) {
  TlPrepared[TlPreparedNext++ % NumPreparedSlots] =
      PreparedSlot{Req.Func, Prepared, Epoch, Device, Req.Partition, Req.Shape};
}

} // namespace

cudaError_t launchRequest(LaunchRequest Req) {
  // Inside smc::Batch::begin()/end() the launch is recorded (Batch.cpp).
  if (batchRecording())
    return recordIntoBatch(Req);
  // Reads SMC_STATS on the first launch, so that its file is written even
  // if no launch gets recorded.
  stats::enabled();
  if (smcDisabled() || ForwardAll.load(std::memory_order_relaxed))
    return launchOriginal(Req);
  int Device = 0;
  if (cudaGetDevice(&Device) != cudaSuccess) {
    // No usable device or driver: the original launch reports it.
    cudaGetLastError();
    return launchOriginal(Req);
  }
  uint64_t Epoch = currentPolicyEpoch();
  Req.Partition = streamPartition(Device, Req.effectiveStream());
  Prepared *P = cachedPrepared(Req, Device, Epoch);
  if (!P) {
    P = prepare(Req, Device);
    if (!P)
      return launchOriginal(Req);
    cachePrepared(Req, Device, Epoch, P);
  }
  if (P->Variant == Variant::Auto)
    return launchAuto(Req, Device, *P);
  if (P->Variant == Variant::Locality)
    return launchLocality(Req, Device, *P);
  return dispatchWithPriority(*P, Req, Device);
}

cudaError_t dispatchWithPriority(Prepared &P, LaunchRequest &Req, int Device) {
  // A stream of higher priority takes SMs from yielding launches
  // (Priorities.cpp); a partitioned stream keeps to its partition.
  if (!Req.Partition && urgentLaunch(P, Req.effectiveStream()))
    return launchUrgent(Req, Device, P);
  return dispatchPrepared(P, Req);
}

namespace {

LaunchRequest request(const void *Func, dim3 Grid, dim3 Block, void **Args,
                      size_t SharedMem, cudaStream_t Stream, bool Ptsz) {
  LaunchRequest Req;
  Req.Func = Func;
  Req.Shape.Grid = Grid;
  Req.Shape.Block = Block;
  Req.Shape.SharedMem = SharedMem;
  Req.Args = Args;
  Req.Stream = Stream;
  Req.Ptsz = Ptsz;
  return Req;
}

} // namespace
} // namespace smc

extern "C" cudaError_t __smc_launch_kernel(const void *Func, dim3 Grid,
                                           dim3 Block, void **Args,
                                           size_t SharedMem,
                                           cudaStream_t Stream) {
  return smc::launchRequest(
      smc::request(Func, Grid, Block, Args, SharedMem, Stream, /*ptsz=*/false));
}

extern "C" cudaError_t __smc_launch_kernel_ptsz(const void *Func, dim3 Grid,
                                                dim3 Block, void **Args,
                                                size_t SharedMem,
                                                cudaStream_t Stream) {
  return smc::launchRequest(
      smc::request(Func, Grid, Block, Args, SharedMem, Stream, /*ptsz=*/true));
}

// The device's memory, modules and streams go with its context: the runtime
// retires what it keeps there first, and builds it again at the next launch.
extern "C" cudaError_t __smc_device_reset() {
  smc::retireCurrentDevice();
  return cudaDeviceReset();
}
