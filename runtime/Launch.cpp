//===- Launch.cpp - The SMC launch entry points and the smc.h API ---------===//
//
// Programs built with the SMC plugin call __smc_launch_kernel (and
// __smc_launch_kernel_ptsz) where they called cudaLaunchKernel.  A launch:
//
//  1. finds, once per kernel and device, the kernel's CUfunction, mangled and
//     source names, its __smc / __slice variants and its __smc_info record
//     (driver API, by name, in the kernel's own module);
//  2. resolves the kernel's policy (setPolicy by symbol, by name, SMC_POLICY,
//     default) and plans the launch (QueuePlan) once per grid, block, shared
//     memory and policy, uploading the plan's queue tables;
//  3. launches the chosen variant with cuLaunchKernel and a filled
//     descriptor, or the original with cudaLaunchKernel.
//
// Steady state: a thread-local cache maps (kernel, device, grid, block,
// shared memory, policy epoch) to the prepared launch, and another maps the
// stream to its counter block, so a launch costs cudaGetDevice,
// cudaStreamIsCapturing, cudaStreamGetId (named streams only) and
// cuLaunchKernel: no lock, allocation or string work.
//
// Counter blocks (worker_count, queue_next, launch_counters) belong to one
// (device, stream) - one per host thread for the per-thread default stream -
// because the variant's last worker resets them for the next stream-ordered
// launch.  A launch into a capturing stream gets a fresh block that nothing
// else ever uses, so replays of the graph never share it with other work.
// Device memory the runtime owns is never freed: launches in flight and
// captured graphs may still use it.
//===----------------------------------------------------------------------===//
#include "Driver.h"
#include "KernelName.h"
#include "PolicyText.h"
#include "QueuePlan.h"
#include "Stats.h"
#include "smc/abi.h"
#include "smc/smc.h"

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

// Exported by cudart; cuda_runtime_api.h declares it only for translation
// units built with per-thread default streams.
extern "C" cudaError_t CUDARTAPI
cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                      void **args, size_t sharedMem, cudaStream_t stream);

#define SMC_EXPORT __attribute__((visibility("default")))

extern "C" {
SMC_EXPORT cudaError_t __smc_launch_kernel(const void *func, dim3 grid,
                                           dim3 block, void **args,
                                           size_t sharedMem,
                                           cudaStream_t stream);
SMC_EXPORT cudaError_t __smc_launch_kernel_ptsz(const void *func, dim3 grid,
                                                dim3 block, void **args,
                                                size_t sharedMem,
                                                cudaStream_t stream);
SMC_EXPORT cudaError_t __smc_device_reset();
}

namespace smc {
namespace {

constexpr bool sameText(const char *a, const char *b) {
  return *a == *b && (*a == '\0' || sameText(a + 1, b + 1));
}
static_assert(sameText(SMC_ENTRY_LAUNCH, "__smc_launch_kernel") &&
                  sameText(SMC_ENTRY_LAUNCH_PTSZ, "__smc_launch_kernel_ptsz") &&
                  sameText(SMC_ENTRY_DEVICE_RESET, "__smc_device_reset"),
              "the entry points below must carry the names abi.h gives");

// Dynamic shared memory above this needs the kernel's max dynamic shared
// size attribute raised.
constexpr size_t kDefaultSharedLimit = 48 * 1024;
// Counter blocks are carved from slabs of this many blocks.
constexpr size_t kCounterBlocksPerSlab = 64;
// Kernel parameter arrays up to this size are built on the stack.
constexpr size_t kStackParams = 64;

//===----------------------------------------------------------------------===//
// Runtime state
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
  // Counter blocks of streams, by (kind, id): see StreamKey.
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
  // SMCentric.
  SmcMode mode = SMC_MODE_LOOP;
  uint32_t workers = 0;
  uint32_t target = 0;
  // Slice.
  uint32_t sliceSize = 0;
  uint32_t numSlices = 0;
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
  // By grid x/y/z, block x/y/z, shared memory and policy id.
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
  // State of devices that were reset: kept, as other threads' caches may
  // still point into it (it is never used again).
  std::vector<std::unique_ptr<DeviceState>> retiredDevices;
  std::vector<std::unique_ptr<KernelEntry>> retiredKernels;

  std::mutex statsMutex; // held across launch and read-back with SMC_STATS

