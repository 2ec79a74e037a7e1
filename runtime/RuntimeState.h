//===- RuntimeState.h - What the parts of the SMC runtime share -*- C++ -*-===//
//
// The runtime's state and the functions its parts call across files.  A
// launch goes through them in this order:
//
//   LaunchEntry.cpp      __smc_launch_kernel(_ptsz), the thread-local cache
//                        of prepared launches, launch()
//   PreparedLaunch.cpp   prepare(): kernel + policy + device -> QueuePlan ->
//                        uploaded tables; launchPrepared(): the variant with
//                        its counter block, or the original as fallback
//   KernelRegistry.cpp   a kernel's CUfunction, names, __smc_info record,
//                        variants, attributes and occupancy
//   PolicyRegistry.cpp   which policy a kernel has (smc.h API, SMC_POLICY)
//   DeviceResources.cpp  per-device state: the runtime's stream, device
//                        buffers, counter blocks per stream and per capture,
//                        cudaDeviceReset
//   GraphExec.cpp        a counter block of its own for each executable
//                        graph's SM-centric kernel nodes
//   StatsLaunch.cpp      the SMC_STATS launch (Stats.cpp writes the file)
//
// then runtime/device/SmcWorker.cu on the GPU.  Slow paths hold
// Globals::mutex; the fast path (a cached prepared launch and counter block)
// takes no lock.  docs/DESIGN.md states the invariants the parts rely on.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_RUNTIMESTATE_H
#define SMC_RUNTIME_RUNTIMESTATE_H

