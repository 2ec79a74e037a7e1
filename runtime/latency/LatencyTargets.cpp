//===- LatencyTargets.cpp - Kernels with a p99 target ---------------------===//
//
// Each device's searches and the launches they time; see LatencyTargets.h.
//===----------------------------------------------------------------------===//
#include "latency/LatencyTargets.h"

#include "base/Locks.h"
#include "core/Devices.h"
#include "core/Kernels.h"
#include "core/Prepared.h"
#include "latency/LatencySearch.h"
#include "policy/Policies.h"
#include "priority/Priorities.h"
#include "priority/Reserve.h"

#include <atomic>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>

namespace smc {

// A kernel's search on one device and its timed launches in flight, oldest
// first (the Latency lock).
struct KernelLatency {
  struct Timed {
    Stopwatch Watch;
    uint64_t Epoch = 0;
  };
  const KernelEntry *Kernel = nullptr; // never freed: tickets point here
  LatencySearch Search; // with the target (none before the first launch)
  std::deque<Timed> InFlight;
  uint64_t Generation = 0; // bumped by a new target
  // What the program was told already (each kind once per target).
  struct {
    bool Room = false, Probe = false, MetTaking = false, Missed = false;
  } Told;
};

namespace {

// At most this many timed launches wait to be read; beyond, launches run
// untimed until the oldest complete.
constexpr size_t MostInFlight = 256;

// A device's kernels with a target (the Latency lock, except the atomics).
struct LatencyRoom {
  std::atomic<bool> Any{false}; // a kernel with a target launched here
  // The policy epoch at which the kernels' targets were last compared with
  // their policies.
  std::atomic<uint64_t> CheckedEpoch{UINT64_MAX};
  std::map<const KernelEntry *, std::unique_ptr<KernelLatency>> Kernels;
  // A policy id -> the same policy with `reserve`.
  std::map<uint32_t, uint32_t> Reserved;
};

OrderedMutex &latencyMutex() { return levelMutex<LockLevel::Latency>(); }

std::string micros(double Us) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.1f us", Us);
  return Text;
}

// The target as given, and what it came to in a verdict (Bound > 0).
std::string targetText(const LatencyTarget &T, double Bound = 0) {
  if (T.Micros > 0)
    return micros(T.Micros);
  char Ratio[32];
  std::snprintf(Ratio, sizeof Ratio, "%gx", T.Ratio);
  return std::string(Ratio) + " its fastest launch" +
         (Bound > 0 ? " (" + micros(Bound) + ")" : "");
}

// The Latency lock held.  Tells the program what a verdict changes, each
// kind once; withdraws the kernel's room when the search tries taking SMs.
void act(KernelLatency &K, const LatencyVerdict &V) {
  // A window missed early: its p99 is at least the least of the launches
  // over the bound.
  std::string P99 = V.Launches < LatencySearch::Window
                        ? "p99 at least " + micros(V.P99) + " (" +
                              std::to_string(LatencySearch::OverToMiss) +
                              " launches over the target within " +
                              std::to_string(V.Launches) + ")"
                        : "p99 " + micros(V.P99) + " over " +
                              std::to_string(LatencySearch::Window) +
                              " launches";
  if (V.changed() && V.Next == LatencyMechanism::KeepRoom && !K.Told.Room) {
    K.Told.Room = true;
    tellKernel(*K.Kernel, P99 + " with SMs taken is above its target of " +
                              targetText(K.Search.target(), V.Bound) +
                              ": best-effort SM-centric kernels keep room "
                              "for it from now on");
  } else if (V.Probe) {
    withdrawReservedKernel(*K.Kernel->Device, *K.Kernel);
    if (!K.Told.Probe) {
      K.Told.Probe = true;
      tellKernel(*K.Kernel,
                 P99 + " with room kept meets its target of " +
                     targetText(K.Search.target(), V.Bound) + " (" +
                     std::to_string(K.Search.probeAfter()) +
                     " windows in a row): trying with SMs taken, the room "
                     "given back");
    }
  } else if (V.Met && V.Under == LatencyMechanism::TakeSms && K.Told.Probe &&
             !K.Told.MetTaking) {
    K.Told.MetTaking = true;
    tellKernel(*K.Kernel, P99 + " with SMs taken meets its target of " +
                              targetText(K.Search.target(), V.Bound) +
                              ": no room is kept for it");
  } else if (!V.Met && V.Under == LatencyMechanism::KeepRoom &&
             !K.Told.Missed) {
    K.Told.Missed = true;
    tellKernel(*K.Kernel,
               P99 + " with room kept is above its target of " +
                   targetText(K.Search.target(), V.Bound) +
                   ": the target is not met (room stays, the better of "
                   "the two)");
  }
}

// The Latency lock held.  Reads the kernel's completed launches, oldest
// first, into its search.
void readCompleted(KernelLatency &K) {
  while (!K.InFlight.empty()) {
    double Seconds = 0;
    Stopwatch::Reading R = K.InFlight.front().Watch.read(Seconds);
    if (R == Stopwatch::Reading::Pending)
      return;
    if (R == Stopwatch::Reading::Done) {
      LatencyVerdict V =
          K.Search.observe(Seconds * 1e6, K.InFlight.front().Epoch);
      if (V.Judged)
        act(K, V);
    }
    K.InFlight.pop_front();
  }
}

// The Latency lock held.  The kernel starts again under `Target` (none: it
// has none any more): the room kept for it before (under its search, or an
// earlier `reserve`) is withdrawn until its next launch keeps room again,
// and the launches timed before are dropped (their tickets carry the old
// generation).
void restart(KernelLatency &K, const LatencyTarget &Target) {
  withdrawReservedKernel(*K.Kernel->Device, *K.Kernel);
  K.Search = LatencySearch(Target);
  K.InFlight.clear();
  ++K.Generation;
  K.Told = {};
  if (Target.set())
    tellKernel(*K.Kernel,
               "p99 target of " + targetText(Target) +
                   ": room kept for it first; SMs taken instead once room "
                   "met the target " +
                   std::to_string(K.Search.probeAfter()) + " windows of " +
                   std::to_string(LatencySearch::Window) +
                   " launches in a row, and kept while that meets it too");
}

// The Latency lock held.  After a policy change: kernels whose policy has
// another target, or none, start again.
void recheck(LatencyRoom &Room) {
  for (auto &[Kernel, K] : Room.Kernels) {
    if (!K->Search.target().set())
      continue;
    const Policy &Now = kernelPolicy(*Kernel);
    LatencyTarget Target;
    if (!Now.reserve)
      Target = {Now.p99Ratio, Now.p99Micros};
    if (Target != K->Search.target())
      restart(*K, Target);
  }
}

// The Latency lock held.  Policy `Id` with `reserve`.
uint32_t reservedPlacement(LatencyRoom &Room, uint32_t Id) {
  auto It = Room.Reserved.find(Id);
  if (It != Room.Reserved.end())
    return It->second;
  Policy WithRoom = policyById(Id);
  WithRoom.reserve = true;
  return Room.Reserved[Id] = policyIdFor(WithRoom);
}

} // namespace