  std::mutex messageMutex; // guards `told`
  std::set<std::string> told;
};

Globals &globals() {
  static Globals *instance = new Globals;
  return *instance;
}

// Bumped by every policy change; prepared launches cached under an older
// epoch are looked up again.
std::atomic<uint64_t> policyEpoch{0};
// Set when the driver API is unavailable: every launch runs the original.
std::atomic<bool> forwardAll{false};
std::atomic<uint64_t> threadCount{0};

//===----------------------------------------------------------------------===//
// Messages and environment
//===----------------------------------------------------------------------===//

void tell(const std::string &line) {
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.messageMutex);
  if (g.told.insert(line).second)
    std::fprintf(stderr, "smc: %s\n", line.c_str());
}

// Once per kernel and text: "smc: kernel 'vecAdd': <what>".
void tellKernel(const KernelEntry &k, const std::string &what) {
  tell("kernel '" + k.source + "': " + what);
}

bool envFlag(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && std::strcmp(value, "0") != 0;
}

bool smcDisabled() {
  static const bool disabled = envFlag("SMC_DISABLE");
  return disabled;
}

// SMC_POLICY, parsed on first use.
struct EnvironmentPolicy {
  bool broken = false; // parse error: every kernel runs the original
  std::vector<PolicyRule> rules;
};

const EnvironmentPolicy &environmentPolicy() {
  static const EnvironmentPolicy *env = [] {
    auto *e = new EnvironmentPolicy;
    const char *text = std::getenv("SMC_POLICY");
    if (!text || text[std::strspn(text, " \t\r\n")] == '\0')
      return e;
    std::string error;
    if (!parsePolicyText(text, e->rules, error)) {
      e->broken = true;
      std::fprintf(stderr, "smc: %s; every kernel runs the original\n",
                   error.c_str());
    }
    return e;
  }();
  return *env;
}

//===----------------------------------------------------------------------===//
// CUDA helpers
//===----------------------------------------------------------------------===//

// Makes the runtime's own CUDA calls legal while some stream of the process
// is capturing (cudaStreamCaptureModeRelaxed for this thread), restoring
// the thread's mode afterwards.
class RelaxedCaptureMode {
public:
  RelaxedCaptureMode() {
    Saved = cudaStreamCaptureModeRelaxed;
    Active = cudaThreadExchangeStreamCaptureMode(&Saved) == cudaSuccess;
    if (!Active)
      cudaGetLastError();
  }
  ~RelaxedCaptureMode() {
    if (Active)
      cudaThreadExchangeStreamCaptureMode(&Saved);
  }
  RelaxedCaptureMode(const RelaxedCaptureMode &) = delete;
  RelaxedCaptureMode &operator=(const RelaxedCaptureMode &) = delete;

private:
  cudaStreamCaptureMode Saved;
  bool Active;
};

// A failed runtime call of ours must not become the program's last error.
std::string failed(const char *what, cudaError_t err) {
  cudaGetLastError();
  return std::string(what) + " failed: " + cudaGetErrorName(err);
}

// Device memory of `bytes`, filled from `host` or zeroed if host is null,
// through the device's own stream.  Null with `error` set on failure.
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

// A zeroed counter block no one else has.  Globals::mutex held.
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

// Globals::mutex held.  Null if the device cannot be used.
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

//===----------------------------------------------------------------------===//
// Kernels, policies and prepared launches (slow path, Globals::mutex held)
//===----------------------------------------------------------------------===//

bool samePolicy(const Policy &a, const Policy &b) {
  return a.variant == b.variant && a.workersPerSM == b.workersPerSM &&
         a.sms == b.sms && a.order == b.order && a.chunkToSM == b.chunkToSM &&
         a.sliceSize == b.sliceSize;
}

uint32_t internPolicy(const Policy &policy) {
  std::vector<Policy> &policies = globals().policies;
  for (size_t i = 0; i < policies.size(); ++i)
    if (samePolicy(policies[i], policy))
      return uint32_t(i);
  policies.push_back(policy);
  return uint32_t(policies.size() - 1);
}

Policy resolvePolicy(const KernelEntry &k) {
  Globals &g = globals();
  const EnvironmentPolicy &env = environmentPolicy();
  if (env.broken)
    return Policy::original();
  auto bySymbol = g.symbolPolicies.find(k.symbol);
  if (bySymbol != g.symbolPolicies.end())
    return bySymbol->second;
  if (const Policy *p = findPolicy(g.namePolicies, k.source, k.mangled))
    return *p;
  if (const Policy *p = findPolicy(env.rules, k.source, k.mangled))
    return *p;
  return Policy(); // SM-centric at the original's occupancy, every SM
}

