//===- TopUps.cpp - Workers added to a running launch (grow-back) ---------===//
//
// Top-up lanes per device and per-configuration target tables; see
// TopUps.h.
//===----------------------------------------------------------------------===//
#include "partition/TopUps.h"

#include "base/Driver.h"
#include "base/Locks.h"
#include "core/Devices.h"
#include "core/Kernels.h"
#include "core/Prepared.h"

namespace smc {
namespace {

// A stream top-up grids run on, and an event recorded after its last one:
// a top-up grid runs until the launch it joined ends, so each one gets a
// lane whose previous grid has completed (up to MaxTopUpLanes).
struct TopUpLane {
  cudaStream_t Stream = nullptr;
  cudaEvent_t Done = nullptr;
};

// A device's lanes, non-blocking: never the runtime's own stream, whose
// copies must not wait for kernels.
struct TopUpLanes {
  std::vector<TopUpLane> Lanes;
  unsigned Next = 0;
};

// A configuration's table of its plan's target on every SM (made on its
// first top-up for a grown partition).
struct TopUpTable {
  uint32_t *Targets = nullptr;
};

constexpr size_t MaxTopUpLanes = 8;

// A lane whose last grid has completed, or a new one (up to MaxTopUpLanes,
// then the next in turn); null with `Error` set if none can be made.  The
// TopUps lock held.
TopUpLane *freeLane(DeviceState &Dev, std::string &Error) {
  TopUpLanes &L = Dev.Rooms.get<TopUpLanes>();
  for (TopUpLane &Lane : L.Lanes)
    if (!eventPending(Lane.Done))
      return &Lane;
  if (L.Lanes.size() < MaxTopUpLanes) {
    TopUpLane Lane;
    cudaError_t Err =
        cudaStreamCreateWithFlags(&Lane.Stream, cudaStreamNonBlocking);
    if (Err == cudaSuccess) {
      Err = cudaEventCreateWithFlags(&Lane.Done, cudaEventDisableTiming);
      if (Err == cudaSuccess) {
        L.Lanes.push_back(Lane);
        return &L.Lanes.back();
      }
      cudaStreamDestroy(Lane.Stream);
    }
    if (L.Lanes.empty()) {
      Error = failed("creating a stream for top-up grids", Err);
      return nullptr;
    }
    cudaGetLastError();
  }
  return &L.Lanes[L.Next++ % L.Lanes.size()];
}

} // namespace

bool keepTopUpSource(TopUpSource &Source, const Launch &L) {
  Prepared &P = *L.current();
  Source.P = nullptr;
  if (P.ParamSizes.size() != P.NumParams)
    return false;
  Source.Args = copyArgs(L.Req.Args, P.ParamSizes);
  Source.P = &P;
  Source.Desc = L.Desc;
  Source.Block = L.Req.Shape.Block;
  Source.SharedMem = unsigned(L.Req.Shape.SharedMem);
  return true;
}

void launchTopUp(DeviceState &Dev, const TopUpSource &Source, uint32_t Workers,
                 cudaEvent_t After, bool PlanTargets) {
  // Prepared launches are never freed.
  Prepared &P = *Source.P;
  auto Fail = [&](const std::string &Why) {
    tellKernel(*P.Kernel, "cannot add workers to a running launch: " + Why);
  };
  Guard Lock(levelMutex<LockLevel::TopUps>());
  std::string Error;
  TopUpTable &Table = P.Rooms.get<TopUpTable>();
  if (!PlanTargets && !Table.Targets) {
    std::vector<uint32_t> Targets(Dev.NumSMs, P.Plan.Target);
    Table.Targets = deviceBuffer(Dev, Targets.data(),
                                 Targets.size() * sizeof(uint32_t), Error);
    if (!Table.Targets)
      return Fail(Error);
  }
  TopUpLane *Lane = freeLane(Dev, Error);
  if (!Lane)
    return Fail(Error);
  if (After) {
    cudaError_t Err = cudaStreamWaitEvent(Lane->Stream, After, 0);
    if (Err != cudaSuccess)
      return Fail(failed("cudaStreamWaitEvent", Err));
  }
  SmcDescriptor Desc = Source.Desc;
  Desc.top_up = 1;
  if (!PlanTargets)
    Desc.slot_target = Table.Targets;
  std::vector<void *> Params;
  for (const std::vector<char> &Arg : Source.Args)
    Params.push_back(const_cast<char *>(Arg.data()));
  Params.push_back(&Desc);
  const dim3 &Block = Source.Block;
  CUresult R = driver::api()->LaunchKernel(
      P.Function, Workers, 1, 1, Block.x, Block.y, Block.z, Source.SharedMem,
      reinterpret_cast<CUstream>(Lane->Stream), Params.data(), nullptr);
  if (R != CUDA_SUCCESS)
    return Fail("the top-up launch failed with " + driver::resultText(R));
  if (cudaEventRecord(Lane->Done, Lane->Stream) != cudaSuccess)
    cudaGetLastError(); // the lane then looks busy until its next use
}

} // namespace smc
