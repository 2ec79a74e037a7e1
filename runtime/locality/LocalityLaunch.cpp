//===- LocalityLaunch.cpp - Policy locality on the launch path ------------===//
//
// Each configuration's trials and the decision-maker's hooks; see
// LocalityLaunch.h.
//===----------------------------------------------------------------------===//
#include "locality/LocalityLaunch.h"

#include "base/Locks.h"
#include "core/Kernels.h"
#include "core/Prepared.h"
#include "locality/LocalityChoice.h"
#include "measure/TimedTrials.h"
#include "policy/Policies.h"

#include <memory>

namespace smc {

// The placement trials of one configuration of policy locality.
struct LocalityTuning {
  std::vector<LocalityCandidate> Candidates;
  std::vector<std::string> Names;
  std::vector<std::string> TrialNotes; // "trial of <name>" (SMC_STATS)
  // Each candidate's prepared launch (null until first needed).
  std::vector<Prepared *> Placements;
  TimedTrials Trials;

  explicit LocalityTuning(std::vector<LocalityCandidate> C)
      : Candidates(std::move(C)), Placements(Candidates.size(), nullptr),
        Trials(unsigned(Candidates.size())) {
    for (const LocalityCandidate &Candidate : Candidates) {
      Names.push_back(Candidate.Name);
      TrialNotes.push_back("trial of " + Candidate.Name);
    }
  }
};

namespace {

// What a configuration of policy locality keeps: its trials (made on its
// first launch), and the placement chosen once they are in (null before);
// Choice is written once, before Chosen, and read without the lock after.
struct LocalityState {
  std::unique_ptr<LocalityTuning> Tuning;
  std::atomic<Prepared *> Chosen{nullptr};
  std::string Choice;
};

// The prepared launch of candidate C for L, or null when the kernel
// cannot run that placement (the variant is missing or fell back).
Prepared *placement(LocalityTuning &T, unsigned C, const Launch &L) {
  if (T.Placements[C])
    return T.Placements[C];
  LaunchDecision Decision;
  Decision.Placement = policyIdFor(T.Candidates[C].Placement);
  Prepared *P = prepare(L.Req, L.Device, Decision);
  Variant Want = T.Candidates[C].Placement.variant;
  if (!P || P->Variant != Want || !P->Reason.empty())
    return nullptr;
  return T.Placements[C] = P;
}

// The trials of configuration P (of policy locality), made on first use.
// The Locality lock held.
LocalityTuning &tuningOf(Prepared &P, const LaunchShape &Shape,
                         LocalityState &S) {
  if (!S.Tuning) {
    KernelEntry &K = *P.Kernel;
    uint32_t Class = K.InfoProblem.empty() ? K.Info.locality
                                           : uint32_t(SMC_LOCALITY_UNKNOWN);
    // Clusters are also tried throttled, to half the workers that fit.
    unsigned Throttled = 0;
    Occupancy Occ;
    if (lockedOccupancy(K, Shape, Occ) && Occ.Variant >= 2)
      Throttled = unsigned(Occ.Variant) / 2;
    S.Tuning = std::make_unique<LocalityTuning>(
        localityCandidates(Class, P.Urgent, Throttled));
  }
  return *S.Tuning;
}

// Runs `L` as placement `Run` (null: forwarded to the original), which
// decision-makers after this one keep (an urgent launch's SMs confine it).
void runAs(Launch &L, Prepared *Run) {
  if (Run)
    L.placeUnder(Run->PolicyId);
  L.use(Run);
}

} // namespace

void Locality::propose(Launch &L, Ticket &T) {
  Prepared *P = L.current();
  if (!P || P->Variant != Variant::Locality)
    return;
  LocalityState &S = P->Rooms.get<LocalityState>();
  if (Prepared *Chosen = S.Chosen.load(std::memory_order_acquire)) {
    runAs(L, Chosen);
    L.Decision.LocalityNote = &S.Choice;
    return;
  }
  Capture C = L.capture();
  if (C == Capture::Unknown) {
    runAs(L, nullptr); // forwarded to the original, unrecorded
    return;
  }
  if (C == Capture::Active) {
    L.Decision.Original = true; // a captured launch is not timed
    return;
  }

  Guard Lock(levelMutex<LockLevel::Locality>());
  LocalityTuning &Tuning = tuningOf(*P, L.Req.Shape, S);
  // Decided while this launch waited for the lock: S.Choice is read without
  // it from now on, so it is written only once.
  if (Prepared *Chosen = S.Chosen.load(std::memory_order_acquire)) {
    runAs(L, Chosen);
    L.Decision.LocalityNote = &S.Choice;
    return;
  }
  Tuning.Trials.collect();
  for (;;) {
    if (Tuning.Trials.decided()) {
      Prepared *Chosen = placement(Tuning, Tuning.Trials.chosen(), L);
      runAs(L, Chosen); // the original always has a prepared launch
      if (!Chosen)
        return;
      S.Choice = Tuning.Trials.summary(Tuning.Names);
      S.Chosen.store(Chosen, std::memory_order_release);
      L.Decision.LocalityNote = &S.Choice;
      return;
    }
    Trials::Next Next = Tuning.Trials.next();
    Prepared *Run = placement(Tuning, Next.Candidate, L);
    if (!Run && Next.Candidate != 0) {
      Tuning.Trials.drop(Next.Candidate);
      continue;
    }
    runAs(L, Run);
    if (!Run)
      return;
    L.Decision.LocalityNote = &Tuning.TrialNotes[Next.Candidate];
    if (Next.Timed) {
      T.Tuning = &Tuning;
      T.Candidate = Next.Candidate;
    }
    return;
  }
}

void Locality::before(Launch &L, Ticket &T) {
  if (!T.Tuning || T.Watch.start(L.Stream))
    return;
  Guard Lock(levelMutex<LockLevel::Locality>());
  T.Tuning->Trials.lost(T.Candidate); // launched untimed
  T.Tuning = nullptr;
}

void Locality::after(Launch &L, Ticket &T, cudaError_t Err) {
  if (!T.Tuning)
    return;
  bool Stopped = Err == cudaSuccess && T.Watch.stop(L.Stream);
  Guard Lock(levelMutex<LockLevel::Locality>());
  if (Stopped)
    T.Tuning->Trials.inFlight(T.Candidate, std::move(T.Watch));
  else
    T.Tuning->Trials.lost(T.Candidate);
}

} // namespace smc