// Reads <kernel>__smc_info and looks up the variants it promises.
void findVariants(KernelEntry &k, const driver::Api &api) {
  CUmodule module = nullptr;
  CUresult r = api.funcGetModule(&module, k.original);
  if (r != CUDA_SUCCESS) {
    k.infoProblem = "cannot find the kernel's module: " + driver::resultText(r);
    return;
  }
  CUdeviceptr infoAddress = 0;
  size_t infoBytes = 0;
  std::string infoName = k.mangled + SMC_SUFFIX_INFO;
  r = api.moduleGetGlobal(&infoAddress, &infoBytes, module, infoName.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) {
    k.infoProblem = "no " + infoName +
                    " record (the kernel was not compiled with the SMC "
                    "plugin, or the plugin did not select it)";
    return;
  }
  if (r != CUDA_SUCCESS) {
    k.infoProblem = "cannot read " + infoName + ": " + driver::resultText(r);
    return;
  }
  if (infoBytes < sizeof(SmcKernelInfo)) {
    k.infoProblem = infoName + " has " + std::to_string(infoBytes) +
                    " bytes, not " + std::to_string(sizeof(SmcKernelInfo));
    return;
  }
  cudaError_t err = cudaMemcpyAsync(
      &k.info, reinterpret_cast<void *>(infoAddress), sizeof(SmcKernelInfo),
      cudaMemcpyDeviceToHost, k.device->stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(k.device->stream);
  if (err != cudaSuccess) {
    k.infoProblem =
        "cannot read " + infoName + ": " + failed("cudaMemcpyAsync", err);
    return;
  }
  if (k.info.abi_version != SMC_ABI_VERSION) {
    k.infoProblem = "SMC ABI version mismatch: the kernel was built for "
                    "version " +
                    std::to_string(k.info.abi_version) +
                    ", this runtime is version " +
                    std::to_string(SMC_ABI_VERSION);
    return;
  }
  auto lookUp = [&](uint32_t flag, const char *suffix, CUfunction &fn,
                    std::string &problem) {
    if (!(k.info.flags & flag))
      return;
    std::string name = k.mangled + suffix;
    CUresult res = api.moduleGetFunction(&fn, module, name.c_str());
    if (res != CUDA_SUCCESS) {
      fn = nullptr;
      problem = "cannot find " + name +
                " in the kernel's module: " + driver::resultText(res);
    }
  };
  lookUp(SMC_INFO_HAS_SMC, SMC_SUFFIX_SMC, k.smc, k.smcProblem);
  lookUp(SMC_INFO_HAS_SLICE, SMC_SUFFIX_SLICE, k.slice, k.sliceProblem);
}

// The entry of a kernel on a device, created on first use.  Null when the
// symbol is not a kernel the runtime can see (the original launch then
// reports the error).
KernelEntry *kernelEntry(const void *symbol, DeviceState &dev,
                         const driver::Api &api) {
  Globals &g = globals();
  std::unique_ptr<KernelEntry> &slot = g.kernels[{symbol, dev.ordinal}];
  if (slot)
    return slot.get();

  cudaFunction_t function = nullptr;
  cudaError_t err = cudaGetFuncBySymbol(&function, symbol);
  if (err != cudaSuccess || !function) {
    if (err != cudaSuccess)
      cudaGetLastError();
    g.kernels.erase({symbol, dev.ordinal});
    return nullptr;
  }
  auto k = std::make_unique<KernelEntry>();
  k->symbol = symbol;
  k->device = &dev;
  k->original = reinterpret_cast<CUfunction>(function);
  const char *name = nullptr;
  CUresult r = api.funcGetName(&name, k->original);
  if (r != CUDA_SUCCESS || !name) {
    char address[32];
    std::snprintf(address, sizeof address, "%p", symbol);
    k->mangled = k->source = std::string("<kernel ") + address + ">";
    k->infoProblem = "cannot get the kernel's name: " + driver::resultText(r);
  } else {
    k->mangled = name;
    k->source = kernelSourceName(k->mangled);
    findVariants(*k, api);
  }
  slot = std::move(k);
  return slot.get();
}

// Gives the variant the original's dynamic shared memory limit (when the
// launch needs more than the default) and shared memory carveout.
bool matchAttributes(const KernelEntry &k, CUfunction variant, size_t sharedMem,
                     const driver::Api &api, std::string &error) {
  cudaFuncAttributes attrs;
  cudaError_t err = cudaFuncGetAttributes(&attrs, k.symbol);
  if (err != cudaSuccess) {
    error = failed("cudaFuncGetAttributes", err);
    return false;
  }
  if (sharedMem > kDefaultSharedLimit) {
    CUresult r = api.funcSetAttribute(
        variant, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        attrs.maxDynamicSharedSizeBytes);
    if (r != CUDA_SUCCESS) {
      error = "cannot give the variant " +
              std::to_string(attrs.maxDynamicSharedSizeBytes) +
              " bytes of dynamic shared memory: " + driver::resultText(r);
      return false;
    }
  }
  if (attrs.preferredShmemCarveout >= 0) {
    CUresult r = api.funcSetAttribute(
        variant, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
        attrs.preferredShmemCarveout);
    if (r != CUDA_SUCCESS) {
      error = "cannot set the variant's shared memory carveout: " +
              driver::resultText(r);
      return false;
    }
  }
  return true;
}

// Occupancy of the original and the __smc variant, cached per block size
// and shared memory.  False if the driver rejects the shape (the original
// launch then reports it).
bool occupancy(KernelEntry &k, dim3 block, size_t sharedMem,
               const driver::Api &api, Occupancy &out) {
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads == 0 || threads > INT_MAX)
    return false;
  auto key = std::make_pair(threads, sharedMem);
  auto it = k.occupancy.find(key);
  if (it != k.occupancy.end()) {
    out = it->second;
    return true;
  }
  Occupancy occ;
  if (api.occupancy(&occ.original, k.original, int(threads), sharedMem) !=
          CUDA_SUCCESS ||
      api.occupancy(&occ.variant, k.smc, int(threads), sharedMem) !=
          CUDA_SUCCESS)
    return false;
  k.occupancy[key] = occ;
  out = occ;
  return true;
}

