//===- Reserve.cpp - Room kept on every SM for a reserved kernel ----------===//
//
// Each device's reserved footprint and the best-effort launches' smaller
// targets; see Reserve.h.
//===----------------------------------------------------------------------===//
#include "priority/Reserve.h"

#include "base/Driver.h"
#include "base/Locks.h"
#include "base/Messages.h"
#include "core/Devices.h"
#include "core/Kernels.h"
#include "core/Prepared.h"
#include "policy/Config.h"
#include "policy/Policies.h"
#include "priority/DeviceBoards.h"
#include "priority/PriorityRules.h"

#include <atomic>
#include <cstdio>
#include <map>
#include <tuple>
#include <unistd.h>

namespace smc {
namespace {

// A device's reserved room (the Priority lock, except Any).
struct ReservedRoom {
  std::atomic<bool> Any{false}; // a reserved kernel has launched here
  // The policy epoch at which a policy with `reserve` was last looked for.
  uint64_t CheckedEpoch = UINT64_MAX;
  // Each reserved kernel's largest CTA (the room holds the most of each
  // resource of them all: largest()).
  std::map<const KernelEntry *, CtaFootprint> ByKernel;
  SmResources Sm;
  bool LimitsRead = false;
  // Footprints of functions at a block size and dynamic shared memory.
  std::map<std::tuple<CUfunction, unsigned, size_t>, CtaFootprint> Known;
  // (policy, workers per SM) -> the policy id with that target.
  std::map<std::pair<uint32_t, unsigned>, uint32_t> Placements;
  // (original, CTAs, requested dynamic shared memory) -> what it runs with
  // (spreadSharedBytes; the request's where it cannot be given).
  std::map<std::tuple<CUfunction, uint64_t, size_t>, size_t> Spread;
  // Best-effort variants whose shared memory carveout was raised for the
  // room, with the carveout they had.
  std::map<CUfunction, int> Carveouts;
  // When a best-effort launch here last kept room (steady clock ns), and
  // when that was last written to the board.
  int64_t RoomKeptNs = 0, RoomPostedNs = 0;
  bool Published = false; // SMC_TENANTS=on: largest() is on the board
};

// Reserved CTAs are kept one to an SM while room was kept this recently, by
// this process or (SMC_TENANTS=on) another; the board hears of it at most
// every PostEvery.
constexpr int64_t KeptWithinNs = 1000000000, PostEveryNs = 10000000;

// Into grows to hold F too (the most of each resource); whether it grew.
bool widen(CtaFootprint &Into, const CtaFootprint &F) {
  CtaFootprint Was = Into;
  Into.Threads = std::max(Into.Threads, F.Threads);
  Into.RegistersPerThread =
      std::max(Into.RegistersPerThread, F.RegistersPerThread);
  Into.SharedBytes = std::max(Into.SharedBytes, F.SharedBytes);
  return Into.Threads != Was.Threads ||
         Into.RegistersPerThread != Was.RegistersPerThread ||
         Into.SharedBytes != Was.SharedBytes;
}

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

// The Priority lock held.  The device's SM limits, read once.
void initLimits(ReservedRoom &R, int D) {
  if (R.LimitsRead)
    return;
  R.LimitsRead = true;
  R.Sm.Threads = deviceAttribute(cudaDevAttrMaxThreadsPerMultiProcessor, D,
                                 int(R.Sm.Threads));
  R.Sm.Ctas =
      deviceAttribute(cudaDevAttrMaxBlocksPerMultiprocessor, D, int(R.Sm.Ctas));
  R.Sm.Registers = deviceAttribute(cudaDevAttrMaxRegistersPerMultiprocessor, D,
                                   int(R.Sm.Registers));
  R.Sm.SharedBytes = deviceAttribute(
      cudaDevAttrMaxSharedMemoryPerMultiprocessor, D, int(R.Sm.SharedBytes));
  R.Sm.SharedPerCtaReserved =
      deviceAttribute(cudaDevAttrReservedSharedMemoryPerBlock, D,
                      int(R.Sm.SharedPerCtaReserved));
  R.Sm.SharedPerCtaLimit = deviceAttribute(
      cudaDevAttrMaxSharedMemoryPerBlockOptin, D, int(R.Sm.SharedPerCtaLimit));
}

// The Priority lock held.  The dynamic shared memory an original reserved
// launch runs with: spreadSharedBytes where the function allows it (its
// limit raised), else the request's (the program is told once).
size_t spreadOriginal(ReservedRoom &R, Prepared &P, const LaunchShape &S) {
  CUfunction F = P.Kernel->Original;
  auto Key = std::make_tuple(F, S.ctas(), S.SharedMem);
  auto It = R.Spread.find(Key);
  if (It != R.Spread.end())
    return It->second;
  size_t Bytes = spreadSharedBytes(
      S.ctas(), P.Device->NumSMs,
      attribute(F, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES), S.SharedMem, R.Sm);
  if (Bytes > S.SharedMem &&
      attribute(F, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) < Bytes &&
      driver::api()->FuncSetAttribute(
          F, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(Bytes)) !=
          CUDA_SUCCESS) {
    tellKernel(*P.Kernel, "reserve: cannot give its CTAs " +
                              std::to_string(Bytes) +
                              " bytes of shared memory; several may share an "
                              "SM beside best-effort workers");
    Bytes = S.SharedMem;
  }
  return R.Spread[Key] = Bytes;
}

// The Priority lock held.  A best-effort variant that leaves room for
// shared memory asks for the largest shared memory carveout, so that the
// room is there without the SM draining to change its carveout (which a
// reserved CTA would otherwise wait for); its own carveout is given back
// with the room.
void carveFor(ReservedRoom &R, CUfunction F, bool Shared) {
  auto It = R.Carveouts.find(F);
  if (Shared == (It != R.Carveouts.end()))
    return;
  const driver::Api &Api = *driver::api();
  if (!Shared) {
    Api.FuncSetAttribute(F, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                         It->second);
    R.Carveouts.erase(It);
    return;
  }
  int Was = -1;
  if (Api.FuncGetAttribute(&Was,
                           CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                           F) != CUDA_SUCCESS)
    Was = -1;
  if (Api.FuncSetAttribute(F,
                           CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                           100) == CUDA_SUCCESS)
    R.Carveouts.emplace(F, Was);
}

// The Priority lock held.  The most of each resource a CTA that another
// process on the device's board reserves needs (SMC_TENANTS=on; zero: none).
CtaFootprint othersReserve(int Device) {
  const std::vector<tenants::Tenant> *Live =
      boardTenants(Device, BoardRead::Due);
  if (!Live)
    return {};
  tenants::Footprint F = tenants::largestReserved(*Live, boardSelf());
  return {F.Threads, F.RegistersPerThread, F.SharedBytes};
}

// The Priority lock held.  Whether a best-effort launch kept room lately,
// here or on the device's board.
bool roomKept(ReservedRoom &R, Prepared &P) {
  int64_t Last = R.RoomKeptNs;
  if (tenants::Board *B = deviceBoard(P.Device->Ordinal))
    Last = std::max(Last, B->RoomKeptNs.load(std::memory_order_relaxed));
  return Last != 0 && boardClockNs() - Last < KeptWithinNs;
}

// The Priority lock held.  The most of each resource one reserved CTA
// needs.
CtaFootprint largest(const ReservedRoom &R) {
  CtaFootprint Most;
  for (const auto &[K, Fp] : R.ByKernel)
    widen(Most, Fp);
  return Most;
}

// The Priority lock held.  largest() onto the device's board (SMC_TENANTS).
void publish(ReservedRoom &R, int Device) {
  if (tenants::Board *B = deviceBoard(Device)) {
    CtaFootprint Most = largest(R);
    R.Published = tenants::publish(
        *B, boardSelf(),
        {Most.Threads, Most.RegistersPerThread, Most.SharedBytes},
        tenants::processAlive);
    if (!R.Published)
      tell("SMC_TENANTS: the tenant board of device " + std::to_string(Device) +
           " is full; other processes do not leave room for this one");
  }
}

// The Priority lock held.  No room kept here until a reserved kernel
// launches again: best-effort variants get their carveouts back, the
// board forgets this process's footprint.
void giveBackRoom(ReservedRoom &R, int Device) {
  R.Any.store(false, std::memory_order_relaxed);
  R.ByKernel.clear();
  while (!R.Carveouts.empty())
    carveFor(R, R.Carveouts.begin()->first, false);
  if (R.Published)
    if (tenants::Board *B = deviceBoard(Device))
      tenants::unreserve(*B, boardSelf());
  R.Published = false;
}

// The Priority lock held.  Forgets the reserved kernels that are `Gone`:
// the room shrinks to the others' (given back once none is left).
template <typename Pred>
void forgetKernels(ReservedRoom &R, int Device, Pred Gone) {
  bool Forgot = false;
  for (auto It = R.ByKernel.begin(); It != R.ByKernel.end();) {
    if (Gone(*It->first)) {
      It = R.ByKernel.erase(It);
      Forgot = true;
    } else {
      ++It;
    }
  }
  if (!Forgot)
    return;
  if (R.ByKernel.empty())
    return giveBackRoom(R, Device);
  publish(R, Device);
}

} // namespace

void noteReservedLaunch(Launch &L, Prepared &P) {
  ReservedRoom &R = P.Device->Rooms.get<ReservedRoom>();
  // The function that runs: the variant's where the policy makes one.
  CUfunction F = P.Kernel->Original;
  if (P.Variant == Variant::SMCentric && P.Kernel->Smc)
    F = P.Kernel->Smc;
  else if (P.Variant == Variant::Slice && P.Kernel->Slice)
    F = P.Kernel->Slice;
  Guard Lock(levelMutex<LockLevel::Priority>());
  initLimits(R, P.Device->Ordinal);
  // Room holds the spread CTA; the launch spreads while room is kept (else
  // the shared memory could cost it waves beside kernels that hold some).
  LaunchShape Shape = L.Req.Shape;
  if (F == P.Kernel->Original) {
    Shape.SharedMem = spreadOriginal(R, P, Shape);
    if (Shape.SharedMem > L.Req.Shape.SharedMem && roomKept(R, P))
      L.Decision.SharedMem = Shape.SharedMem;
  }
  bool Changed = widen(R.ByKernel[P.Kernel], footprint(R, F, Shape));
  R.Any.store(true, std::memory_order_release);
  // The board hears of a change only: every write makes every other
  // process read it again.
  if (!R.Published || Changed)
    publish(R, P.Device->Ordinal);
}

void withdrawReservedKernel(DeviceState &Dev, const KernelEntry &Kernel) {
  ReservedRoom &R = Dev.Rooms.get<ReservedRoom>();
  Guard Lock(levelMutex<LockLevel::Priority>());
  forgetKernels(R, Dev.Ordinal,
                [&](const KernelEntry &K) { return &K == &Kernel; });
}

bool leaveReservedRoom(Launch &L, Prepared &P) {
  ReservedRoom &R = P.Device->Rooms.get<ReservedRoom>();
  if (!P.Kernel->Smc ||
      !(R.Any.load(std::memory_order_acquire) || config().Tenants))
    return false;
  uint32_t Placement = 0;
  {
    Guard Lock(levelMutex<LockLevel::Priority>());
    tenants::Board *B = deviceBoard(P.Device->Ordinal);
    // Kernels whose policy has neither `reserve` nor a latency target
    // (whose room latency/ withdraws) any more: no room for them until
    // they launch reserved again.
    uint64_t Epoch = currentPolicyEpoch();
    if (R.CheckedEpoch != Epoch) {
      R.CheckedEpoch = Epoch;
      forgetKernels(R, P.Device->Ordinal, [](const KernelEntry &K) {
        const Policy &Now = kernelPolicy(K);
        return !Now.reserve && !hasLatencyTarget(Now);
      });
    }
    // Room for the largest CTA this process or another reserves.
    CtaFootprint Room = largest(R);
    widen(Room, othersReserve(P.Device->Ordinal));
    carveFor(R, P.Kernel->Smc, Room.SharedBytes != 0);
    if (Room.Threads == 0)
      return false;
    int64_t Now = boardClockNs();
    R.RoomKeptNs = Now;
    if (B && Now - R.RoomPostedNs >= PostEveryNs) {
      B->RoomKeptNs.store(Now, std::memory_order_relaxed);
      R.RoomPostedNs = Now;
    }
    initLimits(R, P.Device->Ordinal);
    CtaFootprint Worker = footprint(R, P.Kernel->Smc, L.Req.Shape);
    unsigned Workers = workersLeavingRoom(Worker, P.Plan.Target, Room, R.Sm);
    if (Workers == 0 || Workers >= P.Plan.Target)
      return false;
    auto Key = std::make_pair(P.PolicyId, Workers);
    auto It = R.Placements.find(Key);
    if (It == R.Placements.end()) {
      Policy Fewer = policyById(P.PolicyId);
      Fewer.workersPerSM = Workers;
      It = R.Placements.emplace(Key, policyIdFor(Fewer)).first;
      // What the room costs it, told once.
      std::string Shared = Room.SharedBytes
                               ? " and " + std::to_string(Room.SharedBytes) +
                                     " bytes of shared memory"
                               : "";
      tellKernel(*P.Kernel, "runs " + std::to_string(Workers) + " of " +
                                std::to_string(P.Plan.Target) +
                                " workers per SM, leaving room for a "
                                "reserved CTA of " +
                                std::to_string(Room.Threads) + " threads" +
                                Shared);
    }
    Placement = It->second;
  }
  L.placeUnder(Placement);
  return true;
}

} // namespace smc
