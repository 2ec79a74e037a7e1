//===- StreamPartition.cpp - Live SM partitions of streams ----------------===//
//
// smc::setStreamSMs and smc::clearStreamSMs, and what a launch on a
// partitioned stream needs from them.  A partition has a table of live
// targets on the device (LivePartition.h) that every SM-centric launch on
// the stream points its descriptor at: setStreamSMs rewrites the table
// through the device's own non-blocking stream while launches run, and
// their workers follow it at chunk boundaries (runtime/device/SmcWorker.cu).
// A launch on a partitioned stream plans its queues for the partition's SMs
// (the policy's SM set and workers replaced) and is sized like every
// confined launch (ConfinedLaunches.cpp).
// When setStreamSMs grows a partition while the stream's last launch runs,
// a top-up grid of as many workers as the new SMs (or higher per-SM count)
// allow joins that launch (grow-back, runtime/device/SmcWorker.cu).
//===----------------------------------------------------------------------===//
#include "partition/PartitionRules.h"
#include "core/RuntimeState.h"

#include <algorithm>

namespace smc {
namespace {

// Partitions that exist on any device: while 0, launches skip the lookup.
std::atomic<unsigned> NumPartitions{0};

// Launch tags handed out (SmcDescriptor::launch_tag).
std::atomic<uint32_t> LaunchTags{0};
// Tags are 1 to 2^23 - 1: the JOIN word has 23 bits for them, 0 is none.
constexpr uint32_t NumLaunchTags = (1u << 23) - 1u;

// The stream a program names: null is the legacy default stream.
cudaStream_t effectiveStream(cudaStream_t Stream) {
  return Stream ? Stream : cudaStreamLegacy;
}

// Writes a partition's live targets (Globals::Mutex held).
bool writeLiveTargets(DeviceState &Dev, StreamPartition &Partition,
                      const std::vector<uint32_t> &Targets,
                      std::string &Error) {
  size_t Bytes = Targets.size() * sizeof(uint32_t);
  if (!Partition.LiveTarget) {
    Partition.LiveTarget = deviceBuffer(Dev, Targets.data(), Bytes, Error);
    return Partition.LiveTarget != nullptr;
  }
  return copyToDevice(Dev, Partition.LiveTarget, Targets.data(), Bytes, Error);
}

// The device state and stream key of an API call's stream (Globals::Mutex
// held).  False with `Error` set when either cannot be had.
bool locate(cudaStream_t Stream, DeviceState *&Dev, StreamKey &Key,
            std::string &Error) {
  int Device = 0;
  cudaError_t Err = cudaGetDevice(&Device);
  if (Err != cudaSuccess) {
    Error = failed("cudaGetDevice", Err);
    return false;
  }
  Dev = deviceState(Device);
  if (!Dev) {
    Error = "device " + std::to_string(Device) + " cannot be used";
    return false;
  }
  if (!streamKey(effectiveStream(Stream), Key)) {
    Error = "the stream cannot be identified";
    return false;
  }
  return true;
}

bool inFlight(const StreamPartition &Partition) {
  return Partition.Launched && eventPending(Partition.LastLaunch);
}

// Grow-back: adds a top-up grid to the stream's launch in flight for what
// the partition gains going from (OldSms, OldWorkersPerSM) to (NewSms,
// NewWorkersPerSM).  Globals::Mutex held.
void topUp(DeviceState &Dev, StreamPartition &Partition,
           const std::vector<unsigned> &OldSms, unsigned OldWorkersPerSM,
           const std::vector<unsigned> &NewSms, unsigned NewWorkersPerSM) {
  TopUpSource &Source = Partition.TopUp;
  if (!Source.P || !inFlight(Partition))
    return;
  uint32_t Workers = grownWorkers(OldSms, OldWorkersPerSM, NewSms,
                                  NewWorkersPerSM, Source.P->Plan.Target);
  if (Workers != 0)
    launchTopUp(Dev, Source, Workers, nullptr, /*PlanTargets=*/false);
}

// A top-up lane whose last grid has completed, or a new one (up to
// MaxTopUpLanes, then the next in turn); null with `Error` set if none can
// be made.
constexpr size_t MaxTopUpLanes = 8;
TopUpLane *freeTopUpLane(DeviceState &Dev, std::string &Error) {
  for (TopUpLane &Lane : Dev.TopUpLanes)
    if (!eventPending(Lane.Done))
      return &Lane;
  if (Dev.TopUpLanes.size() < MaxTopUpLanes) {
    TopUpLane Lane;
    cudaError_t Err =
        cudaStreamCreateWithFlags(&Lane.Stream, cudaStreamNonBlocking);
    if (Err == cudaSuccess) {
      Err = cudaEventCreateWithFlags(&Lane.Done, cudaEventDisableTiming);
      if (Err == cudaSuccess) {
        Dev.TopUpLanes.push_back(Lane);
        return &Dev.TopUpLanes.back();
      }
      cudaStreamDestroy(Lane.Stream);
    }
    if (Dev.TopUpLanes.empty()) {
      Error = failed("creating a stream for top-up grids", Err);
      return nullptr;
    }
    cudaGetLastError();
  }
  return &Dev.TopUpLanes[Dev.NextTopUpLane++ % Dev.TopUpLanes.size()];
}

} // namespace

bool keepTopUpSource(TopUpSource &Source, Prepared &P,
                     const SmcDescriptor &Desc, const LaunchRequest &Req) {
  Source.P = nullptr;
  if (P.ParamSizes.size() != P.NumParams)
    return false;
  Source.Args = copyArgs(Req.Args, P.ParamSizes);
  Source.P = &P;
  Source.Desc = Desc;
  Source.Block = Req.Shape.Block;
  Source.SharedMem = unsigned(Req.Shape.SharedMem);
  return true;
}

void launchTopUp(DeviceState &Dev, const TopUpSource &Source, uint32_t Workers,
                 cudaEvent_t After, bool PlanTargets) {
  // Prepared launches are never freed.
  Prepared &P = *Source.P;
  auto Fail = [&](const std::string &Why) {
    tellKernel(*P.Kernel, "cannot add workers to a running launch: " + Why);
  };
  std::string Error;
  if (!PlanTargets && !P.TopUpTargets) {
    std::vector<uint32_t> Table(Dev.NumSMs, P.Plan.Target);
    P.TopUpTargets =
        deviceBuffer(Dev, Table.data(), Table.size() * sizeof(uint32_t), Error);
    if (!P.TopUpTargets)
      return Fail(Error);
  }
  TopUpLane *Lane = freeTopUpLane(Dev, Error);
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
    Desc.slot_target = P.TopUpTargets;
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

uint32_t nextLaunchTag() {
  return LaunchTags.fetch_add(1, std::memory_order_relaxed) % NumLaunchTags +
         1u;
}

StreamPartition *streamPartition(int Device, cudaStream_t Stream) {
  if (NumPartitions.load(std::memory_order_acquire) == 0)
    return nullptr;
  StreamKey Key;
  if (!streamKey(Stream, Key))
    return nullptr;
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  if (size_t(Device) >= G.Devices.size() || !G.Devices[Device])
    return nullptr;
  auto &Partitions = G.Devices[Device]->Partitions;
  auto It = Partitions.find(Key);
  return It != Partitions.end() && It->second->Active ? It->second.get()
                                                      : nullptr;
}

void partitionLaunched(StreamPartition &Partition, cudaStream_t Stream,
                       DeviceState &Dev, bool HoldsSms, Prepared *P,
                       const SmcDescriptor &Desc, const LaunchRequest &Req) {
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  if (HoldsSms)
    confinedLaunched(Dev, Stream, Partition.Sms);
  TopUpSource &Source = Partition.TopUp;
  Source.P = nullptr;
  if (!Partition.LastLaunch)
    return;
  if (cudaEventRecord(Partition.LastLaunch, Stream) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  Partition.Launched = true;
  if (P)
    keepTopUpSource(Source, *P, Desc, Req);
}

//===----------------------------------------------------------------------===//
// Public API (smc.h)
//===----------------------------------------------------------------------===//

bool setStreamSMs(cudaStream_t Stream, const std::vector<unsigned> &Sms,
                  unsigned WorkersPerSM, std::string *Error) {
  std::string Message;
  auto Fail = [&](const std::string &What) {
    if (Error)
      *Error = "smc::setStreamSMs: " + What;
    return false;
  };
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  DeviceState *Dev = nullptr;
  StreamKey Key;
  if (!locate(Stream, Dev, Key, Message))
    return Fail(Message);
  std::vector<uint32_t> Targets;
  if (!liveTargets(Sms, WorkersPerSM, Dev->NumSMs, Targets, Message))
    return Fail(Message);

  std::unique_ptr<StreamPartition> &Slot = Dev->Partitions[Key];
  bool Created = !Slot;
  if (Created)
    Slot = std::make_unique<StreamPartition>();
  StreamPartition &Partition = *Slot;
  if (!writeLiveTargets(*Dev, Partition, Targets, Message)) {
    if (Created)
      Dev->Partitions.erase(Key);
    return Fail(Message);
  }
  if (Created &&
      cudaEventCreateWithFlags(&Partition.LastLaunch, cudaEventDisableTiming) !=
          cudaSuccess) {
    cudaGetLastError();
    Partition.LastLaunch = nullptr; // launches are then sized as unconfined
  }
  std::vector<unsigned> Sorted = Sms;
  std::sort(Sorted.begin(), Sorted.end());
  Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
  std::vector<unsigned> OldSms = std::move(Partition.Sms);
  unsigned OldWorkersPerSM = Partition.WorkersPerSM;
  bool WasActive = Partition.Active && !Created;
  Partition.Sms = std::move(Sorted);
  Partition.WorkersPerSM = WorkersPerSM;
  if (!WasActive)
    NumPartitions.fetch_add(1, std::memory_order_acq_rel);
  Partition.Active = true;
  if (WasActive) {
    if (inFlight(Partition))
      confinedSmsChanged(*Dev, Key, Partition.Sms);
    topUp(*Dev, Partition, OldSms, OldWorkersPerSM, Partition.Sms,
          Partition.WorkersPerSM);
  }
  policiesChanged();
  return true;
}

void clearStreamSMs(cudaStream_t Stream) {
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  DeviceState *Dev = nullptr;
  StreamKey Key;
  std::string Message;
  if (!locate(Stream, Dev, Key, Message))
    return;
  auto It = Dev->Partitions.find(Key);
  if (It == Dev->Partitions.end() || !It->second->Active)
    return;
  StreamPartition &Partition = *It->second;
  std::vector<uint32_t> Uncapped(Dev->NumSMs, LiveTargetUncapped);
  if (!writeLiveTargets(*Dev, Partition, Uncapped, Message))
    tell("smc::clearStreamSMs: " + Message +
         "; running launches keep the old SM set");
  // Running launches may now use every SM.
  std::vector<unsigned> AllSms(Dev->NumSMs);
  for (unsigned Sm = 0; Sm < Dev->NumSMs; ++Sm)
    AllSms[Sm] = Sm;
  topUp(*Dev, Partition, Partition.Sms, Partition.WorkersPerSM, AllSms, 0);
  if (inFlight(Partition))
    confinedSmsChanged(*Dev, Key, AllSms);
  Partition.Active = false;
  Partition.TopUp.P = nullptr; // launches from now on are not partitioned
  NumPartitions.fetch_sub(1, std::memory_order_acq_rel);
  policiesChanged();
}

} // namespace smc