// Uploads the plan's queue_start, queue_chunks and slot_target as one
// buffer and points the descriptor at it.
bool uploadTables(DeviceState &dev, const QueuePlan &plan, SmcDescriptor &desc,
                  std::string &error) {
  std::vector<uint32_t> host;
  host.reserve(plan.queueStart.size() + plan.queueChunks.size() +
               plan.slotTarget.size());
  host.insert(host.end(), plan.queueStart.begin(), plan.queueStart.end());
  host.insert(host.end(), plan.queueChunks.begin(), plan.queueChunks.end());
  host.insert(host.end(), plan.slotTarget.begin(), plan.slotTarget.end());
  uint32_t *tables =
      deviceBuffer(dev, host.data(), host.size() * sizeof(uint32_t), error);
  if (!tables)
    return false;
  desc.queue_start = tables;
  desc.queue_chunks = tables + plan.queueStart.size();
  desc.slot_target = tables + plan.queueStart.size() + plan.queueChunks.size();
  return true;
}

// Plans one configuration.  Null when the launch should just be forwarded
// without caching anything (the original launch will report the problem).
std::unique_ptr<Prepared> buildPrepared(KernelEntry &k, dim3 grid, dim3 block,
                                        size_t sharedMem,
                                        const driver::Api &api) {
  DeviceState &dev = *k.device;
  auto p = std::make_unique<Prepared>();
  p->kernel = &k;
  p->device = &dev;
  p->numParams = k.info.num_params;
  const Policy &policy = globals().policies[k.policyId];
  if (policy.variant == Variant::Original)
    return p;

  auto fallBack = [&](const std::string &reason) {
    p->reason = reason;
    tellKernel(k, "running the original: " + reason);
    return std::move(p);
  };
  if (!k.infoProblem.empty())
    return fallBack(k.infoProblem);
  // Shapes cudaLaunchKernel rejects: let the original launch say so.
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || sharedMem > UINT_MAX)
    return p;

  bool smCentric = policy.variant == Variant::SMCentric;
  const std::string &problem = smCentric ? k.smcProblem : k.sliceProblem;
  if (!problem.empty())
    return fallBack(problem);
  CUfunction variant = smCentric ? k.smc : k.slice;
  DeviceFacts facts;
  facts.numSMs = dev.numSMs;
  if (variant) {
    std::string error;
    if (!matchAttributes(k, variant, sharedMem, api, error))
      return fallBack(error);
    if (smCentric) {
      Occupancy occ;
      if (!occupancy(k, block, sharedMem, api, occ))
        return nullptr;
      // Not even the original fits (too many threads or too much shared
      // memory): its own launch reports the error.
      if (occ.original == 0)
        return p;
      facts.variantFitPerSM = unsigned(occ.variant);
      facts.originalOccupancy = unsigned(occ.original);
    }
  }

  QueuePlan plan;
  std::string reason;
  GridSize size;
  size.x = grid.x;
  size.y = grid.y;
  size.z = grid.z;
  if (!makeQueuePlan(policy, KernelFacts::fromInfo(k.info), facts, size, plan,
                     reason))
    return fallBack(reason);
  if (!plan.note.empty())
    tellKernel(k, plan.note);

  SmcDescriptor &d = p->desc;
  d.grid_x = grid.x;
  d.grid_y = grid.y;
  d.grid_z = grid.z;
  d.num_chunks = plan.numChunks;
  d.num_slots = dev.numSMs;
  if (plan.variant == Variant::SMCentric) {
    std::string error;
    if (!uploadTables(dev, plan, d, error))
      return fallBack("cannot upload its queue tables: " + error);
    d.mode = plan.mode;
    d.queue_stride = plan.queueStride;
    d.busy_queues = plan.busyQueues;
    d.ordered = plan.ordered ? 1u : 0u;
    p->mode = plan.mode;
    p->workers = plan.workers;
    p->target = plan.target;
  } else {
    p->sliceSize = plan.sliceSize;
    p->numSlices = plan.numSlices();
  }
  p->variant = plan.variant;
  p->function = variant;
  return p;
}

