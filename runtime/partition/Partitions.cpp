//===- Partitions.cpp - Live SM partitions of streams ---------------------===//
//
// The partitions of each device's streams and the smc.h calls that change
// them; see Partitions.h.
//===----------------------------------------------------------------------===//
#include "partition/Partitions.h"

#include "base/Locks.h"
#include "base/Messages.h"
#include "core/ConfinedLaunches.h"
#include "core/Devices.h"
#include "core/Prepared.h"
#include "partition/PartitionRules.h"
#include "partition/TopUps.h"
#include "policy/Policies.h"
#include "smc/smc.h"

#include <algorithm>
#include <map>

namespace smc {

// A live SM partition of one stream on one device (smc::setStreamSMs).
// Never freed: launches in flight read its live targets.
struct StreamPartition {
  // Sorted, without duplicates; replaced (never changed) when it changes,
  // so that a launch decided under it keeps a consistent copy.
  std::shared_ptr<const std::vector<unsigned>> Sms;
  unsigned WorkersPerSM = 0; // 0: each kernel's policy decides
  // Device [NumSMs]: the live targets the workers of the stream's launches
  // read while they run.
  uint32_t *LiveTarget = nullptr;
  // Recorded after each launch on the stream: a launch is in flight while
  // it has not completed.  Null if no event could be made.
  cudaEvent_t LastLaunch = nullptr;
  bool Launched = false; // LastLaunch was recorded at least once
  bool Active = true;    // cleared by clearStreamSMs
  // The launch LastLaunch follows, if a top-up can join it.
  TopUpSource TopUp;
};

namespace {

// A device's partitions, by stream.
struct DevicePartitions {
  std::map<StreamKey, std::unique_ptr<StreamPartition>> ByStream;
};

// Partitions that exist on any device: while 0, launches skip the lookup.
std::atomic<unsigned> NumPartitions{0};

// The stream a program names: null is the legacy default stream.
cudaStream_t effectiveStream(cudaStream_t Stream) {
  return Stream ? Stream : cudaStreamLegacy;
}

// Writes a partition's live targets (the Partitions lock held).
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

// The device state and stream key of an API call's stream (no lock held).
// False with `Error` set when either cannot be had.
bool locate(cudaStream_t Stream, DeviceState *&Dev, StreamKey &Key,
            std::string &Error) {
  int Device = 0;
  cudaError_t Err = cudaGetDevice(&Device);
  if (Err != cudaSuccess) {
    Error = failed("cudaGetDevice", Err);
    return false;
  }
  Dev = lockedDeviceState(Device);
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
// NewWorkersPerSM).  The Partitions lock held.
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

// The partition of `Key` on `Dev`, active or not; null if none was ever
// set (the Partitions lock held).
StreamPartition *findPartition(DeviceState &Dev, const StreamKey &Key) {
  auto &ByStream = Dev.Rooms.get<DevicePartitions>().ByStream;
  auto It = ByStream.find(Key);
  return It == ByStream.end() ? nullptr : It->second.get();
}

} // namespace

void Partitions::propose(Launch &L, Ticket &T) {
  if (NumPartitions.load(std::memory_order_acquire) == 0)
    return;
  StreamKey Key;
  if (!streamKey(L.Stream, Key))
    return;
  DeviceState *Dev = lockedDeviceState(L.Device);
  if (!Dev)
    return;
  {
    Guard Lock(levelMutex<LockLevel::Partitions>());
    StreamPartition *Partition = findPartition(*Dev, Key);
    if (!Partition || !Partition->Active)
      return;
    T.Partition = Partition;
    T.Sms = Partition->Sms;
    L.confine(T.Sms.get(), Partition->WorkersPerSM);
    L.Decision.LiveTarget = Partition->LiveTarget;
  }
  LaunchDecision &D = L.Decision;
  D.Partitioned = true;
  D.SmsChosen = true;
  // Workers decide on leaving at batch ends only: one chunk per claim, so
  // that a partition takes effect at the next chunk boundary (with batches
  // of five 100 us chunks an urgent kernel waited 0.67 ms for its SMs
  // instead of 0.14).
  D.ClaimBatch = 1;
  // A tag lets a top-up grid join the launch when the partition grows
  // while it runs.
  D.Tagged = true;
}

void Partitions::after(Launch &L, Ticket &T, cudaError_t Err) {
  if (!T.Partition || !L.TriedVariant || Err != cudaSuccess ||
      L.capture() != Capture::None)
    return;
  StreamPartition &Partition = *T.Partition;
  Prepared &P = *L.current();
  Guard Lock(levelMutex<LockLevel::Partitions>());
  if (L.RanWorkers)
    confinedLaunched(*P.Device, L.Stream, *Partition.Sms);
  TopUpSource &Source = Partition.TopUp;
  Source.P = nullptr;
  if (!Partition.LastLaunch)
    return;
  if (cudaEventRecord(Partition.LastLaunch, L.Stream) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  Partition.Launched = true;
  if (L.Desc.launch_tag)
    keepTopUpSource(Source, L);
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
  DeviceState *Dev = nullptr;
  StreamKey Key;
  if (!locate(Stream, Dev, Key, Message))
    return Fail(Message);
  std::vector<uint32_t> Targets;
  if (!liveTargets(Sms, WorkersPerSM, Dev->NumSMs, Targets, Message))
    return Fail(Message);

  {
    Guard Lock(levelMutex<LockLevel::Partitions>());
    auto &ByStream = Dev->Rooms.get<DevicePartitions>().ByStream;
    std::unique_ptr<StreamPartition> &Slot = ByStream[Key];
    bool Created = !Slot;
    if (Created) {
      Slot = std::make_unique<StreamPartition>();
      Slot->Sms = std::make_shared<const std::vector<unsigned>>();
    }
    StreamPartition &Partition = *Slot;
    if (!writeLiveTargets(*Dev, Partition, Targets, Message)) {
      if (Created)
        ByStream.erase(Key);
      return Fail(Message);
    }
    if (Created &&
        cudaEventCreateWithFlags(&Partition.LastLaunch,
                                 cudaEventDisableTiming) != cudaSuccess) {
      cudaGetLastError();
      Partition.LastLaunch = nullptr; // launches are then sized as unconfined
    }
    std::vector<unsigned> Sorted = Sms;
    std::sort(Sorted.begin(), Sorted.end());
    Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
    std::shared_ptr<const std::vector<unsigned>> OldSms = Partition.Sms;
    unsigned OldWorkersPerSM = Partition.WorkersPerSM;
    bool WasActive = Partition.Active && !Created;
    Partition.Sms =
        std::make_shared<const std::vector<unsigned>>(std::move(Sorted));
    Partition.WorkersPerSM = WorkersPerSM;
    if (!WasActive)
      NumPartitions.fetch_add(1, std::memory_order_acq_rel);
    Partition.Active = true;
    if (WasActive) {
      if (inFlight(Partition))
        confinedSmsChanged(*Dev, Key, *Partition.Sms);
      topUp(*Dev, Partition, *OldSms, OldWorkersPerSM, *Partition.Sms,
            Partition.WorkersPerSM);
    }
  }
  policiesChanged();
  return true;
}

void clearStreamSMs(cudaStream_t Stream) {
  DeviceState *Dev = nullptr;
  StreamKey Key;
  std::string Message;
  if (!locate(Stream, Dev, Key, Message))
    return;
  {
    Guard Lock(levelMutex<LockLevel::Partitions>());
    StreamPartition *Found = findPartition(*Dev, Key);
    if (!Found || !Found->Active)
      return;
    StreamPartition &Partition = *Found;
    std::vector<uint32_t> Uncapped(Dev->NumSMs, LiveTargetUncapped);
    if (!writeLiveTargets(*Dev, Partition, Uncapped, Message))
      tell("smc::clearStreamSMs: " + Message +
           "; running launches keep the old SM set");
    // Running launches may now use every SM.
    std::vector<unsigned> AllSms(Dev->NumSMs);
    for (unsigned Sm = 0; Sm < Dev->NumSMs; ++Sm)
      AllSms[Sm] = Sm;
    topUp(*Dev, Partition, *Partition.Sms, Partition.WorkersPerSM, AllSms, 0);
    if (inFlight(Partition))
      confinedSmsChanged(*Dev, Key, AllSms);
    Partition.Active = false;
    Partition.TopUp.P = nullptr; // launches from now on are not partitioned
    NumPartitions.fetch_sub(1, std::memory_order_acq_rel);
  }
  policiesChanged();
}

} // namespace smc
