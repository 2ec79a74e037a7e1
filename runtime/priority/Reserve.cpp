//===- Reserve.cpp - Room kept on every SM for a reserved kernel ----------===//
//
// Each device's reserved footprint and the best-effort launches' smaller
// targets; see Reserve.h.
//===----------------------------------------------------------------------===//
#include "priority/Reserve.h"

#include "base/Driver.h"
#include "base/Locks.h"
#include "core/Devices.h"
#include "core/Kernels.h"
#include "core/Prepared.h"
#include "policy/Policies.h"
#include "priority/PriorityRules.h"

#include <atomic>
#include <map>
#include <tuple>

namespace smc {
namespace {

// A device's reserved room (the Priority lock, except Any).
struct ReservedRoom {
  std::atomic<bool> Any{false}; // a reserved kernel has launched here
  // The policy epoch at which a policy with `reserve` was last looked for.
  uint64_t CheckedEpoch = UINT64_MAX;
  CtaFootprint Largest; // the most of each resource one CTA needs
  SmResources Sm;
  // Footprints of functions at a block size and dynamic shared memory.
  std::map<std::tuple<CUfunction, unsigned, size_t>, CtaFootprint> Known;
  // (policy, workers per SM) -> the policy id with that target.
  std::map<std::pair<uint32_t, unsigned>, uint32_t> Placements;
};

unsigned attribute(CUfunction F, CUfunction_attribute A) {
  int Value = 0;
  if (driver::api()->FuncGetAttribute(&Value, A, F) != CUDA_SUCCESS)
    return 0;
  return unsigned(Value);
}

int deviceAttribute(cudaDeviceAttr A, int Device, int Default) {
  int Value = 0;
  if (cudaDeviceGetAttribute(&Value, A, Device) != cudaSuccess) {
    cudaGetLastError();
    return Default;
  }
  return Value;
}

// The Priority lock held.
CtaFootprint footprint(ReservedRoom &R, CUfunction F, const LaunchShape &S) {
  unsigned Threads = S.Block.x * S.Block.y * S.Block.z;
  auto Key = std::make_tuple(F, Threads, S.SharedMem);
  auto It = R.Known.find(Key);
  if (It != R.Known.end())
    return It->second;
  CtaFootprint Fp{Threads, attribute(F, CU_FUNC_ATTRIBUTE_NUM_REGS),
                  attribute(F, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) +
                      unsigned(S.SharedMem)};
  return R.Known[Key] = Fp;
}

} // namespace

void noteReservedLaunch(Prepared &P, const LaunchShape &Shape) {
  ReservedRoom &R = P.Device->Rooms.get<ReservedRoom>();
  // The function that runs: the variant's where the policy makes one.
  CUfunction F = P.Kernel->Original;
  if (P.Variant == Variant::SMCentric && P.Kernel->Smc)
    F = P.Kernel->Smc;
  else if (P.Variant == Variant::Slice && P.Kernel->Slice)
    F = P.Kernel->Slice;
  Guard Lock(levelMutex<LockLevel::Priority>());
  if (!R.Any.load(std::memory_order_relaxed)) {
    int D = P.Device->Ordinal;
    R.Sm.Threads = deviceAttribute(cudaDevAttrMaxThreadsPerMultiProcessor, D,
                                   int(R.Sm.Threads));
    R.Sm.Ctas = deviceAttribute(cudaDevAttrMaxBlocksPerMultiprocessor, D,
                                int(R.Sm.Ctas));
    R.Sm.Registers = deviceAttribute(cudaDevAttrMaxRegistersPerMultiprocessor,
                                     D, int(R.Sm.Registers));
    R.Sm.SharedBytes = deviceAttribute(
        cudaDevAttrMaxSharedMemoryPerMultiprocessor, D, int(R.Sm.SharedBytes));
    R.Sm.SharedPerCtaReserved =
        deviceAttribute(cudaDevAttrReservedSharedMemoryPerBlock, D,
                        int(R.Sm.SharedPerCtaReserved));
  }
  CtaFootprint Fp = footprint(R, F, Shape);
  R.Largest.Threads = std::max(R.Largest.Threads, Fp.Threads);
  R.Largest.RegistersPerThread =
      std::max(R.Largest.RegistersPerThread, Fp.RegistersPerThread);
  R.Largest.SharedBytes = std::max(R.Largest.SharedBytes, Fp.SharedBytes);
  R.Any.store(true, std::memory_order_release);
}

bool leaveReservedRoom(Launch &L, Prepared &P) {
  ReservedRoom &R = P.Device->Rooms.get<ReservedRoom>();
  if (!R.Any.load(std::memory_order_acquire) || !P.Kernel->Smc)
    return false;
  uint32_t Placement = 0;
  {
    Guard Lock(levelMutex<LockLevel::Priority>());
    // No policy has `reserve` any more: no room is kept until a reserved
    // kernel launches again.
    uint64_t Epoch = currentPolicyEpoch();
    if (R.CheckedEpoch != Epoch) {
      R.CheckedEpoch = Epoch;
      if (!reservePolicySet()) {
        R.Any.store(false, std::memory_order_relaxed);
        R.Largest = CtaFootprint();
        return false;
      }
    }
    CtaFootprint Worker = footprint(R, P.Kernel->Smc, L.Req.Shape);
    unsigned Workers =
        workersLeavingRoom(Worker, P.Plan.Target, R.Largest, R.Sm);
    if (Workers == 0 || Workers >= P.Plan.Target)
      return false;
    auto Key = std::make_pair(P.PolicyId, Workers);
    auto It = R.Placements.find(Key);
    if (It == R.Placements.end()) {
      Policy Fewer = policyById(P.PolicyId);
      Fewer.workersPerSM = Workers;
      It = R.Placements.emplace(Key, policyIdFor(Fewer)).first;
    }
    Placement = It->second;
  }
  L.placeUnder(Placement);
  return true;
}

} // namespace smc