// The prepared launch of a configuration (slow path).  Null when the launch
// should be forwarded to the original uncached.
Prepared *prepare(const void *func, int device, dim3 grid, dim3 block,
                  size_t sharedMem) {
  std::string driverError;
  const driver::Api *api = driver::api(&driverError);
  if (!api) {
    tell("cannot use the CUDA driver API (" + driverError +
         "); every kernel runs the original");
    forwardAll.store(true, std::memory_order_relaxed);
    return nullptr;
  }
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  RelaxedCaptureMode relaxed;
  DeviceState *dev = deviceState(device);
  if (!dev)
    return nullptr;
  KernelEntry *k = kernelEntry(func, *dev, *api);
  if (!k)
    return nullptr;
  uint64_t epoch = policyEpoch.load(std::memory_order_acquire);
  if (k->policyEpoch != epoch) {
    k->policyId = internPolicy(resolvePolicy(*k));
    k->policyEpoch = epoch;
  }
  std::array<uint64_t, 8> key = {grid.x,  grid.y,  grid.z,    block.x,
                                 block.y, block.z, sharedMem, k->policyId};
  std::unique_ptr<Prepared> &slot = k->prepared[key];
  if (!slot) {
    slot = buildPrepared(*k, grid, block, sharedMem, *api);
    if (!slot) {
      k->prepared.erase(key);
      return nullptr;
    }
  }
  return slot.get();
}

//===----------------------------------------------------------------------===//
// Thread-local caches (fast path)
//===----------------------------------------------------------------------===//

struct PreparedSlot {
  const void *func;
  Prepared *prepared;
  uint64_t epoch;
  size_t sharedMem;
  int device;
  unsigned grid[3];
  unsigned block[3];
};
constexpr unsigned kPreparedSlots = 8;
thread_local PreparedSlot tlPrepared[kPreparedSlots];
thread_local unsigned tlPreparedNext;

Prepared *cachedPrepared(const void *func, int device, const dim3 &grid,
                         const dim3 &block, size_t sharedMem, uint64_t epoch) {
  for (const PreparedSlot &s : tlPrepared) {
    if (s.prepared && s.func == func && s.device == device &&
        s.epoch == epoch && s.sharedMem == sharedMem && s.grid[0] == grid.x &&
        s.grid[1] == grid.y && s.grid[2] == grid.z && s.block[0] == block.x &&
        s.block[1] == block.y && s.block[2] == block.z)
      return s.prepared;
  }
  return nullptr;
}

void cachePrepared(const void *func, int device, const dim3 &grid,
                   const dim3 &block, size_t sharedMem, uint64_t epoch,
                   Prepared *prepared) {
  PreparedSlot &s = tlPrepared[tlPreparedNext++ % kPreparedSlots];
  s = PreparedSlot{func,
                   prepared,
                   epoch,
                   sharedMem,
                   device,
                   {grid.x, grid.y, grid.z},
                   {block.x, block.y, block.z}};
}

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

// The counter block of a stream that is not capturing.  Null if the stream
// cannot be identified (`allocFailed` false: the launch itself will fail)
// or no block can be allocated (`allocFailed` true).
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

// A counter block for one launch into a capturing stream: never reused.
uint32_t *captureCounters(DeviceState &dev) {
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  RelaxedCaptureMode relaxed;
  return newCounterBlock(dev);
}

//===----------------------------------------------------------------------===//
// Launching
//===----------------------------------------------------------------------===//

