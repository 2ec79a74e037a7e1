//===- LaunchRuns.cpp - What a batch's runs are made of, and launching one ===//
//
// When a batch runs, gatherFacts() prepares each recorded launch's __slice
// variant and collects what a plan needs to know of it; launchRun()
// launches one slice run on a lane: a memset or copy as recorded, workers
// through the executor (core/Execute.h), the original, or slices of the
// __slice variant.
//===----------------------------------------------------------------------===//
#include "batch/RecordedLaunches.h"

#include "base/Cuda.h"
#include "base/Driver.h"
#include "base/Locks.h"
#include "base/Messages.h"
#include "core/Devices.h"
#include "core/Execute.h"
#include "core/Kernels.h"
#include "core/Prepared.h"
#include "corun/AutoPolicy.h"
#include "measure/Profiles.h"
#include "policy/Config.h"
#include "policy/Policies.h"

#include <map>

namespace smc {

//===----------------------------------------------------------------------===//
// What the runtime knows of the recorded launches
//===----------------------------------------------------------------------===//

bool gatherFacts(const std::vector<RecordedLaunch> &Launches, Facts &F,
                 std::string &Error, const std::string &Who) {
  const driver::Api *Api = driver::api(&Error);
  if (!Api)
    return false;
  ProfileSet Profiles = loadedProfiles();
  std::map<cudaStream_t, unsigned> StreamIndex;
  for (size_t I = 0; I < Launches.size(); ++I) {
    const RecordedLaunch &L = Launches[I];
    if (L.Device != Launches[0].Device) {
      Error = "a batch runs on one device; launch " + std::to_string(I) +
              " was recorded on another";
      return false;
    }
    if (L.ctas() > UINT32_MAX) {
      Error = "launch " + std::to_string(I) + " has more than 2^32-1 CTAs";
      return false;
    }
    batch::PendingLaunch Pending;
    batch::KernelTraits &T = Pending.Traits;
    auto Index = StreamIndex.emplace(L.Stream, unsigned(StreamIndex.size()));
    Pending.Stream = Index.first->second;
    F.Plan.NumSms = unsigned(L.State->NumSMs);
    if (L.Kind != OpKind::Launch) {
      // A memset or copy: one unit, whole, without a profile.
      T.Name = L.Kind == OpKind::Memset ? "cudaMemsetAsync" : "cudaMemcpyAsync";
      T.Ctas = 1;
      Pending.Sliceable = Pending.Known = Pending.Workers = false;
      F.Slices.push_back(nullptr);
      F.Pending.push_back(std::move(Pending));
      continue;
    }
    const dim3 &Gr = L.Shape.Grid, &Bl = L.Shape.Block;
    const unsigned Grid[3] = {Gr.x, Gr.y, Gr.z}, Block[3] = {Bl.x, Bl.y, Bl.z};
    T.Name = profileName(L.Kernel->Source, Grid, Block);
    T.Ctas = unsigned(L.ctas());
    T.WarpsPerCta = unsigned((uint64_t(Bl.x) * Bl.y * Bl.z + 31) / 32);
    Occupancy Occ;
    if (lockedOccupancy(*L.Kernel, L.Shape, Occ)) {
      T.CtasPerSm = unsigned(Occ.Original);
      Pending.WorkersPerSmFit = unsigned(std::max(Occ.Variant, 0));
    }
    uint32_t SlicePolicy = policyIdFor(Policy::slice(0));
    uint32_t WorkersPolicy = policyIdFor(
        Policy::smCentric(std::max(1u, (workersPerSmFit(Pending) + 1) / 2)));
    // The __slice variant, and the SM-centric one as workers (loop mode),
    // each under the policy the batch runs it with.
    auto Usable = [&](uint32_t PolicyId, Variant Want) -> Prepared * {
      if (config().Disabled)
        return nullptr;
      LaunchDecision Decision;
      Decision.Placement = PolicyId;
      Prepared *P = prepare(L.request(L.Stream), L.Device, Decision);
      bool Ok = P && P->Variant == Want &&
                !P->VariantFailed.load(std::memory_order_relaxed) &&
                P->NumParams == L.Args.size() &&
                (Want != Variant::SMCentric || P->loopWorkers());
      return Ok ? P : nullptr;
    };
    Prepared *Slices = Usable(SlicePolicy, Variant::Slice);
    bool Sliceable = Slices != nullptr;
    Pending.Sliceable = Sliceable;
    Pending.Workers = Usable(WorkersPolicy, Variant::SMCentric) != nullptr;
    F.Slices.push_back(Slices);

    Pending.Known = batch::useIssueProfile(Profiles, T) != nullptr;
    if (!Pending.Known && Sliceable) {
      tellKernel(*L.Kernel, Who + ": no \"issue\" profile for '" + T.Name +
                                "' (scripts/smc-profile --ncu records one): "
                                "its launches are not sliced (a search runs "
                                "them whole or as workers)");
    }
    if (!Sliceable && !config().Disabled)
      tellKernel(*L.Kernel, Who + ": no usable __slice variant (see the "
                                  "kernel's remarks); its launches run whole");
    F.Pending.push_back(std::move(Pending));
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Launching
//===----------------------------------------------------------------------===//

// The device's two lanes, made on first use: streams of their own, so that
// SM-centric runs on them keep one counter block each.  Lane 0 is one step
// above the least stream priority and lane 1 at the least, so that where
// both lanes have CTAs waiting for a place (a batch's start, a lane's next
// launch beside the other's) the hardware places lane 0's first.  With
// equal priorities the hardware chose which lane's kernel started first:
// one layout of bs+mm+mriq+pc took 4.44 or 5.8 ms from batch to batch
// (H100), by whether the whole-grid kernel filled the SMs before the other
// lane's workers came.  Now the layout decides it (LayoutSearch.h: the
// lanes are not interchangeable).  Still below every stream of higher
// priority a program makes, and outside priority yielding (priority/: the
// batch's runs do not go through the dispatcher).  Kept in the device's
// room slots (the BatchLanes lock).
namespace {
struct BatchLanes {
  cudaStream_t Lanes[2] = {nullptr, nullptr};
};
} // namespace

cudaError_t batchLanes(DeviceState &Dev, cudaStream_t (&Lanes)[2]) {
  Guard Lock(levelMutex<LockLevel::BatchLanes>());
  cudaStream_t(&Made)[2] = Dev.Rooms.get<BatchLanes>().Lanes;
  if (!Made[0] || !Made[1]) {
    int Least = 0, Greatest = 0;
    if (cudaError_t Err = cudaDeviceGetStreamPriorityRange(&Least, &Greatest))
      return Err;
    int Priority[2] = {Greatest < Least ? Least - 1 : Least, Least};
    for (unsigned L : {0u, 1u})
      if (!Made[L])
        if (cudaError_t Err = cudaStreamCreateWithPriority(
                &Made[L], cudaStreamNonBlocking, Priority[L])) {
          Made[L] = nullptr;
          return Err;
        }
  }
  Lanes[0] = Made[0];
  Lanes[1] = Made[1];
  return cudaSuccess;
}

namespace {

// Runs launch L whole on Lane as its SM-centric variant with WorkersPerSm
// workers per SM, on SMs [SmFirst, SmFirst + SmCount) (SmCount 0: every
// SM), through the executor (its counter block is the lane's); the
// original where that variant cannot run so.
cudaError_t launchWorkers(const RecordedLaunch &L, cudaStream_t Lane,
                          unsigned WorkersPerSm, unsigned SmFirst,
                          unsigned SmCount) {
  std::vector<unsigned> Sms(SmCount);
  for (unsigned I = 0; I < SmCount; ++I)
    Sms[I] = SmFirst + I;
  return launchUnder(L.request(Lane), L.Device,
                     Policy::smCentric(WorkersPerSm, std::move(Sms)));
}

} // namespace

bool launchRun(const RecordedLaunch &L, const Prepared *Slice,
               const batch::SliceRun &R, cudaStream_t Lane,
               const std::string &Which, std::string &Error) {
  auto Fail = [&](const std::string &What, cudaError_t Err) {
    Error = failed(What.c_str(), Err);
    return false;
  };
  bool Whole = R.firstCta == 0 && R.ctas == L.ctas() && R.sliceCtas >= R.ctas;
  if (L.Kind != OpKind::Launch) {
    if (cudaError_t Err = L.replay(Lane))
      return Fail("running " + Which + " (a memset or copy)", Err);
    return true;
  }
  if (R.workersPerSm) {
    if (cudaError_t Err =
            launchWorkers(L, Lane, R.workersPerSm, R.smFirst, R.smCount))
      return Fail("launching " + Which, Err);
    return true;
  }
  if (Whole || !Slice) {
    if (cudaError_t Err = launchOriginal(L.request(Lane)))
      return Fail("launching " + Which, Err);
    return true;
  }
  const driver::Api &Api = *driver::api();
  const Prepared &P = *Slice;
  SmcDescriptor Desc = P.Desc;
  Desc.slice_first_y = Desc.slice_first_z = 0; // 1-D slices
  std::vector<void *> Params(L.Args.begin(), L.Args.end());
  Params.resize(P.NumParams);
  Params.push_back(&Desc);
  const dim3 &Block = L.Shape.Block;
  for (unsigned First = R.firstCta, End = R.firstCta + R.ctas; First < End;
       First += std::min(R.sliceCtas, End - First)) {
    Desc.slice_offset = First;
    unsigned Count = std::min(R.sliceCtas, End - First);
    CUresult Result = Api.LaunchKernel(
        P.Function, Count, 1, 1, Block.x, Block.y, Block.z,
        unsigned(L.Shape.SharedMem), reinterpret_cast<CUstream>(Lane),
        Params.data(), nullptr);
    if (Result != CUDA_SUCCESS) {
      Error = "launching " + Which + "'s slice at CTA " +
              std::to_string(First) + " failed with " +
              driver::resultText(Result);
      return false;
    }
  }
  return true;
}

} // namespace smc