void LatencyTargets::propose(Launch &L, Ticket &T) {
  Prepared *P = L.prepared();
  if (!P)
    return;
  LatencyRoom &Room = P->Device->Rooms.get<LatencyRoom>();
  if (Room.Any.load(std::memory_order_acquire)) {
    uint64_t Epoch = currentPolicyEpoch();
    if (Room.CheckedEpoch.load(std::memory_order_relaxed) != Epoch) {
      Guard Lock(latencyMutex());
      Room.CheckedEpoch.store(Epoch, std::memory_order_relaxed);
      recheck(Room);
    }
  }
  // With `reserve` too (from C++), room is kept whatever the latency.
  LatencyTarget Target{P->P99Ratio, P->P99Micros};
  if (!Target.set() || P->Reserve || L.Decision.SmsChosen ||
      priorityMode() == PriorityMode::Off || L.capture() != Capture::None)
    return;
  uint32_t Placement = KernelPolicy;
  {
    Guard Lock(latencyMutex());
    std::unique_ptr<KernelLatency> &K = Room.Kernels[P->Kernel];
    if (!K) {
      K = std::make_unique<KernelLatency>();
      K->Kernel = P->Kernel;
      Room.Any.store(true, std::memory_order_release);
    }
    if (K->Search.target() != Target)
      restart(*K, Target);
    if (K->InFlight.size() < MostInFlight) {
      T.Kernel = K.get();
      T.Epoch = K->Search.epoch();
      T.Generation = K->Generation;
    }
    if (K->Search.mechanism() == LatencyMechanism::KeepRoom)
      Placement = reservedPlacement(Room, P->PolicyId);
  }
  if (Placement != KernelPolicy)
    L.placeUnder(Placement); // the priority maker prepares it
}

void LatencyTargets::before(Launch &L, Ticket &T) {
  if (T.Kernel && !T.Watch.start(L.Stream))
    T.Kernel = nullptr;
}

void LatencyTargets::after(Launch &L, Ticket &T, cudaError_t Err) {
  if (!T.Kernel || Err != cudaSuccess || !T.Watch.stop(L.Stream))
    return;
  Guard Lock(latencyMutex());
  if (T.Generation == T.Kernel->Generation)
    T.Kernel->InFlight.push_back({std::move(T.Watch), T.Epoch});
  // Read here, after the kernel was queued: reading before it would delay
  // the kernel itself.
  readCompleted(*T.Kernel);
}

} // namespace smc
