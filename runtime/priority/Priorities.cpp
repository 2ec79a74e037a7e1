//===- Priorities.cpp - Best-effort launches yield SMs to urgent ones -----===//
//
// Each device's yielding state and the decision-maker's hooks; see
// Priorities.h.
//===----------------------------------------------------------------------===//
#include "priority/Priorities.h"

#include "base/Driver.h"
#include "base/Locks.h"
#include "base/Messages.h"
#include "core/Devices.h"
#include "core/HostEntries.h"
#include "core/Kernels.h"
#include "core/Prepared.h"
#include "observe/Stats.h"
#include "partition/PartitionRules.h"
#include "partition/TopUps.h"
#include "plan/WorkerGrid.h"
#include "policy/Config.h"
#include "policy/Policies.h"
#include "priority/PriorityRules.h"
#include "priority/Reserve.h"
#include "priority/SharedYields.h"

#include <memory>

namespace smc {

// The SMs an urgent launch took, until `Done` (recorded after it gave them
// back) completes.
struct UrgentHold {
  std::vector<unsigned> Sms;
  StreamKey Stream;
  cudaEvent_t Done = nullptr;
  bool Taking = false; // between the choice of Sms and Done's recording
};

namespace {

// Yielding launches an urgent launch can give workers back to, per device.
constexpr size_t YieldingLaunchSlots = 16;
// Writes one cuStreamBatchMemOp call takes (the driver takes fewer than 256).
constexpr size_t MemOpsPerBatch = 128;

// A best-effort SM-centric launch that yields SMs to urgent launches: what
// a top-up grid needs to give it workers again, and an event recorded
// after it (in flight until it completes).
struct YieldingLaunch {
  TopUpSource Source; // Source.P null: the slot is unused
  cudaEvent_t Done = nullptr;
};

// A device's yielding state (the Priority lock, except the atomics).
struct YieldState {
  // Set once, after Targets: the device's best-effort SM-centric launches
  // yield SMs to urgent ones.
  std::atomic<bool> Yielding{false};
  // The policy epoch at which whether a policy is urgent was last asked.
  std::atomic<uint64_t> CheckedEpoch{UINT64_MAX};
  // Device [NumSMs]: the live targets of yielding launches (0 on the SMs
  // urgent launches hold, LiveTargetUncapped elsewhere).
  uint32_t *Targets = nullptr;
  bool Failed = false; // the table could not be made: never yields
  std::vector<YieldingLaunch> Launches; // a ring, never resized
  unsigned NextLaunch = 0;
  std::vector<std::unique_ptr<UrgentHold>> Holds;
};

// setPriorityMode's mode, or -1: SMC_PRIORITY's.
std::atomic<int> ModeSet{-1};

} // namespace

PriorityMode priorityMode() {
  int Set = ModeSet.load(std::memory_order_relaxed);
  return Set >= 0 ? PriorityMode(Set) : config().Priority;
}

namespace {

// The least stream priority of the device in use when first asked (CUDA's
// range is the same for every device); 0, CUDA's default, if unknown.
int leastPriority() {
  static const int Least = [] {
    int Lowest = 0, Highest = 0;
    if (cudaDeviceGetStreamPriorityRange(&Lowest, &Highest) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return Lowest;
  }();
  return Least;
}

bool urgentStream(cudaStream_t Stream) {
  if (Stream == cudaStreamLegacy || Stream == cudaStreamPerThread ||
      priorityMode() == PriorityMode::Off)
    return false;
  int Priority = 0;
  if (cudaStreamGetPriority(Stream, &Priority) != cudaSuccess) {
    cudaGetLastError(); // the launch itself reports a bad stream
    return false;
  }
  return isUrgentPriority(Priority, leastPriority());
}

// The Priority lock held.  From now on, best-effort SM-centric launches on
// `Dev` yield: the table starts uncapped everywhere.
void startYielding(DeviceState &Dev, YieldState &Y) {
  if (Y.Yielding.load(std::memory_order_relaxed) || Y.Failed)
    return;
  RelaxedCaptureMode Relaxed;
  std::vector<uint32_t> Uncapped(Dev.NumSMs, LiveTargetUncapped);
  std::string Error;
  Y.Targets = deviceBuffer(Dev, Uncapped.data(),
                           Uncapped.size() * sizeof(uint32_t), Error);
  if (!Y.Targets) {
    tell("stream priorities: SM-centric launches on device " +
         std::to_string(Dev.Ordinal) + " cannot yield SMs (" + Error +
         "); launches on higher-priority streams wait for them");
    Y.Failed = true;
    return;
  }
  Y.Launches.resize(YieldingLaunchSlots);
  shareYieldTable(Dev, Y.Targets); // SMC_TENANTS=on: other processes take
  Y.Yielding.store(true, std::memory_order_release);
}

// Starts yielding on `Dev` if the mode is On, or Auto and a policy with
// `urgent` is set (yielding, once on, stays on).  Asks the policies once
// per policy epoch.
void yieldIfAlwaysOn(DeviceState &Dev, YieldState &Y) {
  if (Y.Yielding.load(std::memory_order_relaxed))
    return; // on for good
  uint64_t Epoch = currentPolicyEpoch();
  if (Y.CheckedEpoch.load(std::memory_order_relaxed) == Epoch)
    return;
  PriorityMode Mode = priorityMode();
  bool Start = Mode == PriorityMode::On ||
               (Mode == PriorityMode::Auto && urgentPolicySet());
  Y.CheckedEpoch.store(Epoch, std::memory_order_relaxed);
  if (Start) {
    Guard Lock(levelMutex<LockLevel::Priority>());
    startYielding(Dev, Y);
  }
}

// Writes `Value` to yield table `Table`'s entries for `Sms`, in `Stream`'s
// order, without an SM (stream memory operations).
CUresult writeTargets(uint32_t *Table, const std::vector<unsigned> &Sms,
                      uint32_t Value, cudaStream_t Stream) {
  std::vector<CUstreamBatchMemOpParams> Ops(Sms.size());
  for (size_t I = 0; I < Sms.size(); ++I) {
    Ops[I] = CUstreamBatchMemOpParams{};
    Ops[I].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    Ops[I].writeValue.address = reinterpret_cast<CUdeviceptr>(Table + Sms[I]);
    Ops[I].writeValue.value = Value;
    Ops[I].writeValue.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
  }
  const driver::Api &Api = *driver::api();
  for (size_t First = 0; First < Ops.size(); First += MemOpsPerBatch) {
    unsigned Count = unsigned(std::min(MemOpsPerBatch, Ops.size() - First));
    CUresult R = Api.StreamBatchMemOp(reinterpret_cast<CUstream>(Stream), Count,
                                      Ops.data() + First, 0);
    if (R != CUDA_SUCCESS)
      return R;
  }
  return CUDA_SUCCESS;
}

// Writes LiveTargetUncapped for `Sms` in `Table`, in `Stream`'s order; where
// the stream cannot take the writes, the whole table at once rather than
// never.
void giveBack(DeviceState &Dev, uint32_t *Table,
              const std::vector<unsigned> &Sms, cudaStream_t Stream) {
  if (writeTargets(Table, Sms, LiveTargetUncapped, Stream) == CUDA_SUCCESS)
    return;
  std::vector<uint32_t> Uncapped(Dev.NumSMs, LiveTargetUncapped);
  std::string Error;
  copyToDevice(Dev, Table, Uncapped.data(), Uncapped.size() * sizeof(uint32_t),
               Error);
}

// CTAs of the launch that run on one SM at a time, and how many CTAs one
// launch of it has (a slice's, for slices).  (One CTA to an SM, as the
// hardware places a grid alone, was measured: p50 better, p99 and the best
// effort worse, and a stream write per SM taken on the urgent launch's host
// path: docs/results/tail.md, "SMs across processes".)
unsigned ctasPerSM(Prepared &P, const LaunchShape &Shape, uint64_t &Ctas) {
  Ctas = Shape.ctas();
  if (P.loopWorkers())
    return P.Plan.Target;
  if (P.Variant == Variant::Slice)
    Ctas = std::min<uint64_t>(Ctas, P.Plan.SliceSize);
  Occupancy Occ;
  if (!lockedOccupancy(*P.Kernel, Shape, Occ))
    return 0;
  return unsigned(P.Variant == Variant::SMCentric ? Occ.Variant : Occ.Original);
}

// The Priority lock held.  A hold not in use (its urgent launch has given
// its SMs back), or a new one; null if no event can be made.
UrgentHold *freeHold(YieldState &Y) {
  for (std::unique_ptr<UrgentHold> &H : Y.Holds)
    if (!H->Taking && !eventPending(H->Done))
      return H.get();
  auto H = std::make_unique<UrgentHold>();
  if (cudaEventCreateWithFlags(&H->Done, cudaEventDisableTiming) !=
      cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  Y.Holds.push_back(std::move(H));
  return Y.Holds.back().get();
}

// The Priority lock held.  Whether yielding launch `Launch` may still run.
// A slot found done is freed, so that its event is not queried again: a
// query of a completed event costs about 1.3 us on an H100 (bench/probes/
// driver_calls.cpp), and an urgent launch looked at every slot of the ring
// twice (an urgent launch call took 106 us of host time in smc_qos_bench
// --long-cta-us 10, against 34 us with a live partition set by hand).
bool stillYielding(YieldingLaunch &Launch) {
  if (!Launch.Source.P)
    return false;
  if (eventPending(Launch.Done))
    return true;
  Launch.Source.P = nullptr;
  return false;
}

// The Priority lock held.  Whether some yielding launch may still run.
bool yieldingInFlight(YieldState &Y) {
  bool Any = false;
  for (YieldingLaunch &Launch : Y.Launches)
    Any |= stillYielding(Launch);
  return Any;
}

// The Priority lock held.  Chooses the SMs an urgent launch takes and
// reserves a hold for them, with the yield tables to write (this process's
// where it yields, and SMC_TENANTS=on, the other processes'); false when it
// takes none (nothing yields now, or the launch fits nowhere).
bool takeSms(DeviceState &Dev, YieldState &Y, Prepared &P,
             const LaunchShape &Shape, const StreamKey &Key,
             Priorities::Ticket &T) {
  // The SMs this process's launches in flight hold, and of those, the ones
  // other streams hold (this stream's come back in its order).
  std::vector<bool> HeldHere(Dev.NumSMs, false),
      HeldByOthers(Dev.NumSMs, false);
  bool InFlight = false;
  for (const std::unique_ptr<UrgentHold> &H : Y.Holds)
    if (H->Taking || eventPending(H->Done)) {
      InFlight = true;
      for (unsigned Sm : H->Sms) {
        HeldHere[Sm] = true;
        HeldByOthers[Sm] = HeldByOthers[Sm] || H->Stream != Key;
      }
    }
  T.Tables = othersYieldTables(Dev, InFlight, HeldByOthers);
  if (yieldingInFlight(Y))
    T.Tables.push_back(Y.Targets);
  if (T.Tables.empty())
    return false;
  uint64_t Ctas = 0;
  unsigned PerSM = ctasPerSM(P, Shape, Ctas);
  unsigned Count = urgentSmCount(Ctas, PerSM, Dev.NumSMs);
  if (Count == 0)
    return false;
  T.Hold = freeHold(Y);
  if (!T.Hold)
    return false;
  T.Sms = pickUrgentSms(Count, HeldByOthers);
  T.Hold->Sms = T.Sms;
  T.Hold->Stream = Key;
  T.Hold->Taking = true;
  // The board knows what this process holds (SMC_TENANTS=on).
  for (unsigned Sm : T.Sms)
    HeldHere[Sm] = true;
  holdOnBoard(Dev, HeldHere);
  return true;
}

// SMC_TENANTS=on, a best-effort launch: yielding starts once another
// process takes SMs; SMs that a process which died held in this one's
// table are written back first, in `Stream`'s order.
void yieldAcrossProcesses(DeviceState &Dev, YieldState &Y,
                          cudaStream_t Stream) {
  Guard Lock(levelMutex<LockLevel::Priority>());
  if (!Y.Yielding.load(std::memory_order_relaxed) && anotherProcessTakes(Dev))
    startYielding(Dev, Y);
  if (!Y.Yielding.load(std::memory_order_relaxed))
    return;
  std::vector<unsigned> Back = orphanedSms(Dev);
  if (!Back.empty())
    giveBack(Dev, Y.Targets, Back, Stream);
}

// An urgent launch: takes SMs from the yielding launches in flight for it
// (confining an SM-centric loop-mode launch to them), or runs as prepared
// when nothing yields.
void proposeUrgent(Launch &L, Priorities::Ticket &T, Prepared &P) {
  DeviceState &Dev = *P.Device;
  YieldState &Y = Dev.Rooms.get<YieldState>();
  T.Device = &Dev;
  T.Kernel = P.Kernel;
  {
    Guard Lock(levelMutex<LockLevel::Priority>());
    if (priorityMode() == PriorityMode::Auto)
      startYielding(Dev, Y);
    announceTaking(Dev); // SMC_TENANTS=on: other processes yield
    // SMC_STATS runs launches one at a time; a captured launch runs later,
    // when the table may say anything: neither takes SMs.
    StreamKey Key;
    bool Plain = stats::enabled() || L.capture() != Capture::None ||
                 !Y.Yielding.load(std::memory_order_relaxed) ||
                 !streamKey(L.Stream, Key);
    if (Plain || !takeSms(Dev, Y, P, L.Req.Shape, Key, T))
      T.Hold = nullptr;
  }
  if (!T.Hold || !P.loopWorkers())
    return;
  // An urgent launch's SMs are the only ones yielding launches leave it.
  L.confine(&T.Sms, 0);
  if (Prepared *Confined = L.prepared(); Confined && Confined->loopWorkers())
    L.Decision.Workers =
        confinedWorkers(Confined->Plan.FitPerSM, uint32_t(T.Sms.size()), 0);
}

} // namespace

bool urgentLaunch(const Prepared &P, cudaStream_t Stream) {
  if (P.Urgent)
    return priorityMode() != PriorityMode::Off;
  return urgentStream(Stream);
}

void Priorities::propose(Launch &L, Ticket &T) {
  // A live partition or the co-run scheduler chose the launch's SMs.
  if (L.Decision.SmsChosen)
    return;
  Prepared *P = L.prepared();
  if (!P)
    return;
  DeviceState &Dev = *P->Device;
  YieldState &Y = Dev.Rooms.get<YieldState>();
  yieldIfAlwaysOn(Dev, Y);
  if (urgentLaunch(*P, L.Stream)) {
    // A reserved kernel's CTAs start in the room kept for them.
    if (P->Reserve)
      return noteReservedLaunch(L, *P);
    return proposeUrgent(L, T, *P);
  }
  // A best-effort launch on every SM leaves room for reserved kernels
  // (Reserve.h).
  // It then does not yield: where it yielded, one urgent CTA in about six
  // found its SM without room and ran 2 to 4 times its time
  // (smc_tail_bench, docs/results/tail.md); an urgent launch that fits
  // the room gets in at once all the same.
  if (P->loopWorkers() && !L.Decision.Sms &&
      priorityMode() != PriorityMode::Off && leaveReservedRoom(L, *P)) {
    L.prepared(); // under the placement with fewer workers
    return;
  }
  // A best-effort launch yields when it runs as loop-mode workers on every
  // SM it may use, on the stream (not captured, not under SMC_STATS), and
  // yielding is on; no claim ahead, so that a worker leaves right after
  // its chunk.
  if (!P->loopWorkers() || L.Decision.Sms ||
      priorityMode() == PriorityMode::Off || stats::enabled() ||
      L.capture() != Capture::None)
    return;
  if (config().Tenants)
    yieldAcrossProcesses(Dev, Y, L.Stream);
  if (!Y.Yielding.load(std::memory_order_acquire))
    return;
  L.Decision.LiveTarget = Y.Targets;
  L.Decision.ClaimBatch = 0;
  L.Decision.Tagged = true;
  T.Yielding = true;
}

void Priorities::before(Launch &L, Ticket &T) {
  if (!T.Hold)
    return;
  // Every table, even after a failure: the writes back in after() undo
  // whichever of these took effect.
  for (uint32_t *Table : T.Tables) {
    CUresult R = writeTargets(Table, T.Sms, 0, L.Stream);
    if (R != CUDA_SUCCESS && T.Taken == CUDA_SUCCESS)
      T.Taken = R;
  }
  if (T.Taken != CUDA_SUCCESS)
    tellKernel(*T.Kernel, "cannot take SMs from yielding launches (" +
                              driver::resultText(T.Taken) +
                              "); it waits for room like any launch");
}

void Priorities::after(Launch &L, Ticket &T, cudaError_t Err) {
  Prepared *P = L.current();
  if (T.Yielding && Err == cudaSuccess && L.RanVariant) {
    DeviceState &Dev = *P->Device;
    YieldState &Y = Dev.Rooms.get<YieldState>();
    Guard Lock(levelMutex<LockLevel::Priority>());
    YieldingLaunch &Launch = Y.Launches[Y.NextLaunch++ % Y.Launches.size()];
    Launch.Source.P = nullptr;
    if (!Launch.Done &&
        cudaEventCreateWithFlags(&Launch.Done, cudaEventDisableTiming) !=
            cudaSuccess) {
      cudaGetLastError();
      Launch.Done = nullptr;
      return;
    }
    if (cudaEventRecord(Launch.Done, L.Stream) != cudaSuccess) {
      cudaGetLastError();
      return;
    }
    if (!keepTopUpSource(Launch.Source, L))
      return;
    // It may start while urgent launches hold SMs, whose workers there
    // would retreat: it gets them back when those launches give the SMs
    // back.
    for (const std::unique_ptr<UrgentHold> &H : Y.Holds)
      if (!H->Taking && eventPending(H->Done))
        launchTopUp(Dev, Launch.Source,
                    uint32_t(H->Sms.size()) * P->Plan.Target, H->Done,
                    /*PlanTargets=*/true);
    return;
  }
  if (!T.Hold)
    return;
  DeviceState &Dev = *T.Device;
  YieldState &Y = Dev.Rooms.get<YieldState>();
  for (uint32_t *Table : T.Tables)
    giveBack(Dev, Table, T.Sms, L.Stream);
  bool Recorded = cudaEventRecord(T.Hold->Done, L.Stream) == cudaSuccess;
  if (!Recorded)
    cudaGetLastError();
  Guard Lock(levelMutex<LockLevel::Priority>());
  T.Hold->Taking = false;
  lookForDeadTenants(Dev); // SMC_TENANTS=on, off the kernel's path
  if (!Recorded)
    return;
  // Grow-back: the yielding launches in flight get workers on the SMs
  // again once the urgent launch has given them back.
  for (YieldingLaunch &Launch : Y.Launches)
    if (stillYielding(Launch))
      launchTopUp(Dev, Launch.Source,
                  uint32_t(T.Sms.size()) * Launch.Source.P->Plan.Target,
                  T.Hold->Done, /*PlanTargets=*/true);
}

//===----------------------------------------------------------------------===//
// Public API (smc.h)
//===----------------------------------------------------------------------===//

void setPriorityMode(PriorityMode Mode) {
  ModeSet.store(int(Mode), std::memory_order_relaxed);
  policiesChanged(); // launches ask again whether to start yielding
}

} // namespace smc

// Streams created with a priority above the least turn yielding on for the
// current device (PriorityMode::Auto), before any launch on them.
extern "C" cudaError_t __smc_stream_create_with_priority(cudaStream_t *Stream,
                                                         unsigned int Flags,
                                                         int Priority) {
  cudaError_t Err = cudaStreamCreateWithPriority(Stream, Flags, Priority);
  if (Err != cudaSuccess || smc::config().Disabled ||
      smc::priorityMode() != smc::PriorityMode::Auto)
    return Err;
  int Actual = Priority; // CUDA clamps it into the device's range
  int Device = 0;
  if (cudaStreamGetPriority(*Stream, &Actual) != cudaSuccess ||
      cudaGetDevice(&Device) != cudaSuccess) {
    cudaGetLastError();
    return Err;
  }
  if (!smc::isUrgentPriority(Actual, smc::leastPriority()))
    return Err;
  smc::DeviceState *Dev = smc::lockedDeviceState(Device);
  if (!Dev)
    return Err;
  smc::Guard Lock(smc::levelMutex<smc::LockLevel::Priority>());
  smc::startYielding(*Dev, Dev->Rooms.get<smc::YieldState>());
  return Err;
}