#include "Driver.h"
#include "PolicyText.h"
#include "QueuePlan.h"
#include "smc/abi.h"
#include "smc/smc.h"

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace smc {

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

// The grid, block and dynamic shared memory of a launch: with the kernel,
// device and policy, what a prepared launch is cached under.
struct LaunchShape {
  dim3 grid;
  dim3 block;
  size_t sharedMem = 0;

  bool operator==(const LaunchShape &o) const {
    return grid.x == o.grid.x && grid.y == o.grid.y && grid.z == o.grid.z &&
           block.x == o.block.x && block.y == o.block.y &&
           block.z == o.block.z && sharedMem == o.sharedMem;
  }
  // The shape, and a policy id, as an ordered key.
  std::array<uint64_t, 8> key(uint32_t policyId) const {
    return {grid.x,  grid.y,  grid.z,    block.x,
            block.y, block.z, sharedMem, policyId};
  }
};

// One launch as the program made it (the arguments of cudaLaunchKernel).
struct LaunchRequest {
  const void *func = nullptr;
  LaunchShape shape;
  void **args = nullptr;
  cudaStream_t stream = nullptr;
  bool ptsz = false; // through cudaLaunchKernel_ptsz
};

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

// One device the process launches on.
struct DeviceState {
  int ordinal = 0;
  unsigned numSMs = 0; // num_slots of every plan on this device
  std::string name;
  cudaStream_t stream = nullptr; // the runtime's own non-blocking stream
  size_t counterWords = 0;       // words of one counter block
  uint32_t *slab = nullptr;      // zeroed counter blocks not yet handed out
  size_t slabLeft = 0;
  // Counter blocks of streams, by (StreamKind, id).
  std::map<std::pair<int, uint64_t>, uint32_t *> streamCounters;
  uint32_t *statsBlock = nullptr; // SMC_STATS only
};

struct KernelEntry;

// One launch configuration of a kernel under one policy, ready to launch.
struct Prepared {
  KernelEntry *kernel = nullptr;
  DeviceState *device = nullptr;
  Variant variant = Variant::Original;
  std::string reason; // why the original runs although the policy wants more
  CUfunction function = nullptr;
  SmcDescriptor desc{}; // tables filled in; counters and stats per launch
  uint32_t numParams = 0;
  // The plan, without its tables (they live on the device, in desc).
  QueuePlan plan;
  // Set when a variant launch failed but the original then succeeded: from
  // then on this configuration runs the original.
  std::atomic<bool> variantFailed{false};
};

// Per SM: original CTAs and __smc workers that fit at one block size and
// dynamic shared memory.
struct Occupancy {
  int original = 0;
  int variant = 0;
};

// A kernel (host symbol) on one device.
struct KernelEntry {
  const void *symbol = nullptr;
  DeviceState *device = nullptr;
  CUfunction original = nullptr;
  CUfunction smc = nullptr;
  CUfunction slice = nullptr;
  std::string mangled;
  std::string source;
  SmcKernelInfo info{};
  // Non-empty: why no variant of this kernel can run.
  std::string infoProblem;
  // Non-empty: why the __smc / __slice variant the info promises is unusable.
  std::string smcProblem;
  std::string sliceProblem;
  // The policy resolved at policyEpoch, as an index into Globals::policies.
  uint64_t policyEpoch = UINT64_MAX;
  uint32_t policyId = 0;
  std::map<std::pair<uint64_t, size_t>, Occupancy> occupancy;
  // By LaunchShape::key.
  std::map<std::array<uint64_t, 8>, std::unique_ptr<Prepared>> prepared;
};

// Everything shared between threads, guarded by `mutex` unless noted.  Never
// destroyed, so launches from static destructors still find it.
struct Globals {
  std::mutex mutex;
  std::unordered_map<const void *, Policy> symbolPolicies;
  std::vector<PolicyRule> namePolicies;
  std::vector<Policy> policies; // interned: a policy's index is its id
  std::vector<std::unique_ptr<DeviceState>> devices;
  std::map<std::pair<const void *, int>, std::unique_ptr<KernelEntry>> kernels;
  // __smc variants by CUfunction, for finding their graph nodes.
  std::map<CUfunction, KernelEntry *> smcVariants;
  // Counter blocks some executable graph's node uses (GraphExec.cpp).
  std::set<std::pair<const DeviceState *, uint32_t *>> graphCounters;
  // State of devices that were reset: kept, as other threads' caches may
  // still point into it (it is never used again).
  std::vector<std::unique_ptr<DeviceState>> retiredDevices;
  std::vector<std::unique_ptr<KernelEntry>> retiredKernels;

  std::mutex statsMutex; // held across launch and read-back with SMC_STATS

  std::mutex messageMutex; // guards `told`
  std::set<std::string> told;
};

Globals &globals();

// Set when the driver API is unavailable: every launch runs the original.
extern std::atomic<bool> forwardAll;

//===----------------------------------------------------------------------===//
// Messages, environment, CUDA helpers (RuntimeState.cpp)
//===----------------------------------------------------------------------===//

// Prints "smc: <line>" to stderr, once per distinct line.
void tell(const std::string &line);
// Once per kernel and text: "smc: kernel 'vecAdd': <what>".
void tellKernel(const KernelEntry &k, const std::string &what);

// SMC_DISABLE=1: every launch goes straight to the original.
bool smcDisabled();

// "<what> failed: cudaErrorX", clearing the error so that a failed call of
// ours never becomes the program's last error.
std::string failed(const char *what, cudaError_t err);

// Makes the runtime's own CUDA calls legal while some stream of the process
// is capturing (cudaStreamCaptureModeRelaxed for this thread), restoring
// the thread's mode afterwards.
class RelaxedCaptureMode {
public:
  RelaxedCaptureMode();
  ~RelaxedCaptureMode();
  RelaxedCaptureMode(const RelaxedCaptureMode &) = delete;
  RelaxedCaptureMode &operator=(const RelaxedCaptureMode &) = delete;

private:
  cudaStreamCaptureMode Saved;
  bool Active;
};

//===----------------------------------------------------------------------===//
// Policies (PolicyRegistry.cpp), Globals::mutex held unless noted
//===----------------------------------------------------------------------===//

// The epoch every policy change bumps (no lock needed).
uint64_t currentPolicyEpoch();
// Makes every cached prepared launch stale (no lock needed).
void policiesChanged();
// The id of the policy `k` has now (SMC_POLICY parsed on first use).
uint32_t policyIdOf(const KernelEntry &k);
const Policy &policyById(uint32_t id);

//===----------------------------------------------------------------------===//
// Device resources (DeviceResources.cpp), Globals::mutex held unless noted
//===----------------------------------------------------------------------===//

// The state of device `ordinal`, created on first use.  Null if the device
// cannot be used.
DeviceState *deviceState(int ordinal);

// Device memory of `bytes`, filled from `host` or zeroed if host is null,
// through the device's own stream.  Null with `error` set on failure.
uint32_t *deviceBuffer(DeviceState &dev, const void *host, size_t bytes,
                       std::string &error);

// A zeroed counter block no one else has, or null (and told why).
uint32_t *newCounterBlock(DeviceState &dev);

// Points the descriptor's worker_count, queue_next and launch_counters at
// `block`, a counter block of a device with `numSMs` SMs (no lock needed).
void useCounterBlock(SmcDescriptor &desc, uint32_t *block, unsigned numSMs);

// No lock needed.  The counter block of a stream that is not capturing,
// cached per thread.  Null if the stream cannot be identified
// (`allocFailed` false: the launch itself will fail) or no block can be
// allocated (`allocFailed` true).
uint32_t *streamCounters(DeviceState &dev, cudaStream_t stream,
                         bool &allocFailed);

// No lock needed.  A counter block for one launch into a capturing stream:
// never reused by streams.  Null if none can be allocated.
uint32_t *captureCounters(DeviceState &dev);

// Retires what the runtime keeps for the current device, ahead of
// cudaDeviceReset (no lock needed).
void retireCurrentDevice();

//===----------------------------------------------------------------------===//
// Kernels (KernelRegistry.cpp), Globals::mutex held
//===----------------------------------------------------------------------===//

// The entry of a kernel on a device, created on first use.  Null when the
// symbol is not a kernel the runtime can see (the original launch then
// reports the error).
KernelEntry *kernelEntry(const void *symbol, DeviceState &dev,
                         const driver::Api &api);

// Gives `variant` the original's dynamic shared memory limit (when the
// launch needs more than the default) and shared memory carveout.
bool matchAttributes(const KernelEntry &k, CUfunction variant, size_t sharedMem,
                     const driver::Api &api, std::string &error);

// Occupancy of the original and the __smc variant, cached per block size
// and shared memory.  False if the driver rejects the shape.
bool occupancy(KernelEntry &k, dim3 block, size_t sharedMem,
               const driver::Api &api, Occupancy &out);

//===----------------------------------------------------------------------===//
// Prepared launches (PreparedLaunch.cpp), no lock held
//===----------------------------------------------------------------------===//

// The prepared launch of a request's configuration (slow path).  Null when
// the launch should be forwarded to the original uncached.
Prepared *prepare(const LaunchRequest &req, int device);

// The original kernel, as the program asked.
cudaError_t launchOriginal(const LaunchRequest &req);

// The original for a prepared launch, recorded with SMC_STATS.
cudaError_t runOriginal(Prepared &p, const char *reason,
                        const LaunchRequest &req);

// Launches a prepared SMCentric or Slice configuration.
cudaError_t launchPrepared(Prepared &p, const LaunchRequest &req);

// Launches the prepared variant with `desc` on `stream`.  For slices,
// `failedSlice` is the index of the slice whose launch failed.
CUresult launchVariant(const Prepared &p, SmcDescriptor &desc,
                       const LaunchRequest &req, cudaStream_t stream,
                       uint32_t &failedSlice);

// After a variant launch failed: the original if nothing ran yet, an error
// if some slices already ran (running them again would break exactly-once).
cudaError_t afterVariantFailure(Prepared &p, CUresult result,
                                uint32_t failedSlice, const LaunchRequest &req);

// "smc", "slice" or "original".
const char *variantName(Variant v);

//===----------------------------------------------------------------------===//
// SMC_STATS (StatsLaunch.cpp)
//===----------------------------------------------------------------------===//

// Launches `p` with a zeroed statistics block, waits for the launch and
// records what the variant counted.  Serializes launches.
cudaError_t launchWithStats(Prepared &p, SmcDescriptor &desc, bool capturing,
                            const LaunchRequest &req, cudaStream_t stream);

// Records a launch of the original (reason, error) with SMC_STATS.
void recordOriginal(const Prepared &p, const LaunchRequest &req,
                    const char *reason, cudaError_t err);

} // namespace smc

#endif // SMC_RUNTIME_RUNTIMESTATE_H