cudaError_t launchOriginal(const void *func, dim3 grid, dim3 block, void **args,
                           size_t sharedMem, cudaStream_t stream, bool ptsz) {
  return ptsz
             ? cudaLaunchKernel_ptsz(func, grid, block, args, sharedMem, stream)
             : cudaLaunchKernel(func, grid, block, args, sharedMem, stream);
}

const char *variantName(Variant v) {
  switch (v) {
  case Variant::SMCentric:
    return "smc";
  case Variant::Slice:
    return "slice";
  case Variant::Original:
    break;
  }
  return "original";
}

stats::LaunchRecord baseRecord(const Prepared &p, dim3 grid, dim3 block,
                               size_t sharedMem) {
  stats::LaunchRecord r;
  r.kernel = p.kernel->source;
  r.mangled = p.kernel->mangled;
  r.device = p.device->ordinal;
  r.grid[0] = grid.x;
  r.grid[1] = grid.y;
  r.grid[2] = grid.z;
  r.block[0] = block.x;
  r.block[1] = block.y;
  r.block[2] = block.z;
  r.sharedMem = sharedMem;
  return r;
}

// Launches the original for a prepared launch and records it.
cudaError_t runOriginal(Prepared &p, const char *reason, const void *func,
                        dim3 grid, dim3 block, void **args, size_t sharedMem,
                        cudaStream_t stream, bool ptsz) {
  cudaError_t err =
      launchOriginal(func, grid, block, args, sharedMem, stream, ptsz);
  if (stats::enabled()) {
    stats::LaunchRecord r = baseRecord(p, grid, block, sharedMem);
    r.reason = reason;
    if (err != cudaSuccess)
      r.error = cudaGetErrorName(err);
    stats::record(r, p.device->name);
  }
  return err;
}

// Launches the prepared variant with `desc`.  For slices, `failedSlice` is
// the index of the slice whose launch failed.
CUresult launchVariant(const Prepared &p, SmcDescriptor &desc, dim3 block,
                       size_t sharedMem, cudaStream_t stream, void **args,
                       uint32_t &failedSlice) {
  const driver::Api &api = *driver::api();
  void *stackParams[kStackParams];
  std::unique_ptr<void *[]> heapParams;
  void **params = stackParams;
  if (p.numParams + 1 > kStackParams) {
    heapParams.reset(new void *[p.numParams + 1]);
    params = heapParams.get();
  }
  for (uint32_t i = 0; i < p.numParams; ++i)
    params[i] = args[i];
  params[p.numParams] = &desc;
  CUstream cuStream = reinterpret_cast<CUstream>(stream);
  unsigned shared = unsigned(sharedMem);

  if (p.variant == Variant::SMCentric)
    return api.launchKernel(p.function, p.workers, 1, 1, block.x, block.y,
                            block.z, shared, cuStream, params, nullptr);
  for (uint32_t i = 0; i < p.numSlices; ++i) {
    uint32_t offset = i * p.sliceSize;
    uint32_t count = std::min(p.sliceSize, desc.num_chunks - offset);
    desc.slice_offset = offset;
    CUresult r = api.launchKernel(p.function, count, 1, 1, block.x, block.y,
                                  block.z, shared, cuStream, params, nullptr);
    if (r != CUDA_SUCCESS) {
      failedSlice = i;
      return r;
    }
  }
  return CUDA_SUCCESS;
}

// After a variant launch failed: the original if nothing ran yet, an error
// if some slices already ran (running them again would break exactly-once).
cudaError_t afterVariantFailure(Prepared &p, CUresult result,
                                uint32_t failedSlice, const void *func,
                                dim3 grid, dim3 block, void **args,
                                size_t sharedMem, cudaStream_t stream,
                                bool ptsz) {
  std::string what = std::string("launching its ") + variantName(p.variant) +
                     " variant failed with " + driver::resultText(result);
  if (p.variant == Variant::Slice && failedSlice > 0) {
    tellKernel(*p.kernel, what + " at slice " + std::to_string(failedSlice) +
                              " of " + std::to_string(p.numSlices) +
                              "; the launch is incomplete");
    // Runtime and driver error codes share their values.
    return static_cast<cudaError_t>(result);
  }
  tellKernel(*p.kernel, what + "; running the original");
  cudaError_t err = runOriginal(p, "variant launch failed", func, grid, block,
                                args, sharedMem, stream, ptsz);
  if (err == cudaSuccess)
    p.variantFailed.store(true, std::memory_order_relaxed);
  return err;
}

