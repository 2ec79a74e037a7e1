//===- RuntimeState.h - What the parts of the SMC runtime share -*- C++ -*-===//
//
// The runtime's state and the functions its parts call across files.  A
// launch goes through them in this order:
//
//   LaunchEntry.cpp      __smc_launch_kernel(_ptsz), the thread-local cache
//                        of prepared launches, launch()
//   PreparedLaunch.cpp   prepare(): kernel + policy + device -> QueuePlan ->
//                        uploaded tables; launchPrepared(): the variant with
//                        its counter block, or the original as fallback
//   KernelRegistry.cpp   a kernel's CUfunction, names, __smc_info record,
//                        variants, attributes and occupancy
//   PolicyRegistry.cpp   which policy a kernel has (smc.h API, SMC_POLICY)
//   DeviceResources.cpp  per-device state: the runtime's stream, device
//                        buffers, counter blocks per stream and per capture,
//                        cudaDeviceReset
//   GraphExec.cpp        a counter block of its own for each executable
//                        graph's SM-centric kernel nodes
//   StatsLaunch.cpp      the SMC_STATS launch (Stats.cpp writes the file)
//   TraceLaunch.cpp      SMC_TRACE: trace blocks, launch numbers, the file
//                        (Trace.cpp makes its lines)
//   StreamPartition.cpp  live SM partitions, top-up grids
//   ConfinedLaunches.cpp worker grids of launches confined to SMs
//   Priorities.cpp       launches on higher-priority streams take SMs from
//                        yielding SM-centric launches
//   LocalityLaunch.cpp   policy locality: placements tried, fastest kept
//                        (LocalityChoice.h)
//   AutoLaunch.cpp       policy auto: the co-run scheduler decides each
//                        launch (AutoPolicy.h, CoRunScheduler.h)
//   Batch.cpp            smc::Batch: launches recorded, then run as slices
//                        co-scheduled on two lanes (KerneletModel.h,
//                        KerneletSearch.h)
//
// then runtime/device/SmcWorker.cu on the GPU.  Slow paths hold
// Globals::Mutex; the fast path (a cached prepared launch and counter block)
// takes no lock.  docs/DESIGN.md states the invariants the parts rely on.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_RUNTIMESTATE_H
#define SMC_RUNTIME_RUNTIMESTATE_H

#include "corun/AutoPolicy.h"
#include "corun/CoRunTrials.h"
#include "base/Driver.h"
#include "measure/KernelProfile.h"
#include "policy/PolicyText.h"
#include "plan/QueuePlan.h"
#include "smc/abi.h"
#include "smc/smc.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace smc {

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

// The grid, block and dynamic shared memory of a launch: with the kernel,
// device and policy, what a prepared launch is cached under.
struct LaunchShape {
  dim3 Grid;
  dim3 Block;
  size_t SharedMem = 0;

  bool operator==(const LaunchShape &O) const {
    return Grid.x == O.Grid.x && Grid.y == O.Grid.y && Grid.z == O.Grid.z &&
           Block.x == O.Block.x && Block.y == O.Block.y &&
           Block.z == O.Block.z && SharedMem == O.SharedMem;
  }
  // The shape, and a policy id, as an ordered key.
  std::array<uint64_t, 8> key(uint32_t PolicyId) const {
    return {Grid.x,  Grid.y,  Grid.z,    Block.x,
            Block.y, Block.z, SharedMem, PolicyId};
  }
};

struct StreamPartition;

constexpr uint32_t NoForcedPolicy = UINT32_MAX;

