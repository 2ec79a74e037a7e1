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
#include "corun/AutoPolicy.h"
#include "core/HostEntries.h"
#include "partition/PartitionRules.h"
#include "plan/MagicDivision.h"
#include "core/RuntimeState.h"
#include "observe/Stats.h"

#include <climits>

namespace smc {
namespace {

// Kernel parameter arrays up to this size are built on the stack.
constexpr size_t MaxStackParams = 64;

// Uploads the plan's queue_start, queue_chunks and slot_target as one
// buffer, points the descriptor at it and drops the host copies.
bool uploadTables(DeviceState &Dev, QueuePlan &Plan, SmcDescriptor &Desc,
                  std::string &Error) {
  std::vector<uint32_t> Host;
  Host.reserve(Plan.QueueStart.size() + Plan.QueueChunks.size() +
               Plan.SlotTarget.size());
  Host.insert(Host.end(), Plan.QueueStart.begin(), Plan.QueueStart.end());
  Host.insert(Host.end(), Plan.QueueChunks.begin(), Plan.QueueChunks.end());
  Host.insert(Host.end(), Plan.SlotTarget.begin(), Plan.SlotTarget.end());
  uint32_t *Tables =
      deviceBuffer(Dev, Host.data(), Host.size() * sizeof(uint32_t), Error);
  if (!Tables)
    return false;
  Desc.queue_start = Tables;
  Desc.queue_chunks = Tables + Plan.QueueStart.size();
  Desc.slot_target = Tables + Plan.QueueStart.size() + Plan.QueueChunks.size();
  Plan.QueueStart = {};
  Plan.QueueChunks = {};
  Plan.SlotTarget = {};
  return true;
}

// Plans one configuration.  Null when the launch should just be forwarded
// without caching anything (the original launch will report the problem).
// Globals::Mutex held.
std::unique_ptr<Prepared> buildPrepared(KernelEntry &K, uint32_t PolicyId,
                                        const LaunchShape &S,
                                        const driver::Api &Api) {
  DeviceState &Dev = *K.Device;
  auto P = std::make_unique<Prepared>();
  P->Kernel = &K;
  P->Device = &Dev;
  P->NumParams = K.Info.num_params;
  const Policy &Policy = policyById(PolicyId);
  P->Urgent = Policy.urgent;
  P->Order = Policy.order;
  if (Policy.variant == Variant::Original)
    return P;
  if (Policy.variant == Variant::Auto) {
    // Decided per launch (AutoLaunch.cpp).
    const unsigned Grid[3] = {S.Grid.x, S.Grid.y, S.Grid.z};
    const unsigned Block[3] = {S.Block.x, S.Block.y, S.Block.z};
    P->Variant = Variant::Auto;
    P->AutoName = profileName(K.Source, Grid, Block);
    return P;
  }
  if (Policy.variant == Variant::Locality) {
    // Tried and chosen per launch (LocalityLaunch.cpp).
    P->Variant = Variant::Locality;
    return P;
  }

  auto FallBack = [&](const std::string &Reason) {
    P->Reason = Reason;
    tellKernel(K, "running the original: " + Reason);
    return std::move(P);
  };
  if (!K.InfoProblem.empty())
    return FallBack(K.InfoProblem);
  // Shapes cudaLaunchKernel rejects: let the original launch say so.
  if (S.Grid.x == 0 || S.Grid.y == 0 || S.Grid.z == 0 || S.SharedMem > UINT_MAX)
    return P;

  bool SmCentric = Policy.variant == Variant::SMCentric;
  const std::string &Problem = SmCentric ? K.SmcProblem : K.SliceProblem;
  if (!Problem.empty())
    return FallBack(Problem);
  CUfunction Variant = SmCentric ? K.Smc : K.Slice;
  DeviceFacts Facts;
  Facts.NumSMs = Dev.NumSMs;
  if (Variant) {
    std::string Error;
    if (!matchAttributes(K, Variant, S.SharedMem, Api, Error))
      return FallBack(Error);
    if (SmCentric) {
      Occupancy Occ;
      if (!occupancy(K, S.Block, S.SharedMem, Api, Occ))
        return nullptr;
      // Not even the original fits (too many threads or too much shared
      // memory): its own launch reports the error.
      if (Occ.Original == 0)
        return P;
      Facts.VariantFitPerSm = unsigned(Occ.Variant);
      Facts.OriginalOccupancy = unsigned(Occ.Original);
    }
  }

  QueuePlan &Plan = P->Plan;
  std::string Reason;
  GridSize Size;
  Size.X = S.Grid.x;
  Size.Y = S.Grid.y;
  Size.Z = S.Grid.z;
  if (!makeQueuePlan(Policy, KernelFacts::fromInfo(K.Info), Facts, Size, Plan,
                     Reason))
    return FallBack(Reason);
  if (!Plan.Note.empty())
    tellKernel(K, Plan.Note);

  SmcDescriptor &D = P->Desc;
  D.grid_x = S.Grid.x;
  D.grid_y = S.Grid.y;
  D.grid_z = S.Grid.z;
  setGridDivisors(D);
  D.num_chunks = Plan.NumChunks;
  D.num_slots = Dev.NumSMs;
  if (Plan.Variant == Variant::SMCentric) {
    // The plan's SMs (a target of at least one worker), when they are not
    // all of the device's: the launch is confined (ConfinedLaunches.cpp).
    if (Plan.Mode == SMC_MODE_LOOP) {
      for (uint32_t Sm = 0; Sm < Plan.NumSlots; ++Sm)
        if (Plan.SlotTarget[Sm] != 0)
          P->ConfinedSms.push_back(Sm);
      if (P->ConfinedSms.size() == Dev.NumSMs)
        P->ConfinedSms.clear();
    }
    std::string Error;
    if (!uploadTables(Dev, Plan, D, Error))
      return FallBack("cannot upload its queue tables: " + Error);
    D.mode = Plan.Mode;
    D.queue_stride = Plan.QueueStride;
    D.claim_batch = Plan.ClaimBatch;
    D.busy_queues = Plan.BusyQueues;
    D.ordered = Plan.Ordered ? 1u : 0u;
    CUresult Unused;
    if (Plan.Mode == SMC_MODE_LOOP &&
        !paramSizes(Variant, K.Info.num_params, Api, P->ParamSizes, Unused))
      P->ParamSizes.clear(); // no top-ups for this configuration
  }
  P->Variant = Plan.Variant;
  P->Function = Variant;
  return P;
}

} // namespace

Prepared *prepare(const LaunchRequest &Req, int Device) {
  std::string DriverError;
  const driver::Api *Api = driver::api(&DriverError);
  if (!Api) {
    tell("cannot use the CUDA driver API (" + DriverError +
         "); every kernel runs the original");
    ForwardAll.store(true, std::memory_order_relaxed);
    return nullptr;
  }
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  RelaxedCaptureMode Relaxed;
  DeviceState *Dev = deviceState(Device);
  if (!Dev)
    return nullptr;
  KernelEntry *K = kernelEntry(Req.Func, *Dev, *Api);
  if (!K)
    return nullptr;
  uint64_t Epoch = currentPolicyEpoch();
  if (K->PolicyEpoch != Epoch) {
    K->PolicyId = policyIdOf(*K);
    K->PolicyEpoch = Epoch;
  }
  uint32_t PolicyId = K->PolicyId;
  if (Req.ForcedPolicyId != NoForcedPolicy)
    PolicyId = Req.ForcedPolicyId;
  else if (Req.Partition)
    PolicyId = partitionedPolicyId(PolicyId, *Req.Partition);
  else if (Req.ConfinedSms)
    PolicyId =
        confinedPolicyId(PolicyId, *Req.ConfinedSms, Req.ConfinedWorkersPerSM);
  yieldIfAlwaysOn(*Dev);
  std::array<uint64_t, 8> Key = Req.Shape.key(PolicyId);
  std::unique_ptr<Prepared> &Slot = K->Prepared[Key];
  if (!Slot) {
    Slot = buildPrepared(*K, PolicyId, Req.Shape, *Api);
    if (!Slot) {
      K->Prepared.erase(Key);
      return nullptr;
    }
  }
  return Slot.get();
}

Prepared *prepareUnder(LaunchRequest Req, const Policy &Placement, int Device) {
  {
    std::lock_guard<std::mutex> Lock(globals().Mutex);
    Req.ForcedPolicyId = policyIdFor(Placement);
  }
  return prepare(Req, Device);
}

cudaError_t launchOriginal(const LaunchRequest &Req) {
  const LaunchShape &S = Req.Shape;
  return Req.Ptsz ? cudaLaunchKernel_ptsz(Req.Func, S.Grid, S.Block, Req.Args,
                                          S.SharedMem, Req.Stream)
                  : cudaLaunchKernel(Req.Func, S.Grid, S.Block, Req.Args,
                                     S.SharedMem, Req.Stream);
}

const char *variantName(Variant V) {
  switch (V) {
  case Variant::SMCentric:
    return "smc";
  case Variant::Slice:
    return "slice";
  case Variant::Auto:
    return "auto";
  case Variant::Locality:
    return "locality";
  case Variant::Original:
    break;
  }
  return "original";
}

cudaError_t runOriginal(Prepared &P, const char *Reason,
                        const LaunchRequest &Req) {
  cudaError_t Err = launchOriginal(Req);
  if (stats::enabled())
    recordOriginal(P, Req, Reason, Err);
  return Err;
}

CUresult launchVariant(const Prepared &P, SmcDescriptor &Desc,
                       const LaunchRequest &Req, cudaStream_t Stream,
                       bool Capturing, uint32_t &FailedSlice) {
  const driver::Api &Api = *driver::api();
  void *StackParams[MaxStackParams];
  std::unique_ptr<void *[]> HeapParams;
  void **Params = StackParams;
  if (P.NumParams + 1 > MaxStackParams) {
    HeapParams.reset(new void *[P.NumParams + 1]);
    Params = HeapParams.get();
  }
  for (uint32_t I = 0; I < P.NumParams; ++I)
    Params[I] = Req.Args[I];
  Params[P.NumParams] = &Desc;
  CUstream CuStream = reinterpret_cast<CUstream>(Stream);
  const dim3 &Block = Req.Shape.Block;
  unsigned Shared = unsigned(Req.Shape.SharedMem);

  const QueuePlan &Plan = P.Plan;
  if (P.Variant == Variant::SMCentric) {
    uint32_t Workers = Plan.Workers;
    // An urgent launch's SMs are the only ones yielding launches leave it.
    if (Req.Urgent && Req.ConfinedSms && Plan.Mode == SMC_MODE_LOOP)
      Workers = confinedWorkers(Plan.Workers / Plan.NumSlots,
                                uint32_t(Req.ConfinedSms->size()), 0);
    else if (!P.ConfinedSms.empty() && !Capturing)
      Workers = confinedLaunchGrid(P, Stream);
    return Api.LaunchKernel(P.Function, Workers, 1, 1, Block.x, Block.y,
                            Block.z, Shared, CuStream, Params, nullptr);
  }
  for (uint32_t I = 0, N = Plan.numSlices(); I < N; ++I) {
    SliceLaunch Slice = Plan.sliceLaunch(I);
    Desc.slice_offset = Slice.Offset;
    Desc.slice_first_y = Slice.FirstY;
    Desc.slice_first_z = Slice.FirstZ;
    CUresult R =
        Api.LaunchKernel(P.Function, Slice.X, Slice.Y, Slice.Z, Block.x,
                         Block.y, Block.z, Shared, CuStream, Params, nullptr);
    if (R != CUDA_SUCCESS) {
      FailedSlice = I;
      return R;
    }
  }
  return CUDA_SUCCESS;
}

cudaError_t afterVariantFailure(Prepared &P, CUresult Result,
                                uint32_t FailedSlice,
                                const LaunchRequest &Req) {
  std::string What = std::string("launching its ") + variantName(P.Variant) +
                     " variant failed with " + driver::resultText(Result);
  if (P.Variant == Variant::Slice && FailedSlice > 0) {
    tellKernel(*P.Kernel, What + " at slice " + std::to_string(FailedSlice) +
                              " of " + std::to_string(P.Plan.numSlices()) +
                              "; the launch is incomplete");
    // Runtime and driver error codes share their values.
    return static_cast<cudaError_t>(Result);
  }
  tellKernel(*P.Kernel, What + "; running the original");
  cudaError_t Err = runOriginal(P, "variant launch failed", Req);
  if (Err == cudaSuccess)
    P.VariantFailed.store(true, std::memory_order_relaxed);
  return Err;
}

cudaError_t launchPrepared(Prepared &P, const LaunchRequest &Req) {
  cudaStream_t Effective = Req.effectiveStream();

  bool WithStats = stats::enabled();
  bool Capturing = false;
  if (P.Variant == Variant::SMCentric || WithStats) {
    cudaStreamCaptureStatus Status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(Effective, &Status) != cudaSuccess) {
      cudaGetLastError();
      return launchOriginal(Req);
    }
    Capturing = Status != cudaStreamCaptureStatusNone;
  }

