//===- Priorities.cpp - Best-effort launches yield SMs to urgent ones -----===//
//
// Stream priorities for SM-centric launches (smc::PriorityMode in smc.h,
// PriorityYield.h for the decisions).  Once yielding is on for a device,
// every SM-centric loop-mode launch on a best-effort stream (the least
// priority, no live partition) points its descriptor's live targets at the
// device's table of yielded SMs, claims one chunk at a time, and is kept in
// a ring of yielding launches with an event recorded after it.
//
// An urgent launch (a stream of higher priority) while yielding launches
// are in flight:
//
//   urgent stream:  write 0 to the table for its SMs   (cuStreamBatchMemOp)
//                   the kernel (SM-centric: confined to those SMs)
//                   write LiveTargetUncapped for them  (cuStreamBatchMemOp)
//                   record Done
//   top-up lanes:   after Done, for every yielding launch in flight, a
//                   top-up grid of its target x the SMs taken (grow-back)
//
// The writes are stream memory operations, which the GPU's front end
// carries out without an SM: a kernel (a memset) could not start while
// persistent workers hold every SM.  The best-effort workers on the taken
// SMs leave at their next chunk boundary (except their launch's keeper), so
// the urgent CTAs find room there; stream order restores the targets when
// the urgent kernel ends.  Exactly once is the live partitions' argument
// (runtime/device/SmcWorker.cu): the table only changes which workers stay.
//===----------------------------------------------------------------------===//
#include "core/HostEntries.h"
#include "partition/PartitionRules.h"
#include "priority/PriorityRules.h"
#include "core/RuntimeState.h"
#include "observe/Stats.h"

#include <cstdlib>