// One launch as the program made it (the arguments of cudaLaunchKernel).
struct LaunchRequest {
  const void *Func = nullptr;
  LaunchShape Shape;
  void **Args = nullptr;
  cudaStream_t Stream = nullptr;
  bool Ptsz = false; // through cudaLaunchKernel_ptsz
  // The live partition of the stream, if it has one (StreamPartition.cpp).
  StreamPartition *Partition = nullptr;
  bool Urgent = false; // on a stream of higher priority than the least
  // SMs the runtime confines this SM-centric launch to, sorted, with this
  // many workers per SM unless 0: an urgent launch's SMs (Priorities.cpp),
  // policy auto's share (AutoLaunch.cpp).
  const std::vector<unsigned> *ConfinedSms = nullptr;
  unsigned ConfinedWorkersPerSM = 0;
  // Policy auto: what the co-run scheduler chose and why (SMC_STATS).
  const std::string *AutoDecision = nullptr;
  // Policy locality: the trial this launch is, or what was chosen and why
  // (SMC_STATS).
  const std::string *LocalityChoice = nullptr;
  // Not NoForcedPolicy: the id of the policy this launch runs under,
  // whatever the kernel's (smc::Batch's slices and workers, Batch.cpp).
  uint32_t ForcedPolicyId = NoForcedPolicy;

  // The stream as the driver sees it: a null stream of the _ptsz entry is
  // the thread's per-thread stream, otherwise the legacy stream.
  cudaStream_t effectiveStream() const {
    if (Stream)
      return Stream;
    return Ptsz ? cudaStreamPerThread : cudaStreamLegacy;
  }
};

// Which stream, as the runtime tells streams apart: (StreamKind, id).
using StreamKey = std::pair<int, uint64_t>;

struct Prepared;

// The last SM-centric loop-mode launch on a partitioned stream, kept so
// that the runtime can add workers to it while it runs when the partition
// grows (a top-up grid, runtime/device/SmcWorker.cu "Grow-back").
struct TopUpSource {
  Prepared *P = nullptr; // null: the stream's last launch cannot be topped
                         // up
  SmcDescriptor Desc{};  // as launched: its tag, counters, live target
  std::vector<std::vector<char>> Args; // the kernel's arguments, copied
  dim3 Block;
  unsigned SharedMem = 0;
};

// A live SM partition of one stream on one device (smc::setStreamSMs).
// Never freed: launches in flight read its live targets.
struct StreamPartition {
  std::vector<unsigned> Sms; // sorted, without duplicates
  unsigned WorkersPerSM = 0; // 0: each kernel's policy decides
  // Device [NumSMs]: the live targets (LivePartition.h) the workers of the
  // stream's launches read while they run.
  uint32_t *LiveTarget = nullptr;
  // Recorded after each launch on the stream: a launch is in flight while
  // it has not completed.  Null if no event could be made.
  cudaEvent_t LastLaunch = nullptr;
  bool Launched = false; // LastLaunch was recorded at least once
  bool Active = true;    // cleared by clearStreamSMs
  // The launch LastLaunch follows, if a top-up can join it (Globals::Mutex).
  TopUpSource TopUp;
};

// A best-effort SM-centric launch that yields SMs to urgent launches
// (Priorities.cpp): what a top-up grid needs to give it workers again, and
// an event recorded after it (in flight until it completes).
struct YieldingLaunch {
  TopUpSource Source; // Source.P null: the slot is unused
  cudaEvent_t Done = nullptr;
};

// The SMs an urgent launch took, until `Done` (recorded after it gave them
// back) completes.
struct UrgentHold {
  std::vector<unsigned> Sms;
  StreamKey Stream;
  cudaEvent_t Done = nullptr;
  bool Taking = false; // between the choice of Sms and Done's recording
};

// The last launch of some kind on a stream, and an event recorded after it:
// while the event is pending, that launch (and all before it on the
// stream) may still run.
struct StreamFlight {
  StreamKey Stream;
  cudaEvent_t Done = nullptr;
  // Destroys the record's events when streamFlight() forgets it.
  void release() { cudaEventDestroy(Done); }
};

// The last confined launch of a stream (ConfinedLaunches.cpp): the SMs it
// holds.
struct ConfinedFlight : StreamFlight {
  std::vector<unsigned> Sms; // sorted
};