// SMC_STATS: launch with a zeroed statistics block, wait for the launch and
// record what the variant counted.  Serializes launches.
cudaError_t launchWithStats(Prepared &p, SmcDescriptor &desc, bool capturing,
                            const void *func, dim3 grid, dim3 block,
                            void **args, size_t sharedMem, cudaStream_t stream,
                            bool ptsz) {
  Globals &g = globals();
  DeviceState &dev = *p.device;
  std::lock_guard<std::mutex> lock(g.statsMutex);
  RelaxedCaptureMode relaxed;
  stats::LaunchRecord r = baseRecord(p, grid, block, sharedMem);
  size_t statsBytes = SMC_STATS_WORDS(dev.numSMs) * sizeof(uint32_t);
  bool counting =
      p.variant == Variant::SMCentric && !capturing && dev.statsBlock;
  if (counting) {
    cudaError_t err =
        cudaMemsetAsync(dev.statsBlock, 0, statsBytes, dev.stream);
    if (err == cudaSuccess)
      err = cudaStreamSynchronize(dev.stream);
    if (err != cudaSuccess) {
      r.error = "statistics not collected: " +
                failed("zeroing the statistics block", err);
      counting = false;
    }
  }
  desc.stats = counting ? dev.statsBlock : nullptr;

  uint32_t failedSlice = 0;
  CUresult result =
      launchVariant(p, desc, block, sharedMem, stream, args, failedSlice);
  if (result != CUDA_SUCCESS)
    return afterVariantFailure(p, result, failedSlice, func, grid, block, args,
                               sharedMem, stream, ptsz);

  r.variant = variantName(p.variant);
  r.captured = capturing;
  if (p.variant == Variant::SMCentric) {
    r.mode = p.mode == SMC_MODE_ONE_CHUNK ? "one_chunk" : "loop";
    r.ordered = p.desc.ordered != 0;
    r.target = p.target;
    r.workers = p.workers;
    r.numSlots = dev.numSMs;
  } else {
    r.slices = p.numSlices;
    r.sliceSize = p.sliceSize;
  }
  if (counting) {
    r.counts.resize(SMC_STATS_WORDS(dev.numSMs));
    cudaError_t err = cudaStreamSynchronize(stream);
    if (err == cudaSuccess)
      err = cudaMemcpyAsync(r.counts.data(), dev.statsBlock, statsBytes,
                            cudaMemcpyDeviceToHost, dev.stream);
    if (err == cudaSuccess)
      err = cudaStreamSynchronize(dev.stream);
    if (err != cudaSuccess) {
      r.error = "statistics not collected: " +
                failed("reading the statistics block", err);
      r.counts.clear();
    }
  }
  stats::record(r, dev.name);
  return cudaSuccess;
}

// Launches a prepared SMCentric or Slice configuration.
cudaError_t launchPrepared(Prepared &p, const void *func, dim3 grid, dim3 block,
                           void **args, size_t sharedMem, cudaStream_t stream,
                           bool ptsz) {
  // The stream as the driver sees it: a null stream of the _ptsz entry is
  // the thread's per-thread stream, otherwise the legacy stream.
  cudaStream_t effective = stream;
  if (!effective)
    effective = ptsz ? cudaStreamPerThread : cudaStreamLegacy;

  bool withStats = stats::enabled();
  bool capturing = false;
  if (p.variant == Variant::SMCentric || withStats) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(effective, &status) != cudaSuccess) {
      cudaGetLastError();
      return launchOriginal(func, grid, block, args, sharedMem, stream, ptsz);
    }
    capturing = status != cudaStreamCaptureStatusNone;
  }

  SmcDescriptor desc = p.desc;
  if (p.variant == Variant::SMCentric) {
    bool allocFailed = false;
    uint32_t *counters =
        capturing ? captureCounters(*p.device)
                  : streamCounters(*p.device, effective, allocFailed);
    if (!counters) {
      if (capturing || allocFailed)
        return runOriginal(p, "no launch counters", func, grid, block, args,
                           sharedMem, stream, ptsz);
      return launchOriginal(func, grid, block, args, sharedMem, stream, ptsz);
    }
    uint32_t slots = p.device->numSMs;
    desc.worker_count = counters;
    desc.queue_next = counters + size_t(slots) * SMC_COUNTER_STRIDE;
    desc.launch_counters = counters + 2 * size_t(slots) * SMC_COUNTER_STRIDE;
  }

  if (withStats)
    return launchWithStats(p, desc, capturing, func, grid, block, args,
                           sharedMem, effective, ptsz);
  uint32_t failedSlice = 0;
  CUresult result =
      launchVariant(p, desc, block, sharedMem, effective, args, failedSlice);
  if (result == CUDA_SUCCESS)
    return cudaSuccess;
  return afterVariantFailure(p, result, failedSlice, func, grid, block, args,
                             sharedMem, stream, ptsz);
}