  SmcDescriptor Desc = P.Desc;
  bool Yielding = false;
  if (P.Variant == Variant::SMCentric) {
    bool AllocFailed = false;
    uint32_t *Counters =
        Capturing ? captureCounters(*P.Device)
                  : streamCounters(*P.Device, Effective, AllocFailed);
    if (!Counters) {
      if (Capturing || AllocFailed)
        return runOriginal(P, "no launch counters", Req);
      return launchOriginal(Req);
    }
    useCounterBlock(Desc, Counters, P.Device->NumSMs);
    if (Req.Partition) {
      Desc.live_target = Req.Partition->LiveTarget;
      // Workers decide on leaving at batch ends only: one chunk per claim,
      // so that a partition takes effect at the next chunk boundary (with
      // batches of five 100 us chunks an urgent kernel waited 0.67 ms for
      // its SMs instead of 0.14).
      Desc.claim_batch = 1;
      // A tag lets a top-up grid join the launch when the partition grows
      // while it runs (not for SMC_STATS's synchronous launches).
      if (!Capturing && !WithStats && P.Plan.Mode == SMC_MODE_LOOP)
        Desc.launch_tag = nextLaunchTag();
    } else if (!Capturing && !WithStats && yields(P, Req)) {
      // The same for a best-effort launch that yields SMs to urgent ones,
      // whose live targets are the device's table of yielded SMs; and no
      // claim ahead, so that a worker leaves right after its chunk.
      Desc.live_target = P.Device->YieldTargets;
      Desc.claim_batch = 0;
      Desc.launch_tag = nextLaunchTag();
      Yielding = true;
    }
  }

