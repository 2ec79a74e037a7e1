//===- Kernels.h - Kernels, their variants and occupancy --------*- C++ -*-===//
//
// What the runtime knows of a kernel on a device, found once: its
// CUfunction, mangled and source names, the <kernel>__smc_info record the
// plugin left in its module, its __smc, __slice and __remap variants and
// the inspector __remap_keys (looked up by name in the same module), and the
// occupancy of the original and the
// __smc variant per block size and shared memory.  Any problem is kept as
// text, so the launch can fall back to the original and say why, once.
// The registry lock (Devices.h) guards every entry's mutable fields.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORE_KERNELS_H
#define SMC_RUNTIME_CORE_KERNELS_H

#include "base/Driver.h"
#include "core/Launch.h"
#include "smc/abi.h"
#include "smc/smc.h"

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace smc {

struct DeviceState;
struct Prepared;

// Per SM: original CTAs and __smc workers that fit at one block size and
// dynamic shared memory.
struct Occupancy {
  int Original = 0;
  int Variant = 0;
};

// A kernel (host symbol) on one device.
struct KernelEntry {
  const void *Symbol = nullptr;
  DeviceState *Device = nullptr;
  CUfunction Original = nullptr;
  CUfunction Smc = nullptr;
  CUfunction Slice = nullptr;
  CUfunction Remap = nullptr;     // K__remap
  CUfunction RemapKeys = nullptr; // K__remap_keys, its inspector
  std::string Mangled;
  std::string Source;
  SmcKernelInfo Info{};
  // Non-empty: why no variant of this kernel can run.
  std::string InfoProblem;
  // Non-empty: why the __smc / __slice variant the info promises is unusable.
  std::string SmcProblem;
  std::string SliceProblem;
  std::string RemapProblem;

  // Registry lock.  The kernel's policy resolved at PolicyEpoch
  // (policy/Policies.h).
  uint64_t PolicyEpoch = UINT64_MAX;
  uint32_t PolicyId = 0;
  std::map<std::pair<uint64_t, size_t>, Occupancy> Occupancies;
  // Its prepared launches, by LaunchShape::key; never freed.
  std::map<std::array<uint64_t, 8>, std::unique_ptr<Prepared>> Prepared;
};

// Registry lock held.  The entry of a kernel on a device, created on first
// use.  Null when the symbol is not a kernel the runtime can see (the
// original launch then reports the error).
KernelEntry *kernelEntry(const void *Symbol, DeviceState &Dev,
                         const driver::Api &Api);

// Registry lock held.  The kernel whose __smc variant is `Variant`, if any
// such variant was looked up (graph nodes, GraphExec.cpp); whether any was.
KernelEntry *kernelOfSmcVariant(CUfunction Variant);
// Registry lock held.  The kernel whose original is `Original`, if it was
// launched through the runtime.
KernelEntry *kernelOfOriginal(CUfunction Original);
bool anySmcVariant();

// Registry lock held.  Forgets the kernels of device `Ordinal` (kept, never
// used again), ahead of cudaDeviceReset.
void retireKernels(int Ordinal);

// The policy set for the kernel now (the API's, SMC_POLICY's or the
// default), looked up afresh: for rooms that ask after a policy change.
// No lock held at or above Policies.
const Policy &kernelPolicy(const KernelEntry &K);

// Once per kernel and text: "smc: kernel 'vecAdd': <What>".
void tellKernel(const KernelEntry &K, const std::string &What);

// Gives `Variant` the original's dynamic shared memory limit (when the
// launch needs more than the default) and shared memory carveout.
bool matchAttributes(const KernelEntry &K, CUfunction Variant, size_t SharedMem,
                     const driver::Api &Api, std::string &Error);

// The sizes of `Function`'s first `Count` parameters.  False, with the
// driver's `Result`, if it cannot tell.  No lock needed.
bool paramSizes(CUfunction Function, uint32_t Count, const driver::Api &Api,
                std::vector<size_t> &Sizes, CUresult &Result);

// Copies of a launch's argument values (each `Sizes[i]` bytes at
// `Args[i]`), which outlive the launch call: what a graph node or a top-up
// grid is given.  No lock needed.
std::vector<std::vector<char>> copyArgs(void *const *Args,
                                        const std::vector<size_t> &Sizes);

// Registry lock held.  Occupancy of the original and the __smc variant,
// cached per block size and shared memory.  False if the driver rejects the
// shape.
bool occupancy(KernelEntry &K, dim3 Block, size_t SharedMem,
               const driver::Api &Api, Occupancy &Out);
// The same, taking the registry lock (false without the driver API).
bool lockedOccupancy(KernelEntry &K, const LaunchShape &Shape, Occupancy &Out);

} // namespace smc

#endif // SMC_RUNTIME_CORE_KERNELS_H
