//===- Execute.cpp - Carrying out a launch's decision ---------------------===//
//
// See Execute.h.  The variant's path, in order: is the stream capturing
// (asked only where it matters: SM-centric launches and SMC_STATS), its
// counter block, the decision's live targets, claim batch and tag, the
// trace, the worker grid (a confined launch's is sized by
// ConfinedLaunches.h), then the launch, counted under SMC_STATS.
//===----------------------------------------------------------------------===//
#include "core/Execute.h"

#include "base/Driver.h"
#include "core/ConfinedLaunches.h"
#include "core/Devices.h"
#include "core/HostEntries.h"
#include "core/Kernels.h"
#include "core/Prepared.h"
#include "observe/Counts.h"
#include "observe/Stats.h"
#include "observe/TraceLaunch.h"
#include "policy/Policies.h"

#include <memory>

namespace smc {
namespace {

// Kernel parameter arrays up to this size are built on the stack.
constexpr size_t MaxStackParams = 64;

// Launch tags handed out (SmcDescriptor::launch_tag).
std::atomic<uint32_t> LaunchTags{0};
// Tags are 1 to 2^23 - 1: the JOIN word has 23 bits for them, 0 is none.
constexpr uint32_t NumLaunchTags = (1u << 23) - 1u;

uint32_t nextLaunchTag() {
  return LaunchTags.fetch_add(1, std::memory_order_relaxed) % NumLaunchTags +
         1u;
}

// What SMC_STATS records of every launch of `L`.
stats::LaunchRecord baseRecord(const Launch &L) {
  const Prepared &P = *L.current();
  const LaunchShape &S = L.Req.Shape;
  stats::LaunchRecord R;
  if (L.Decision.CoRunNote)
    R.Auto = *L.Decision.CoRunNote;
  if (L.Decision.LocalityNote)
    R.LocalityChoice = *L.Decision.LocalityNote;
  if (L.Decision.RemapNote)
    R.Remap = *L.Decision.RemapNote;
  R.Kernel = P.Kernel->Source;
  R.Mangled = P.Kernel->Mangled;
  if (P.Kernel->InfoProblem.empty())
    R.Locality = smcLocalityText(P.Kernel->Info.locality);
  R.Device = P.Device->Ordinal;
  R.Grid[0] = S.Grid.x;
  R.Grid[1] = S.Grid.y;
  R.Grid[2] = S.Grid.z;
  R.Block[0] = S.Block.x;
  R.Block[1] = S.Block.y;
  R.Block[2] = S.Block.z;
  R.SharedMem = S.SharedMem;
  return R;
}

// Launches the prepared variant with `Desc` on `L.Stream`: `Workers` workers
// (SM-centric) or the plan's slices.  For slices, `FailedSlice` is the
// index of the slice whose launch failed.
CUresult launchVariant(const Launch &L, SmcDescriptor &Desc, uint32_t Workers,
                       uint32_t &FailedSlice) {
  const Prepared &P = *L.current();
  const driver::Api &Api = *driver::api();
  void *StackParams[MaxStackParams];
  std::unique_ptr<void *[]> HeapParams;
  void **Params = StackParams;
  if (P.NumParams + 1 > MaxStackParams) {
    HeapParams.reset(new void *[P.NumParams + 1]);
    Params = HeapParams.get();
  }
  for (uint32_t I = 0; I < P.NumParams; ++I)
    Params[I] = L.Req.Args[I];
  Params[P.NumParams] = &Desc;
  CUstream CuStream = reinterpret_cast<CUstream>(L.Stream);
  const dim3 &Block = L.Req.Shape.Block;
  unsigned Shared = unsigned(L.Req.Shape.SharedMem);

  if (P.Variant == Variant::SMCentric)
    return Api.LaunchKernel(P.Function, Workers, 1, 1, Block.x, Block.y,
                            Block.z, Shared, CuStream, Params, nullptr);
  if (P.Variant == Variant::Remap) {
    const dim3 &Grid = L.Req.Shape.Grid;
    return Api.LaunchKernel(P.Function, Grid.x, Grid.y, Grid.z, Block.x,
                            Block.y, Block.z, Shared, CuStream, Params,
                            nullptr);
  }
  const QueuePlan &Plan = P.Plan;
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

// After a variant launch failed: the original if nothing ran yet, an error
// if some slices already ran (running them again would break exactly-once).
cudaError_t afterVariantFailure(Launch &L, CUresult Result,
                                uint32_t FailedSlice) {
  Prepared &P = *L.current();
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
  cudaError_t Err = runOriginal(L, "variant launch failed");
  if (Err == cudaSuccess)
    P.VariantFailed.store(true, std::memory_order_relaxed);
  return Err;
}

// The variant launch of `L` with `Desc`, counted: the device's statistics
// block in the descriptor, waited for and read back (SMC_STATS).
cudaError_t launchCounted(Launch &L, SmcDescriptor &Desc, uint32_t Workers,
                          bool Capturing) {
  Prepared &P = *L.current();
  DeviceState &Dev = *P.Device;
  stats::LaunchRecord R = baseRecord(L);
  bool Count = P.Variant == Variant::SMCentric && !Capturing;
  stats::CountedLaunch Counted(R, Dev.Ordinal, Dev.NumSMs, Dev.Stream, Count);
  Desc.stats = Counted.block();

  uint32_t FailedSlice = 0;
  CUresult Result = launchVariant(L, Desc, Workers, FailedSlice);
  if (Result != CUDA_SUCCESS)
    return afterVariantFailure(L, Result, FailedSlice);
  L.RanVariant = true;

  const QueuePlan &Plan = P.Plan;
  R.Variant = variantName(P.Variant);
  R.Captured = Capturing;
  if (P.Variant == Variant::SMCentric) {
    R.Mode = Plan.Mode == SMC_MODE_ONE_CHUNK ? "one_chunk" : "loop";
    R.Order = chunkOrderName(P.Order);
    R.Ordered = Plan.Ordered;
    R.Target = Plan.Target;
    R.ClaimBatch = Desc.claim_batch;
    R.Workers = Plan.Workers;
    R.NumSlots = Dev.NumSMs;
  } else if (P.Variant == Variant::Slice) {
    R.Slices = Plan.numSlices();
    R.SliceSize = Plan.SliceSize;
  }
  Counted.finish(L.Stream, Dev.Name);
  return cudaSuccess;
}

// The variant's path (see the file comment).
cudaError_t launchPrepared(Launch &L) {
  Prepared &P = *L.current();
  const LaunchDecision &D = L.Decision;
  L.TriedVariant = true;
  bool SmCentric = P.Variant == Variant::SMCentric;
  bool WithStats = stats::enabled();
  bool Capturing = false;
  if (SmCentric || WithStats) {
    Capture C = L.capture();
    if (C == Capture::Unknown)
      return launchOriginal(L.Req);
    Capturing = C == Capture::Active;
  }

  SmcDescriptor Desc = P.Desc;
  uint32_t Workers = P.Plan.Workers;
  if (P.Variant == Variant::Remap) {
    if (!D.RemapTable)
      return runOriginal(L, "no remap table");
    Desc.remap_count = D.RemapCount;
    Desc.remap_table = const_cast<uint32_t *>(D.RemapTable);
  }
  if (SmCentric) {
    bool AllocFailed = false;
    uint32_t *Counters = Capturing
                             ? captureCounters(*P.Device)
                             : streamCounters(*P.Device, L.Stream, AllocFailed);
    if (!Counters) {
      if (Capturing || AllocFailed)
        return runOriginal(L, "no launch counters");
      return launchOriginal(L.Req);
    }
    useCounterBlock(Desc, Counters, P.Device->NumSMs);
    if (D.LiveTarget)
      Desc.live_target = D.LiveTarget;
    if (D.ClaimBatch >= 0)
      Desc.claim_batch = uint32_t(D.ClaimBatch);
    // A tag lets a top-up grid join the launch while it runs: only loop
    // mode, and not SMC_STATS's synchronous launches nor a captured one.
    if (D.Tagged && !Capturing && !WithStats && P.loopWorkers())
      Desc.launch_tag = nextLaunchTag();
    if (!Capturing && trace::enabled()) {
      if (!(P.Kernel->Info.flags & SMC_INFO_TRACED))
        tellKernel(*P.Kernel, "SMC_TRACE: not traced: its __smc variant was "
                              "built without -mllvm -smc-trace");
      else
        trace::traceLaunch(P.Device->Ordinal, P.Kernel->Source, Desc);
    }
    if (D.Workers)
      Workers = D.Workers;
    else if (!P.ConfinedSms.empty() && !Capturing)
      Workers = confinedLaunchGrid(P, L.Stream);
  }

  cudaError_t Err;
  if (WithStats) {
    Err = launchCounted(L, Desc, Workers, Capturing);
  } else {
    uint32_t FailedSlice = 0;
    CUresult Result = launchVariant(L, Desc, Workers, FailedSlice);
    L.RanVariant = Result == CUDA_SUCCESS;
    Err = L.RanVariant ? cudaSuccess
                       : afterVariantFailure(L, Result, FailedSlice);
  }
  L.Desc = Desc;
  L.RanWorkers = P.loopWorkers() && !Capturing && L.RanVariant;
  // Confined loop-mode launches hold their SMs while they run (one on a
  // partitioned stream: the partition records its SMs, partition/).
  if (L.RanWorkers && !D.Partitioned && !P.ConfinedSms.empty())
    confinedLaunched(*P.Device, L.Stream, P.ConfinedSms);
  return Err;
}

} // namespace

cudaError_t launchOriginal(const LaunchRequest &Req) {
  const LaunchShape &S = Req.Shape;
  return Req.Ptsz ? cudaLaunchKernel_ptsz(Req.Func, S.Grid, S.Block, Req.Args,
                                          S.SharedMem, Req.Stream)
                  : cudaLaunchKernel(Req.Func, S.Grid, S.Block, Req.Args,
                                     S.SharedMem, Req.Stream);
}

cudaError_t runOriginal(Launch &L, const char *Reason) {
  cudaError_t Err = cudaErrorInvalidValue;
  if (L.Decision.SharedMem > L.Req.Shape.SharedMem) {
    LaunchRequest More = L.Req;
    More.Shape.SharedMem = L.Decision.SharedMem;
    Err = launchOriginal(More);
    if (Err != cudaSuccess && L.current()) { // as the program made it, then
      cudaGetLastError();
      tellKernel(*L.current()->Kernel,
                 "a launch with " + std::to_string(L.Decision.SharedMem) +
                     " bytes of shared memory per CTA failed (" +
                     cudaGetErrorName(Err) + "); it runs as requested");
    }
  }
  if (Err != cudaSuccess)
    Err = launchOriginal(L.Req);
  if (stats::enabled() && L.current()) {
    stats::LaunchRecord R = baseRecord(L);
    R.Reason = Reason;
    if (Err != cudaSuccess)
      R.Error = cudaGetErrorName(Err);
    stats::record(R, L.current()->Device->Name);
  }
  return Err;
}

cudaError_t execute(Launch &L) {
  Prepared *P = L.current();
  if (!P)
    return launchOriginal(L.Req);
  if (L.Decision.Original)
    return runOriginal(L, L.Decision.OriginalReason);
  if (P->Variant == Variant::Original)
    return runOriginal(L, P->Reason.c_str());
  if (P->VariantFailed.load(std::memory_order_relaxed))
    return runOriginal(L, "variant launch failed");
  if (P->Variant != Variant::SMCentric && P->Variant != Variant::Slice &&
      P->Variant != Variant::Remap)
    return runOriginal(L, ""); // auto or locality left undecided
  return launchPrepared(L);
}

cudaError_t launchUnder(const LaunchRequest &Req, int Device,
                        const Policy &Placement) {
  Launch L(Req, Device);
  L.placeUnder(policyIdFor(Placement));
  if (!L.prepared())
    return launchOriginal(Req);
  return execute(L);
}

} // namespace smc