// The last launch of policy auto on a stream (AutoLaunch.cpp): the kernel
// and the SMs it was given.
struct AutoStreamFlight : StreamFlight {
  AutoFlight Flight;
  // Done was found complete: no need to ask again until it is recorded
  // again.  A query costs about 1 us (more for an event of another stream).
  bool Idle = true;
  // When Done was last found pending: it counts as pending for a while
  // after that without another query (AutoLaunch.cpp, PendingRecheck).
  std::chrono::steady_clock::time_point PendingAt;
  // The choice of its last launch, reused while the next launch matches.
  AutoMemo Memo;
  // The co-run trials its last launch was decided under (CoRunTrials.h),
  // which trial, and whether that launch counts for it: timed by TimedStart
  // and TimedEnd as kernel TrialKernel of the trials, while AutoState's
  // DecisionsVersion is still TrialsVersion (the trials still exist).
  CoRunTrials *Trials = nullptr;
  unsigned Trial = 0;
  size_t TrialKernel = 0;
  unsigned TrialsVersion = 0;
  bool Timed = false;
  cudaEvent_t TimedStart = nullptr, TimedEnd = nullptr; // made when needed
  void release() {
    StreamFlight::release();
    if (TimedStart)
      cudaEventDestroy(TimedStart);
    if (TimedEnd)
      cudaEventDestroy(TimedEnd);
  }
};

// Streams whose last launch a device keeps in one registry before it
// forgets those with nothing in flight.
constexpr size_t MaxStreamFlights = 64;

