//===- PreparedLaunch.cpp - Plan a configuration once, launch it often ----===//
//
// prepare() turns (kernel, device, launch shape, policy) into a Prepared
// launch once: the policy and the kernel's facts go to makeQueuePlan
// (QueuePlan.cpp), whose queue tables are uploaded to the device.
// launchPrepared() then launches it: the __smc variant as plan.workers
// workers with the stream's (or the capture's) counter block in its
// descriptor, or the __slice variant as the plan's slices.  Whatever stops
// a variant before it runs sends the launch to the original kernel, and the
// user is told once why.
//===----------------------------------------------------------------------===//
#include "HostEntries.h"
#include "RuntimeState.h"
#include "Stats.h"

#include <climits>

namespace smc {
namespace {

// Kernel parameter arrays up to this size are built on the stack.
constexpr size_t kStackParams = 64;

// Uploads the plan's queue_start, queue_chunks and slot_target as one
// buffer, points the descriptor at it and drops the host copies.
bool uploadTables(DeviceState &dev, QueuePlan &plan, SmcDescriptor &desc,
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
  plan.queueStart = {};
  plan.queueChunks = {};
  plan.slotTarget = {};
  return true;
}

// Plans one configuration.  Null when the launch should just be forwarded
// without caching anything (the original launch will report the problem).
// Globals::mutex held.
std::unique_ptr<Prepared> buildPrepared(KernelEntry &k, const LaunchShape &s,
                                        const driver::Api &api) {
  DeviceState &dev = *k.device;
  auto p = std::make_unique<Prepared>();
  p->kernel = &k;
  p->device = &dev;
  p->numParams = k.info.num_params;
  const Policy &policy = policyById(k.policyId);
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
  if (s.grid.x == 0 || s.grid.y == 0 || s.grid.z == 0 || s.sharedMem > UINT_MAX)
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
    if (!matchAttributes(k, variant, s.sharedMem, api, error))
      return fallBack(error);
    if (smCentric) {
      Occupancy occ;
      if (!occupancy(k, s.block, s.sharedMem, api, occ))
        return nullptr;
      // Not even the original fits (too many threads or too much shared
      // memory): its own launch reports the error.
      if (occ.original == 0)
        return p;
      facts.variantFitPerSM = unsigned(occ.variant);
      facts.originalOccupancy = unsigned(occ.original);
    }
  }

  QueuePlan &plan = p->plan;
  std::string reason;
  GridSize size;
  size.x = s.grid.x;
  size.y = s.grid.y;
  size.z = s.grid.z;
  if (!makeQueuePlan(policy, KernelFacts::fromInfo(k.info), facts, size, plan,
                     reason))
    return fallBack(reason);
  if (!plan.note.empty())
    tellKernel(k, plan.note);

  SmcDescriptor &d = p->desc;
  d.grid_x = s.grid.x;
  d.grid_y = s.grid.y;
  d.grid_z = s.grid.z;
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
  }
  p->variant = plan.variant;
  p->function = variant;
  return p;
}

} // namespace

Prepared *prepare(const LaunchRequest &req, int device) {
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
  KernelEntry *k = kernelEntry(req.func, *dev, *api);
  if (!k)
    return nullptr;
  uint64_t epoch = currentPolicyEpoch();
  if (k->policyEpoch != epoch) {
    k->policyId = policyIdOf(*k);
    k->policyEpoch = epoch;
  }
  std::array<uint64_t, 8> key = req.shape.key(k->policyId);
  std::unique_ptr<Prepared> &slot = k->prepared[key];
  if (!slot) {
    slot = buildPrepared(*k, req.shape, *api);
    if (!slot) {
      k->prepared.erase(key);
      return nullptr;
    }
  }
  return slot.get();
}

cudaError_t launchOriginal(const LaunchRequest &req) {
  const LaunchShape &s = req.shape;
  return req.ptsz ? cudaLaunchKernel_ptsz(req.func, s.grid, s.block, req.args,
                                          s.sharedMem, req.stream)
                  : cudaLaunchKernel(req.func, s.grid, s.block, req.args,
                                     s.sharedMem, req.stream);
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

cudaError_t runOriginal(Prepared &p, const char *reason,
                        const LaunchRequest &req) {
  cudaError_t err = launchOriginal(req);
  if (stats::enabled())
    recordOriginal(p, req, reason, err);
  return err;
}

CUresult launchVariant(const Prepared &p, SmcDescriptor &desc,
                       const LaunchRequest &req, cudaStream_t stream,
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
    params[i] = req.args[i];
  params[p.numParams] = &desc;
  CUstream cuStream = reinterpret_cast<CUstream>(stream);
  const dim3 &block = req.shape.block;
  unsigned shared = unsigned(req.shape.sharedMem);

  const QueuePlan &plan = p.plan;
  if (p.variant == Variant::SMCentric)
    return api.launchKernel(p.function, plan.workers, 1, 1, block.x, block.y,
                            block.z, shared, cuStream, params, nullptr);
  for (uint32_t i = 0, n = plan.numSlices(); i < n; ++i) {
    desc.slice_offset = plan.sliceOffset(i);
    CUresult r =
        api.launchKernel(p.function, plan.sliceCount(i), 1, 1, block.x, block.y,
                         block.z, shared, cuStream, params, nullptr);
    if (r != CUDA_SUCCESS) {
      failedSlice = i;
      return r;
    }
  }
  return CUDA_SUCCESS;
}

cudaError_t afterVariantFailure(Prepared &p, CUresult result,
                                uint32_t failedSlice,
                                const LaunchRequest &req) {
  std::string what = std::string("launching its ") + variantName(p.variant) +
                     " variant failed with " + driver::resultText(result);
  if (p.variant == Variant::Slice && failedSlice > 0) {
    tellKernel(*p.kernel, what + " at slice " + std::to_string(failedSlice) +
                              " of " + std::to_string(p.plan.numSlices()) +
                              "; the launch is incomplete");
    // Runtime and driver error codes share their values.
    return static_cast<cudaError_t>(result);
  }
  tellKernel(*p.kernel, what + "; running the original");
  cudaError_t err = runOriginal(p, "variant launch failed", req);
  if (err == cudaSuccess)
    p.variantFailed.store(true, std::memory_order_relaxed);
  return err;
}

cudaError_t launchPrepared(Prepared &p, const LaunchRequest &req) {
  // The stream as the driver sees it: a null stream of the _ptsz entry is
  // the thread's per-thread stream, otherwise the legacy stream.
  cudaStream_t effective = req.stream;
  if (!effective)
    effective = req.ptsz ? cudaStreamPerThread : cudaStreamLegacy;

  bool withStats = stats::enabled();
  bool capturing = false;
  if (p.variant == Variant::SMCentric || withStats) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(effective, &status) != cudaSuccess) {
      cudaGetLastError();
      return launchOriginal(req);
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
        return runOriginal(p, "no launch counters", req);
      return launchOriginal(req);
    }
    useCounterBlock(desc, counters, p.device->numSMs);
  }

  if (withStats)
    return launchWithStats(p, desc, capturing, req, effective);
  uint32_t failedSlice = 0;
  CUresult result = launchVariant(p, desc, req, effective, failedSlice);
  if (result == CUDA_SUCCESS)
    return cudaSuccess;
  return afterVariantFailure(p, result, failedSlice, req);
}

} // namespace smc