namespace smc {
namespace {

// Yielding launches an urgent launch can give workers back to, per device.
constexpr size_t YieldingLaunchSlots = 16;
// Writes one cuStreamBatchMemOp call takes (the driver takes fewer than 256).
constexpr size_t MemOpsPerBatch = 128;

// setPriorityMode's mode, or -1: SMC_PRIORITY's.
std::atomic<int> ModeSet{-1};

PriorityMode environmentMode() {
  static const PriorityMode Mode = [] {
    PriorityMode M = PriorityMode::Auto;
    const char *Text = std::getenv("SMC_PRIORITY");
    std::string Error;
    if (Text && *Text && !parsePriorityMode(Text, M, Error)) {
      tell("SMC_PRIORITY: " + Error + "; using auto");
      M = PriorityMode::Auto;
    }
    return M;
  }();
  return Mode;
}

PriorityMode priorityMode() {
  int Set = ModeSet.load(std::memory_order_relaxed);
  return Set >= 0 ? PriorityMode(Set) : environmentMode();
}

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

// Globals::Mutex held.  From now on, best-effort SM-centric launches on
// `Dev` yield: the table starts uncapped everywhere.
void startYielding(DeviceState &Dev) {
  if (Dev.Yielding.load(std::memory_order_relaxed) || Dev.YieldFailed)
    return;
  RelaxedCaptureMode Relaxed;
  std::vector<uint32_t> Uncapped(Dev.NumSMs, LiveTargetUncapped);
  std::string Error;
  Dev.YieldTargets = deviceBuffer(Dev, Uncapped.data(),
                                  Uncapped.size() * sizeof(uint32_t), Error);
  if (!Dev.YieldTargets) {
    tell("stream priorities: SM-centric launches on device " +
         std::to_string(Dev.Ordinal) + " cannot yield SMs (" + Error +
         "); launches on higher-priority streams wait for them");
    Dev.YieldFailed = true;
    return;
  }
  Dev.YieldingLaunches.resize(YieldingLaunchSlots);
  Dev.Yielding.store(true, std::memory_order_release);
}

// Writes `Value` to the yield table's entries for `Sms`, in `Stream`'s
// order, without an SM (stream memory operations).
CUresult writeTargets(const DeviceState &Dev, const std::vector<unsigned> &Sms,
                      uint32_t Value, cudaStream_t Stream) {
  std::vector<CUstreamBatchMemOpParams> Ops(Sms.size());
  for (size_t I = 0; I < Sms.size(); ++I) {
    Ops[I] = CUstreamBatchMemOpParams{};
    Ops[I].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    Ops[I].writeValue.address =
        reinterpret_cast<CUdeviceptr>(Dev.YieldTargets + Sms[I]);
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

// CTAs of the launch that run on one SM at a time, and how many CTAs one
// launch of it has (a slice's, for slices).  Globals::Mutex held.
unsigned ctasPerSM(Prepared &P, const LaunchShape &Shape, uint64_t &Ctas) {
  Ctas = uint64_t(Shape.Grid.x) * Shape.Grid.y * Shape.Grid.z;
  if (P.Variant == Variant::SMCentric && P.Plan.Mode == SMC_MODE_LOOP)
    return P.Plan.Target;
  if (P.Variant == Variant::Slice)
    Ctas = std::min<uint64_t>(Ctas, P.Plan.SliceSize);
  Occupancy Occ;
  if (!occupancy(*P.Kernel, Shape.Block, Shape.SharedMem, *driver::api(), Occ))
    return 0;
  return unsigned(P.Variant == Variant::SMCentric ? Occ.Variant : Occ.Original);
}

// Globals::Mutex held.  A hold not in use (its urgent launch has given its
// SMs back), or a new one; null if no event can be made.
UrgentHold *freeHold(DeviceState &Dev) {
  for (std::unique_ptr<UrgentHold> &H : Dev.UrgentHolds)
    if (!H->Taking && !eventPending(H->Done))
      return H.get();
  auto H = std::make_unique<UrgentHold>();
  if (cudaEventCreateWithFlags(&H->Done, cudaEventDisableTiming) !=
      cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  Dev.UrgentHolds.push_back(std::move(H));
  return Dev.UrgentHolds.back().get();
}

// Globals::Mutex held.  Whether yielding launch Y may still run.  A slot
// found done is freed, so that its event is not queried again: a query of
// a completed event costs about 1.3 us on an H100 (bench/probes/
// driver_calls.cpp), and an urgent launch looked at every slot of the ring
// twice (an urgent launch call took 106 us of host time in smc_qos_bench
// --long-cta-us 10, against 34 us with a live partition set by hand).
bool stillYielding(YieldingLaunch &Y) {
  if (!Y.Source.P)
    return false;
  if (eventPending(Y.Done))
    return true;
  Y.Source.P = nullptr;
  return false;
}

// Globals::Mutex held.  Whether some yielding launch may still run.
bool yieldingInFlight(DeviceState &Dev) {
  bool Any = false;
  for (YieldingLaunch &Y : Dev.YieldingLaunches)
    Any |= stillYielding(Y);
  return Any;
}

// Globals::Mutex held.  Chooses the SMs an urgent launch takes and reserves
// a hold for them; false when it takes none (nothing yields now, or the
// launch fits nowhere).
bool takeSms(DeviceState &Dev, Prepared &P, const LaunchRequest &Req,
             const StreamKey &Key, std::vector<unsigned> &Sms,
             UrgentHold *&Hold) {
  if (!yieldingInFlight(Dev))
    return false;
  uint64_t Ctas = 0;
  unsigned PerSM = ctasPerSM(P, Req.Shape, Ctas);
  unsigned Count = urgentSmCount(Ctas, PerSM, Dev.NumSMs);
  if (Count == 0)
    return false;
  std::vector<bool> HeldByOthers(Dev.NumSMs, false);
  for (const std::unique_ptr<UrgentHold> &H : Dev.UrgentHolds)
    if (H->Stream != Key && (H->Taking || eventPending(H->Done)))
      for (unsigned Sm : H->Sms)
        HeldByOthers[Sm] = true;
  Hold = freeHold(Dev);
  if (!Hold)
    return false;
  Sms = pickUrgentSms(Count, HeldByOthers);
  Hold->Sms = Sms;
  Hold->Stream = Key;
  Hold->Taking = true;
  return true;
}

// The urgent launch itself: an SM-centric loop-mode launch confined to
// `Sms` (a prepared launch of its own), anything else as prepared.
cudaError_t launchOnSms(LaunchRequest &Req, int Device, Prepared &P,
                        const std::vector<unsigned> &Sms) {
  if (P.Variant != Variant::SMCentric || P.Plan.Mode != SMC_MODE_LOOP)
    return dispatchPrepared(P, Req);
  Req.ConfinedSms = &Sms;
  Prepared *Confined = prepare(Req, Device);
  cudaError_t Err =
      Confined ? dispatchPrepared(*Confined, Req) : launchOriginal(Req);
  Req.ConfinedSms = nullptr;
  return Err;
}

} // namespace

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

bool urgentLaunch(const Prepared &P, cudaStream_t Stream) {
  if (P.Urgent)
    return priorityMode() != PriorityMode::Off;
  return urgentStream(Stream);
}

bool yields(const Prepared &P, const LaunchRequest &Req) {
  return !Req.Urgent && !Req.Partition && !Req.ConfinedSms &&
         P.Plan.Mode == SMC_MODE_LOOP &&
         P.Device->Yielding.load(std::memory_order_acquire) &&
         priorityMode() != PriorityMode::Off;
}

void yieldIfAlwaysOn(DeviceState &Dev) {
  if (Dev.Yielding.load(std::memory_order_relaxed))
    return; // on for good
  PriorityMode Mode = priorityMode();
  if (Mode == PriorityMode::On ||
      (Mode == PriorityMode::Auto && urgentPolicySet()))
    startYielding(Dev);
}

cudaError_t launchUrgent(LaunchRequest &Req, int Device, Prepared &P) {
  DeviceState &Dev = *P.Device;
  Req.Urgent = true;
  cudaStream_t Stream = Req.effectiveStream();
  Globals &G = globals();
  std::vector<unsigned> Sms;
  UrgentHold *Hold = nullptr;
  {
    std::lock_guard<std::mutex> Lock(G.Mutex);
    if (priorityMode() == PriorityMode::Auto)
      startYielding(Dev);
    // SMC_STATS runs launches one at a time; a captured launch runs later,
    // when the table may say anything: neither takes SMs.
    cudaStreamCaptureStatus Capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(Stream, &Capture) != cudaSuccess) {
      cudaGetLastError(); // the launch itself reports a bad stream
      Capture = cudaStreamCaptureStatusActive;
    }
    StreamKey Key;
    bool Plain = stats::enabled() || Capture != cudaStreamCaptureStatusNone ||
                 !Dev.Yielding.load(std::memory_order_relaxed) ||
                 !streamKey(Stream, Key);
    if (Plain || !takeSms(Dev, P, Req, Key, Sms, Hold))
      Hold = nullptr;
  }
  if (!Hold)
    return dispatchPrepared(P, Req);

  CUresult Taken = writeTargets(Dev, Sms, 0, Stream);
  if (Taken != CUDA_SUCCESS)
    tellKernel(*P.Kernel, "cannot take SMs from yielding launches (" +
                              driver::resultText(Taken) +
                              "); it waits for room like any launch");
  cudaError_t Err = launchOnSms(Req, Device, P, Sms);
  bool Recorded = false;
  if (Taken == CUDA_SUCCESS) {
    CUresult Given = writeTargets(Dev, Sms, LiveTargetUncapped, Stream);
    if (Given != CUDA_SUCCESS) {
      // Give them back now rather than never.
      std::vector<uint32_t> Uncapped(Dev.NumSMs, LiveTargetUncapped);
      std::string Error;
      std::lock_guard<std::mutex> Lock(G.Mutex);
      copyToDevice(Dev, Dev.YieldTargets, Uncapped.data(),
                   Uncapped.size() * sizeof(uint32_t), Error);
    }
    Recorded = cudaEventRecord(Hold->Done, Stream) == cudaSuccess;
    if (!Recorded)
      cudaGetLastError();
  }
  std::lock_guard<std::mutex> Lock(G.Mutex);
  Hold->Taking = false;
  if (!Recorded)
    return Err;
  // Grow-back: the yielding launches in flight get workers on the SMs
  // again once the urgent launch has given them back.
  for (YieldingLaunch &Y : Dev.YieldingLaunches)
    if (stillYielding(Y))
      launchTopUp(Dev, Y.Source, uint32_t(Sms.size()) * Y.Source.P->Plan.Target,
                  Hold->Done,
                  /*PlanTargets=*/true);
  return Err;
}

void yieldingLaunched(Prepared &P, cudaStream_t Stream,
                      const SmcDescriptor &Desc, const LaunchRequest &Req) {
  DeviceState &Dev = *P.Device;
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  YieldingLaunch &Y = Dev.YieldingLaunches[Dev.NextYieldingLaunch++ %
                                           Dev.YieldingLaunches.size()];
  Y.Source.P = nullptr;
  if (!Y.Done && cudaEventCreateWithFlags(&Y.Done, cudaEventDisableTiming) !=
                     cudaSuccess) {
    cudaGetLastError();
    Y.Done = nullptr;
    return;
  }
  if (cudaEventRecord(Y.Done, Stream) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  if (!keepTopUpSource(Y.Source, P, Desc, Req))
    return;
  // It may start while urgent launches hold SMs, whose workers there would
  // retreat: it gets them back when those launches give the SMs back.
  for (const std::unique_ptr<UrgentHold> &H : Dev.UrgentHolds)
    if (!H->Taking && eventPending(H->Done))
      launchTopUp(Dev, Y.Source, uint32_t(H->Sms.size()) * P.Plan.Target,
                  H->Done, /*PlanTargets=*/true);
}

//===----------------------------------------------------------------------===//
// Public API (smc.h)
//===----------------------------------------------------------------------===//

void setPriorityMode(PriorityMode Mode) {
  ModeSet.store(int(Mode), std::memory_order_relaxed);
  policiesChanged(); // prepare() runs again, and starts yielding for On
}

} // namespace smc

// Streams created with a priority above the least turn yielding on for the
// current device (PriorityMode::Auto), before any launch on them.
extern "C" cudaError_t __smc_stream_create_with_priority(cudaStream_t *Stream,
                                                         unsigned int Flags,
                                                         int Priority) {
  cudaError_t Err = cudaStreamCreateWithPriority(Stream, Flags, Priority);
  if (Err != cudaSuccess || smc::smcDisabled() ||
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
  smc::Globals &G = smc::globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  if (smc::DeviceState *Dev = smc::deviceState(Device))
    smc::startYielding(*Dev);
  return Err;
}