// The record of stream `Key` in `Flights` (StreamFlight or derived), made
// with a new event if missing; with MaxStreamFlights records already, those
// for which `StillRunning` is false are forgotten first.  Null if no event
// can be made.
template <typename Flight, typename Predicate>
Flight *streamFlight(std::vector<Flight> &Flights, const StreamKey &Key,
                     Predicate StillRunning) {
  for (Flight &F : Flights)
    if (F.Stream == Key)
      return &F;
  if (Flights.size() >= MaxStreamFlights) {
    auto Forget =
        std::remove_if(Flights.begin(), Flights.end(), [&](Flight &F) {
          if (StillRunning(F))
            return false;
          F.release();
          return true;
        });
    Flights.erase(Forget, Flights.end());
  }
  Flight F;
  F.Stream = Key;
  if (cudaEventCreateWithFlags(&F.Done, cudaEventDisableTiming) !=
      cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  Flights.push_back(std::move(F));
  return &Flights.back();
}

// A stream top-up grids run on, and an event recorded after its last one:
// a top-up grid runs until the launch it joined ends, so each one gets a
// lane whose previous grid has completed (up to MaxTopUpLanes).
struct TopUpLane {
  cudaStream_t Stream = nullptr;
  cudaEvent_t Done = nullptr;
};

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

// One device the process launches on.
struct DeviceState {
  int Ordinal = 0;
  unsigned NumSMs = 0; // num_slots of every plan on this device
  std::string Name;
  cudaStream_t Stream = nullptr; // the runtime's own non-blocking stream
  // Where top-up grids run (created as needed), non-blocking: never the
  // runtime's own stream, whose copies must not wait for kernels.
  std::vector<TopUpLane> TopUpLanes;
  unsigned NextTopUpLane = 0;
  size_t CounterWords = 0;  // words of one counter block
  uint32_t *Slab = nullptr; // zeroed counter blocks not yet handed out
  size_t SlabLeft = 0;
  // Counter blocks of streams, by (StreamKind, id).
  std::map<StreamKey, uint32_t *> StreamCounters;
  // Live partitions of streams (StreamPartition.cpp).
  std::map<StreamKey, std::unique_ptr<StreamPartition>> Partitions;
  uint32_t *StatsBlock = nullptr; // SMC_STATS only
  uint32_t *TraceBlock = nullptr; // SMC_TRACE only (TraceLaunch.cpp)
  // Priority yielding (Priorities.cpp).  Set once, after YieldTargets: the
  // SM-centric launches of best-effort streams yield SMs to urgent ones.
  std::atomic<bool> Yielding{false};
  // Device [NumSMs]: the live targets of yielding launches (0 on the SMs
  // urgent launches hold, LiveTargetUncapped elsewhere).
  uint32_t *YieldTargets = nullptr;
  bool YieldFailed = false; // the table could not be made: never yields
  std::vector<YieldingLaunch> YieldingLaunches; // a ring, never resized
  unsigned NextYieldingLaunch = 0;
  std::vector<std::unique_ptr<UrgentHold>> UrgentHolds;
  // Confined launches in flight, per stream (ConfinedLaunches.cpp).
  std::mutex ConfinedMutex;
  std::vector<ConfinedFlight> ConfinedFlights;
  // smc::Batch's two lanes, non-blocking, made on first use
  // (Globals::Mutex).
  cudaStream_t BatchLanes[2] = {nullptr, nullptr};
  // Launches of policy auto, per stream (AutoLaunch.cpp, under its lock).
  std::vector<AutoStreamFlight> AutoFlights;
};

struct KernelEntry;

// One launch configuration of a kernel under one policy, ready to launch.
struct Prepared {
  KernelEntry *Kernel = nullptr;
  DeviceState *Device = nullptr;
  Variant Variant = Variant::Original;
  std::string Reason; // why the original runs although the policy wants more
  CUfunction Function = nullptr;
  SmcDescriptor Desc{}; // tables filled in; counters and stats per launch
  uint32_t NumParams = 0;
  // The plan, without its tables (they live on the device, in desc).
  QueuePlan Plan;
  // A device table that wants the plan's target on every SM: a top-up
  // grid's slot_target (made on the first top-up, Globals::Mutex).
  uint32_t *TopUpTargets = nullptr;
  // The size of each kernel parameter (SM-centric loop mode; empty if the
  // driver could not say): what a top-up grid copies of a launch's args.
  std::vector<size_t> ParamSizes;
  // Set when a variant launch failed but the original then succeeded: from
  // then on this configuration runs the original.
  std::atomic<bool> VariantFailed{false};
  // Policy auto (Variant::Auto): the name of this configuration's profile
  // (AutoPolicy.h, profileName), and whether the user was told that it has
  // none (AutoLaunch.cpp's lock).
  std::string AutoName;
  bool AutoTold = false;
  // Its kernel's workers per SM are in AutoLaunch.cpp's table (fitOf).
  bool AutoFitKnown = false;
  // Policy locality (Variant::Locality, LocalityLaunch.cpp): the placement
  // chosen for this configuration once its trials are in (null before),
  // and the trials (under LocalityLaunch.cpp's lock).
  std::atomic<Prepared *> LocalityChosen{nullptr};
  std::shared_ptr<struct LocalityTuning> LocalityTuning;
  // The policy marks every launch urgent (Policy::urgent).
  bool Urgent = false;
  // The policy's chunk order (SMC_STATS records it).
  ChunkOrder Order = ChunkOrder::Interleaved;
  // A loop-mode SM-centric configuration confined to some of the device's
  // SMs: those SMs, sorted (ConfinedLaunches.cpp); empty when it may use
  // every SM.
  std::vector<unsigned> ConfinedSms;
};

// Per SM: original CTAs and __smc workers that fit at one block size and
// dynamic shared memory.
struct Occupancy {
  int Original = 0;
  int Variant = 0;
};

// A kernel (host symbol) on one device.
struct KernelEntry {
  const void *Symbol = nullptr;
  DeviceState *Device = nullptr;
  CUfunction Original = nullptr;
  CUfunction Smc = nullptr;
  CUfunction Slice = nullptr;
  std::string Mangled;
  std::string Source;
  SmcKernelInfo Info{};
  // Non-empty: why no variant of this kernel can run.
  std::string InfoProblem;
  // Non-empty: why the __smc / __slice variant the info promises is unusable.
  std::string SmcProblem;
  std::string SliceProblem;
  // The policy resolved at PolicyEpoch, as an index into Globals::Policies.
  uint64_t PolicyEpoch = UINT64_MAX;
  uint32_t PolicyId = 0;
  std::map<std::pair<uint64_t, size_t>, Occupancy> Occupancy;
  // By LaunchShape::key.
  std::map<std::array<uint64_t, 8>, std::unique_ptr<Prepared>> Prepared;
};

// Everything shared between threads, guarded by `mutex` unless noted.  Never
// destroyed, so launches from static destructors still find it.
struct Globals {
  std::mutex Mutex;
  std::unordered_map<const void *, Policy> SymbolPolicies;
  std::vector<PolicyRule> NamePolicies;
  std::vector<Policy> Policies; // interned: a policy's index is its id
  std::vector<std::unique_ptr<DeviceState>> Devices;
  std::map<std::pair<const void *, int>, std::unique_ptr<KernelEntry>> Kernels;
  // __smc variants by CUfunction, for finding their graph nodes.
  std::map<CUfunction, KernelEntry *> SmcVariants;
  // Counter blocks some executable graph's node uses (GraphExec.cpp).
  std::set<std::pair<const DeviceState *, uint32_t *>> GraphCounters;
  // State of devices that were reset: kept, as other threads' caches may
  // still point into it (it is never used again).
  std::vector<std::unique_ptr<DeviceState>> RetiredDevices;
  std::vector<std::unique_ptr<KernelEntry>> RetiredKernels;

  std::mutex StatsMutex; // held across launch and read-back with SMC_STATS

  std::mutex MessageMutex; // guards `told`
  std::set<std::string> Told;
};

Globals &globals();

// Set when the driver API is unavailable: every launch runs the original.
extern std::atomic<bool> ForwardAll;

//===----------------------------------------------------------------------===//
// Messages, environment, CUDA helpers (RuntimeState.cpp)
//===----------------------------------------------------------------------===//

// Prints "smc: <line>" to stderr, once per distinct line.
void tell(const std::string &Line);
// Once per kernel and text: "smc: kernel 'vecAdd': <what>".
void tellKernel(const KernelEntry &K, const std::string &What);

// SMC_DISABLE=1: every launch goes straight to the original.
bool smcDisabled();

// "<what> failed: cudaErrorX", clearing the error so that a failed call of
// ours never becomes the program's last error.
std::string failed(const char *What, cudaError_t Err);

// Whether `Stream` has no work left (cudaStreamQuery); an error counts as
// busy and is cleared (the launch itself will report it).
bool streamIdle(cudaStream_t Stream);

// Whether the work recorded before `Event` may still run: false for a null
// event, one never recorded, one completed, or an error (which is cleared).
// A query that finds the event not ready leaves no error behind.
bool eventPending(cudaEvent_t Event);

// Makes the runtime's own CUDA calls legal while some stream of the process
// is capturing (cudaStreamCaptureModeRelaxed for this thread), restoring
// the thread's mode afterwards.
class RelaxedCaptureMode {
public:
  RelaxedCaptureMode();
  ~RelaxedCaptureMode();
  RelaxedCaptureMode(const RelaxedCaptureMode &) = delete;
  RelaxedCaptureMode &operator=(const RelaxedCaptureMode &) = delete;

private:
  cudaStreamCaptureMode Saved;
  bool Active;
};

//===----------------------------------------------------------------------===//
// Policies (PolicyRegistry.cpp), Globals::Mutex held unless noted
//===----------------------------------------------------------------------===//

// The epoch every policy change bumps (no lock needed).
uint64_t currentPolicyEpoch();
// Globals::Mutex held.  Whether a policy with `urgent` is set, by the API or
// SMC_POLICY.
bool urgentPolicySet();
// Makes every cached prepared launch stale (no lock needed).
void policiesChanged();
// The id of the policy `k` has now (SMC_POLICY parsed on first use).
uint32_t policyIdOf(const KernelEntry &K);
// The id of policy `Id` with the SM set and workers of `Partition` (an
// SM-centric policy; others are returned unchanged).
uint32_t partitionedPolicyId(uint32_t Id, const StreamPartition &Partition);
// The id of policy `Id` confined to the SMs `Sms`, with `WorkersPerSM`
// workers per SM unless 0 (an SM-centric policy, or auto, which becomes the
// default SM-centric one; others are returned unchanged).
uint32_t confinedPolicyId(uint32_t Id, const std::vector<unsigned> &Sms,
                          unsigned WorkersPerSM = 0);
// The id of `P` (interned).
uint32_t policyIdFor(const Policy &P);
const Policy &policyById(uint32_t Id);

//===----------------------------------------------------------------------===//
// Device resources (DeviceResources.cpp), Globals::Mutex held unless noted
//===----------------------------------------------------------------------===//

// The state of device `ordinal`, created on first use.  Null if the device
// cannot be used.
DeviceState *deviceState(int Ordinal);

// Device memory of `bytes`, filled from `host` or zeroed if host is null,
// through the device's own stream.  Null with `error` set on failure.
uint32_t *deviceBuffer(DeviceState &Dev, const void *Host, size_t Bytes,
                       std::string &Error);

// Copies `Bytes` from `Host` (or zeroes them if it is null) to `Ptr` through
// the device's own non-blocking stream, and waits for the copy only: it
// completes while kernels run.  False with `Error` set on failure.
bool copyToDevice(DeviceState &Dev, void *Ptr, const void *Host, size_t Bytes,
                  std::string &Error);

// A zeroed counter block no one else has, or null (and told why).
uint32_t *newCounterBlock(DeviceState &Dev);

// Points the descriptor's worker_count, queue_next and launch_counters at
// `block`, a counter block of a device with `NumSMs` SMs (no lock needed).
void useCounterBlock(SmcDescriptor &Desc, uint32_t *Block, unsigned NumSMs);

// No lock needed.  Which stream `Stream` (not null) is.  False if the
// stream cannot be identified.
bool streamKey(cudaStream_t Stream, StreamKey &Key);

// No lock needed.  The counter block of a stream that is not capturing,
// cached per thread.  Null if the stream cannot be identified
// (`AllocFailed` false: the launch itself will fail) or no block can be
// allocated (`AllocFailed` true).
uint32_t *streamCounters(DeviceState &Dev, cudaStream_t Stream,
                         bool &AllocFailed);

// No lock needed.  A counter block for one launch into a capturing stream:
// never reused by streams.  Null if none can be allocated.
uint32_t *captureCounters(DeviceState &Dev);

// Retires what the runtime keeps for the current device, ahead of
// cudaDeviceReset (no lock needed).
void retireCurrentDevice();

//===----------------------------------------------------------------------===//
// Live partitions (StreamPartition.cpp), no lock held
//===----------------------------------------------------------------------===//

// The live partition of the stream `Stream` (not null) on `Device`, or null.
// Costs one atomic load while no stream has a partition.
StreamPartition *streamPartition(int Device, cudaStream_t Stream);

// A tag for a launch on a partitioned stream (SmcDescriptor::launch_tag).
uint32_t nextLaunchTag();

// After a launch on a partitioned stream of `Dev` (not capturing): records
// that it is in flight, that it holds the partition's SMs if `HoldsSms` (an
// SM-centric loop-mode launch; confinedLaunched), and what a top-up grid
// needs to join it (`P` and `Desc` as launched; P null when it cannot be
// topped up).
void partitionLaunched(StreamPartition &Partition, cudaStream_t Stream,
                       DeviceState &Dev, bool HoldsSms, Prepared *P,
                       const SmcDescriptor &Desc, const LaunchRequest &Req);

// What a top-up grid needs of a launch: `P` and `Desc` as launched, and a
// copy of its arguments.  False when `P` cannot be topped up (the driver
// did not say how large its parameters are).
bool keepTopUpSource(TopUpSource &Source, Prepared &P,
                     const SmcDescriptor &Desc, const LaunchRequest &Req);

// Launches a top-up grid of `Workers` workers that joins the launch
// `Source` describes if it is running then (grow-back), after `After`
// (if not null) completes, on a top-up lane.  Its workers want the launch's
// own per-SM targets (`PlanTargets`: an SM set of the policy still holds),
// or the plan's target on every SM (a partition that grew: the launch's
// table has 0 on the SMs it gained).  Says once why when it cannot.
// Globals::Mutex held.
void launchTopUp(DeviceState &Dev, const TopUpSource &Source, uint32_t Workers,
                 cudaEvent_t After, bool PlanTargets);

//===----------------------------------------------------------------------===//
// Confined launches (ConfinedLaunches.cpp), no lock held unless noted
//===----------------------------------------------------------------------===//

// The worker grid of a loop-mode launch of `P` (P.ConfinedSms not empty) on
// `Stream` (not capturing): LivePartition.h's confinedGrid, from whether
// the stream is idle and the SMs other streams' confined launches in flight
// hold.
uint32_t confinedLaunchGrid(const Prepared &P, cudaStream_t Stream);

// After a confined loop-mode launch on `Stream` (not capturing), or any
// launch on a partitioned stream: records that it holds `Sms` (sorted)
// until it completes.
void confinedLaunched(DeviceState &Dev, cudaStream_t Stream,
                      const std::vector<unsigned> &Sms);

// The SMs the confined launch in flight on `Stream` holds now (a live
// partition changed).
void confinedSmsChanged(DeviceState &Dev, const StreamKey &Stream,
                        const std::vector<unsigned> &Sms);

//===----------------------------------------------------------------------===//
// Stream priorities (Priorities.cpp)
//===----------------------------------------------------------------------===//

// No lock needed.  Whether a launch on `Stream` (the effective stream) is
// urgent: the stream has a higher priority than the least, and yielding is
// not off.
bool urgentStream(cudaStream_t Stream);

// No lock needed.  Whether a launch of `P` on `Stream` is urgent: its
// policy says so (Policy::urgent) or its stream does (urgentStream), and
// yielding is not off.
bool urgentLaunch(const Prepared &P, cudaStream_t Stream);

// Launches an urgent request whose prepared launch is `P`: takes SMs from
// the yielding launches in flight for it, and gives them back after it.
cudaError_t launchUrgent(LaunchRequest &Req, int Device, Prepared &P);

// No lock needed.  Whether an SM-centric launch of `P` on a best-effort
// stream yields (its descriptor then points at Dev.YieldTargets).
bool yields(const Prepared &P, const LaunchRequest &Req);

// After a yielding launch (not capturing): records it so that urgent
// launches can give it workers back.
void yieldingLaunched(Prepared &P, cudaStream_t Stream,
                      const SmcDescriptor &Desc, const LaunchRequest &Req);

// Globals::Mutex held.  Starts yielding on `Dev` if the mode is On, or
// Auto and a policy with `urgent` is set (yielding, once on, stays on).
void yieldIfAlwaysOn(DeviceState &Dev);

//===----------------------------------------------------------------------===//
// Policy auto (AutoLaunch.cpp), no lock held
//===----------------------------------------------------------------------===//

// Launches a request whose prepared launch is `P` (Variant::Auto): the
// original, or the SM-centric variant on the SMs the co-run scheduler gives
// it beside the launches of policy auto in flight.
cudaError_t launchAuto(LaunchRequest &Req, int Device, Prepared &P);

//===----------------------------------------------------------------------===//
// Policy locality (LocalityLaunch.cpp), no lock held
//===----------------------------------------------------------------------===//

// Launches a request whose prepared launch is `P` (Variant::Locality): a
// timed trial of one of the placements LocalityChoice.h lists while the
// configuration's trials run, then the placement chosen.
cudaError_t launchLocality(LaunchRequest &Req, int Device, Prepared &P);

//===----------------------------------------------------------------------===//
// Kernels (KernelRegistry.cpp), Globals::Mutex held
//===----------------------------------------------------------------------===//

// The entry of a kernel on a device, created on first use.  Null when the
// symbol is not a kernel the runtime can see (the original launch then
// reports the error).
KernelEntry *kernelEntry(const void *Symbol, DeviceState &Dev,
                         const driver::Api &Api);

// Gives `variant` the original's dynamic shared memory limit (when the
// launch needs more than the default) and shared memory carveout.
bool matchAttributes(const KernelEntry &K, CUfunction Variant, size_t SharedMem,
                     const driver::Api &Api, std::string &Error);

// The sizes of `Function`'s first `Count` parameters.  False, with the
// driver's `Result`, if it cannot tell.  No lock needed.
bool paramSizes(CUfunction Function, uint32_t Count, const driver::Api &Api,
                std::vector<size_t> &Sizes, CUresult &Result);

// Copies of a launch's argument values (each `Sizes[i]` bytes at
// `Args[i]`), which outlive the launch call: what a graph node or a top-up
// grid is given.  No lock needed.
std::vector<std::vector<char>> copyArgs(void *const *Args,
                                        const std::vector<size_t> &Sizes);

// Occupancy of the original and the __smc variant, cached per block size
// and shared memory.  False if the driver rejects the shape.
bool occupancy(KernelEntry &K, dim3 Block, size_t SharedMem,
               const driver::Api &Api, Occupancy &Out);

//===----------------------------------------------------------------------===//
// Prepared launches (PreparedLaunch.cpp), no lock held
//===----------------------------------------------------------------------===//

// A launch as the program made it: the runtime's whole launch path
// (LaunchEntry.cpp).
cudaError_t launchRequest(LaunchRequest Req);

// The profiles loaded (SMC_PROFILE, smc::loadProfiles), a copy
// (AutoLaunch.cpp).
ProfileSet loadedProfiles();

// Whether this thread records its launches into an smc::Batch, and the
// recording of one (Batch.cpp).
bool batchRecording();
cudaError_t recordIntoBatch(const LaunchRequest &Req);

// Launches Req as the prepared launch P: urgent where its stream or policy
// says so (Priorities.cpp), else dispatchPrepared.  No lock held.
cudaError_t dispatchWithPriority(Prepared &P, LaunchRequest &Req, int Device);
// The prepared launch of a request's configuration (slow path).  Null when
// the launch should be forwarded to the original uncached.
Prepared *prepare(const LaunchRequest &Req, int Device);
// The same for the request run under `Placement` whatever the kernel's
// policy (smc::Batch's workers, policy locality's candidates).  No lock
// held.
Prepared *prepareUnder(LaunchRequest Req, const Policy &Placement, int Device);

// The original kernel, as the program asked.
cudaError_t launchOriginal(const LaunchRequest &Req);

// The original for a prepared launch, recorded with SMC_STATS.
cudaError_t runOriginal(Prepared &P, const char *Reason,
                        const LaunchRequest &Req);

// Launches a prepared SMCentric or Slice configuration.
cudaError_t launchPrepared(Prepared &P, const LaunchRequest &Req);

// Launches what `P` says: the original (its reason recorded with
// SMC_STATS), or the variant through launchPrepared.
cudaError_t dispatchPrepared(Prepared &P, const LaunchRequest &Req);

// Launches the prepared variant with `desc` on `stream` (`Capturing`: the
// stream is being captured).  For slices, `FailedSlice` is the index of the
// slice whose launch failed.
CUresult launchVariant(const Prepared &P, SmcDescriptor &Desc,
                       const LaunchRequest &Req, cudaStream_t Stream,
                       bool Capturing, uint32_t &FailedSlice);

// After a variant launch failed: the original if nothing ran yet, an error
// if some slices already ran (running them again would break exactly-once).
cudaError_t afterVariantFailure(Prepared &P, CUresult Result,
                                uint32_t FailedSlice, const LaunchRequest &Req);

// "smc", "slice" or "original".
const char *variantName(Variant V);

//===----------------------------------------------------------------------===//
// SMC_TRACE (TraceLaunch.cpp), no lock needed unless noted.  Whether
// SMC_TRACE names a file (read once).
bool traceEnabled();
// Makes device Dev's trace block as its state is made (Globals::Mutex
// held); on failure it has none and the user is told.
void makeTraceBlock(DeviceState &Dev);
// Gives an SM-centric launch the next launch number and its device's trace
// block, if it has one.
void traceLaunch(const Prepared &P, SmcDescriptor &Desc);

// SMC_STATS (StatsLaunch.cpp)
//===----------------------------------------------------------------------===//

// Launches `p` with a zeroed statistics block, waits for the launch and
// records what the variant counted.  Serializes launches.
cudaError_t launchWithStats(Prepared &P, SmcDescriptor &Desc, bool Capturing,
                            const LaunchRequest &Req, cudaStream_t Stream);

// Records a launch of the original (reason, error) with SMC_STATS.
void recordOriginal(const Prepared &P, const LaunchRequest &Req,
                    const char *Reason, cudaError_t Err);

} // namespace smc

#endif // SMC_RUNTIME_RUNTIMESTATE_H
