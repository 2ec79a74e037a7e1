//===- Prepared.cpp - A configuration planned once, launched often --------===//
//
// prepare() plans a configuration under the registry lock and keeps it with
// its kernel; cachedPrepare() adds a thread-local cache of the last few, so
// that a launch of a cached configuration takes no lock (see Prepared.h).
// The policy's plan comes from makeQueuePlan (plan/QueuePlan.h); its queue
// tables are uploaded to the device once.  Whatever stops a variant from
// being planned makes the configuration run the original, and the user is
// told once why.
//===----------------------------------------------------------------------===//
#include "core/Prepared.h"

#include "base/Messages.h"
#include "core/Devices.h"
#include "core/Kernels.h"
#include "plan/MagicDivision.h"
#include "policy/Policies.h"

#include <climits>

namespace smc {
namespace {
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

// Why launch shape S of K cannot run K's __remap variant, or "" (the
// registry lock held).
std::string remapProblem(KernelEntry &K, const LaunchShape &S,
                         const driver::Api &Api) {
  if (!K.RemapProblem.empty())
    return K.RemapProblem;
  if (!(K.Info.flags & SMC_INFO_HAS_REMAP))
    return std::string("no __remap variant: ") +
           smcRefusalText(K.Info.remap_refusal);
  if (S.Grid.y != 1 || S.Grid.z != 1 || S.Block.y != 1 || S.Block.z != 1)
    return "remapping needs a 1-D grid and block, not a " +
           std::to_string(S.Grid.x) + "x" + std::to_string(S.Grid.y) + "x" +
           std::to_string(S.Grid.z) + " grid of " + std::to_string(S.Block.x) +
           "x" + std::to_string(S.Block.y) + "x" + std::to_string(S.Block.z) +
           " blocks";
  if (uint64_t(S.Grid.x) * S.Block.x > INT32_MAX)
    return "more than 2^31 - 1 threads to remap";
  std::string Error;
  if (!matchAttributes(K, K.Remap, S.SharedMem, Api, Error) ||
      !matchAttributes(K, K.RemapKeys, S.SharedMem, Api, Error))
    return Error;
  return "";
}

// Plans one configuration.  Null when the launch should just be forwarded
// without caching anything (the original launch will report the problem).
// The registry lock held.
std::unique_ptr<Prepared> buildPrepared(KernelEntry &K, uint32_t PolicyId,
                                        const LaunchShape &S,
                                        const driver::Api &Api) {
  DeviceState &Dev = *K.Device;
  auto P = std::make_unique<Prepared>();
  P->Kernel = &K;
  P->Device = &Dev;
  P->PolicyId = PolicyId;
  P->NumParams = K.Info.num_params;
  const Policy &Policy = policyById(PolicyId);
  P->P99Ratio = Policy.p99Ratio;
  P->P99Micros = Policy.p99Micros;
  P->Urgent = Policy.urgent || Policy.reserve || hasLatencyTarget(Policy);
  P->Reserve = Policy.reserve;
  P->Order = Policy.order;
  if (Policy.variant == Variant::Original)
    return P;
  // Decided per launch: by the co-run scheduler (corun/), or by placements
  // tried (locality/).
  if (Policy.variant == Variant::Auto || Policy.variant == Variant::Locality) {
    P->Variant = Policy.variant;
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

  if (Policy.variant == Variant::Remap) {
    std::string Problem = remapProblem(K, S, Api);
    if (!Problem.empty())
      return FallBack(Problem);
    CUresult Unused;
    if (!paramSizes(K.Remap, K.Info.num_params, Api, P->ParamSizes, Unused))
      return FallBack("cannot read the sizes of its parameters");
    P->Variant = Variant::Remap;
    P->Function = K.Remap;
    return P;
  }

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
  // The original gives what the policy asks (a grid of one wave, a variant
  // of one chunk per worker): SMC_STATS records why, nobody is warned.
  if (Plan.Variant == Variant::Original) {
    P->Reason = Plan.OriginalReason;
    return P;
  }

  SmcDescriptor &D = P->Desc;
  D.grid_x = S.Grid.x;
  D.grid_y = S.Grid.y;
  D.grid_z = S.Grid.z;
  setGridDivisors(D);
  D.num_chunks = Plan.NumChunks;
  D.num_slots = Dev.NumSMs;
  if (Plan.Variant == Variant::SMCentric) {
    // The plan's SMs (a target of at least one worker), when they are not
    // all of the device's: the launch is confined (ConfinedLaunches.h).
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

// The last configurations this thread prepared, by request and decision.
struct PreparedSlot {
  const void *Func;
  Prepared *Prepared;
  uint64_t Epoch;
  int Device;
  const std::vector<unsigned> *Sms;
  unsigned WorkersPerSM;
  LaunchShape Shape;
};
constexpr unsigned NumPreparedSlots = 8;
thread_local PreparedSlot TlPrepared[NumPreparedSlots];
thread_local unsigned TlPreparedNext;

} // namespace

Prepared *prepare(const LaunchRequest &Req, int Device,
                  const LaunchDecision &Decision) {
  std::string DriverError;
  const driver::Api *Api = driver::api(&DriverError);
  if (!Api) {
    tell("cannot use the CUDA driver API (" + DriverError +
         "); every kernel runs the original");
    forwardEverything();
    return nullptr;
  }
  Guard Lock(registryMutex());
  RelaxedCaptureMode Relaxed;
  DeviceState *Dev = deviceState(Device);
  if (!Dev)
    return nullptr;
  KernelEntry *K = kernelEntry(Req.Func, *Dev, *Api);
  if (!K)
    return nullptr;
  uint32_t PolicyId = Decision.Placement;
  if (PolicyId == KernelPolicy) {
    uint64_t Epoch = currentPolicyEpoch();
    if (K->PolicyEpoch != Epoch) {
      K->PolicyId = policyIdOf(K->Symbol, K->Source, K->Mangled);
      K->PolicyEpoch = Epoch;
    }
    PolicyId = K->PolicyId;
  }
  if (Decision.Sms)
    PolicyId = confinedPolicyId(PolicyId, *Decision.Sms, Decision.WorkersPerSM);
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

Prepared *cachedPrepare(const LaunchRequest &Req, int Device,
                        const LaunchDecision &Decision) {
  uint64_t Epoch = currentPolicyEpoch();
  for (const PreparedSlot &S : TlPrepared)
    if (S.Prepared && S.Func == Req.Func && S.Device == Device &&
        S.Epoch == Epoch && S.Sms == Decision.Sms &&
        S.WorkersPerSM == Decision.WorkersPerSM && S.Shape == Req.Shape)
      return S.Prepared;
  Prepared *P = prepare(Req, Device, Decision);
  if (P)
    TlPrepared[TlPreparedNext++ % NumPreparedSlots] = PreparedSlot{
        Req.Func, P, Epoch, Device, Decision.Sms, Decision.WorkersPerSM,
        Req.Shape};
  return P;
}

const char *variantName(Variant V) {
  // In Variant's order.
  static const char *const Names[] = {"original", "smc",      "slice",
                                      "auto",     "locality", "remap"};
  return Names[size_t(V)];
}

//===----------------------------------------------------------------------===//
// Launch (Launch.h)
//===----------------------------------------------------------------------===//

Prepared *Launch::prepared() {
  if (Stale) {
    P = prepare(Req, Device, Decision);
    Stale = false;
  }
  return P;
}

void Launch::placeUnder(uint32_t PolicyId) {
  Decision.Placement = PolicyId;
  Stale = true;
}

void Launch::confine(const std::vector<unsigned> *Sms, unsigned WorkersPerSM) {
  Decision.Sms = Sms;
  Decision.WorkersPerSM = WorkersPerSM;
  Stale = true;
}

void Launch::use(Prepared *Ready) {
  P = Ready;
  Stale = false;
}

Capture Launch::capture() {
  if (Captured == Capture::NotAsked) {
    cudaStreamCaptureStatus Status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(Stream, &Status) != cudaSuccess) {
      cudaGetLastError(); // the launch itself reports a bad stream
      Captured = Capture::Unknown;
    } else {
      Captured = Status == cudaStreamCaptureStatusNone ? Capture::None
                                                       : Capture::Active;
    }
  }
  return Captured;
}

} // namespace smc