  if (P.Variant == Variant::SMCentric && !Capturing && traceEnabled())
    traceLaunch(P, Desc);

  cudaError_t Err;
  if (WithStats) {
    Err = launchWithStats(P, Desc, Capturing, Req, Effective);
  } else {
    uint32_t FailedSlice = 0;
    CUresult Result =
        launchVariant(P, Desc, Req, Effective, Capturing, FailedSlice);
    Err = Result == CUDA_SUCCESS
              ? cudaSuccess
              : afterVariantFailure(P, Result, FailedSlice, Req);
  }
  // Confined loop-mode launches hold their SMs while they run; one on a
  // partitioned stream holds its partition's (partitionLaunched).
  bool HoldsSms = P.Variant == Variant::SMCentric &&
                  P.Plan.Mode == SMC_MODE_LOOP && !Capturing &&
                  Err == cudaSuccess;
  if (HoldsSms && !Req.Partition && !P.ConfinedSms.empty())
    confinedLaunched(*P.Device, Effective, P.ConfinedSms);
  if (Req.Partition && !Capturing && Err == cudaSuccess)
    partitionLaunched(*Req.Partition, Effective, *P.Device, HoldsSms,
                      Desc.launch_tag ? &P : nullptr, Desc, Req);
  if (Yielding && Err == cudaSuccess)
    yieldingLaunched(P, Effective, Desc, Req);
  return Err;
}

cudaError_t dispatchPrepared(Prepared &P, const LaunchRequest &Req) {
  if (P.Variant == Variant::Original)
    return runOriginal(P, P.Reason.c_str(), Req);
  if (P.VariantFailed.load(std::memory_order_relaxed))
    return runOriginal(P, "variant launch failed", Req);
  return launchPrepared(P, Req);
}

} // namespace smc