cudaError_t launch(const void *func, dim3 grid, dim3 block, void **args,
                   size_t sharedMem, cudaStream_t stream, bool ptsz) {
  // Reads SMC_STATS on the first launch, so that its file is written even
  // if no launch gets recorded.
  stats::enabled();
  if (smcDisabled() || forwardAll.load(std::memory_order_relaxed))
    return launchOriginal(func, grid, block, args, sharedMem, stream, ptsz);
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    // No usable device or driver: the original launch reports it.
    cudaGetLastError();
    return launchOriginal(func, grid, block, args, sharedMem, stream, ptsz);
  }
  uint64_t epoch = policyEpoch.load(std::memory_order_acquire);
  Prepared *p = cachedPrepared(func, device, grid, block, sharedMem, epoch);
  if (!p) {
    p = prepare(func, device, grid, block, sharedMem);
    if (!p)
      return launchOriginal(func, grid, block, args, sharedMem, stream, ptsz);
    cachePrepared(func, device, grid, block, sharedMem, epoch, p);
  }
  if (p->variant == Variant::Original)
    return runOriginal(*p, p->reason.c_str(), func, grid, block, args,
                       sharedMem, stream, ptsz);
  if (p->variantFailed.load(std::memory_order_relaxed))
    return runOriginal(*p, "variant launch failed", func, grid, block, args,
                       sharedMem, stream, ptsz);
  return launchPrepared(*p, func, grid, block, args, sharedMem, stream, ptsz);
}

void policiesChanged() { policyEpoch.fetch_add(1, std::memory_order_acq_rel); }

// cudaDeviceReset (the host rewrite redirects it here): the device's memory,
// modules and streams go with its context, so the runtime retires all it
// keeps for the device (tables, counter blocks, variants, prepared launches)
// and builds them again at the next launch.  Launches must not race with a
// reset, as CUDA itself requires.
cudaError_t deviceReset() {
  int device = -1;
  if (cudaGetDevice(&device) == cudaSuccess) {
    Globals &g = globals();
    std::lock_guard<std::mutex> lock(g.mutex);
    if (size_t(device) < g.devices.size() && g.devices[device])
      g.retiredDevices.push_back(std::move(g.devices[device]));
    for (auto it = g.kernels.begin(); it != g.kernels.end();) {
      if (it->first.second == device) {
        g.retiredKernels.push_back(std::move(it->second));
        it = g.kernels.erase(it);
      } else {
        ++it;
      }
    }
    policiesChanged(); // no thread-local prepared launch matches any more
  } else {
    cudaGetLastError();
  }
  return cudaDeviceReset();
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API (smc.h)
//===----------------------------------------------------------------------===//

void setPolicyForSymbol(const void *kernelSymbol, const Policy &policy) {
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.symbolPolicies[kernelSymbol] = policy;
  policiesChanged();
}

void setPolicy(const std::string &name, const Policy &policy) {
  Globals &g = globals();
  std::string normalized = normalizeKernelName(name);
  std::lock_guard<std::mutex> lock(g.mutex);
  g.namePolicies.push_back({normalized, policy});
  policiesChanged();
}

bool setPolicyText(const std::string &text, std::string *error) {
  std::vector<PolicyRule> rules;
  std::string message;
  if (!parsePolicyText(text, rules, message, "smc::setPolicyText")) {
    if (error)
      *error = message;
    return false;
  }
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.namePolicies.insert(g.namePolicies.end(), rules.begin(), rules.end());
  policiesChanged();
  return true;
}

void clearPolicies() {
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.symbolPolicies.clear();
  g.namePolicies.clear();
  policiesChanged();
}

} // namespace smc

//===----------------------------------------------------------------------===//
// Entry points the plugin's host launch rewrite calls
//===----------------------------------------------------------------------===//

extern "C" cudaError_t __smc_launch_kernel(const void *func, dim3 grid,
                                           dim3 block, void **args,
                                           size_t sharedMem,
                                           cudaStream_t stream) {
  return smc::launch(func, grid, block, args, sharedMem, stream,
                     /*ptsz=*/false);
}

extern "C" cudaError_t __smc_launch_kernel_ptsz(const void *func, dim3 grid,
                                                dim3 block, void **args,
                                                size_t sharedMem,
                                                cudaStream_t stream) {
  return smc::launch(func, grid, block, args, sharedMem, stream,
                     /*ptsz=*/true);
}

extern "C" cudaError_t __smc_device_reset() { return smc::deviceReset(); }
