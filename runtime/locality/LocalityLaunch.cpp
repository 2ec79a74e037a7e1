//===- LocalityLaunch.cpp - Policy locality on the launch path ------------===//
//
// Launches of policy locality (smc::Policy::locality(), SMC_POLICY
// 'k=locality').  Per launch configuration (a Prepared of Variant::Locality)
// the runtime keeps the trials of LocalityChoice.h: while they run, each
// launch is the next placement in turn, between two events on its own
// stream; later launches read the events that have completed (no launch
// waits for one).  Once every placement has its samples, the fastest is
// kept in Prepared::LocalityChosen and every later launch of the
// configuration goes straight to it.  A launch being captured runs the
// original (a graph's launch cannot be timed here), as does one the trials'
// lock finds no placement for.
//===----------------------------------------------------------------------===//
#include "locality/LocalityChoice.h"
#include "core/RuntimeState.h"

#include <deque>
#include <mutex>

namespace smc {

struct LocalityTuning {
  std::vector<LocalityCandidate> Candidates;
  std::vector<std::string> Names;
  std::vector<std::string> TrialNotes; // "trial of <name>" (SMC_STATS)
  // Each candidate's prepared launch (null until first needed).
  std::vector<Prepared *> Placements;
  LocalityTrials Trials;
  struct InFlight {
    unsigned Candidate;
    cudaEvent_t Start, End;
  };
  std::deque<InFlight> Timed;
  std::vector<cudaEvent_t> FreeEvents;
  std::string Choice;

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

std::mutex &localityMutex() {
  static std::mutex *M = new std::mutex;
  return *M;
}

// The prepared launch of candidate C for Req, or null when the kernel
// cannot run that placement (the variant is missing or fell back).
Prepared *placement(LocalityTuning &T, unsigned C, const LaunchRequest &Req,
                    int Device) {
  if (T.Placements[C])
    return T.Placements[C];
  Prepared *P = prepareUnder(Req, T.Candidates[C].Placement, Device);
  Variant Want = T.Candidates[C].Placement.variant;
  if (!P || P->Variant != Want || !P->Reason.empty())
    return nullptr;
  return T.Placements[C] = P;
}

// Hands the completed trials' times to the trials, oldest first.
void collectTimes(LocalityTuning &T) {
  while (!T.Timed.empty()) {
    LocalityTuning::InFlight &F = T.Timed.front();
    cudaError_t Err = cudaEventQuery(F.End);
    if (Err == cudaErrorNotReady)
      return;
    float Ms = 0;
    if (Err == cudaSuccess)
      Err = cudaEventElapsedTime(&Ms, F.Start, F.End);
    if (Err == cudaSuccess) {
      T.Trials.measured(F.Candidate, Ms * 1e-3);
    } else {
      cudaGetLastError();
      T.Trials.lost(F.Candidate); // tried again
    }
    T.FreeEvents.push_back(F.Start);
    T.FreeEvents.push_back(F.End);
    T.Timed.pop_front();
  }
}

cudaError_t eventFromPool(LocalityTuning &T, cudaEvent_t &E) {
  if (!T.FreeEvents.empty()) {
    E = T.FreeEvents.back();
    T.FreeEvents.pop_back();
    return cudaSuccess;
  }
  return cudaEventCreate(&E);
}

} // namespace

cudaError_t launchLocality(LaunchRequest &Req, int Device, Prepared &P) {
  if (Prepared *Chosen = P.LocalityChosen.load(std::memory_order_acquire)) {
    Req.LocalityChoice = &P.LocalityTuning->Choice;
    return dispatchWithPriority(*Chosen, Req, Device);
  }
  cudaStream_t Stream = Req.effectiveStream();
  cudaStreamCaptureStatus Capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(Stream, &Capture) != cudaSuccess) {
    cudaGetLastError();
    return launchOriginal(Req);
  }
  if (Capture != cudaStreamCaptureStatusNone)
    return runOriginal(P, "", Req); // a captured launch is not timed

  std::lock_guard<std::mutex> Lock(localityMutex());
  if (!P.LocalityTuning) {
    uint32_t Class = P.Kernel->InfoProblem.empty()
                         ? P.Kernel->Info.locality
                         : uint32_t(SMC_LOCALITY_UNKNOWN);
    // Clusters are also tried throttled, to half the workers that fit.
    unsigned Throttled = 0;
    if (const driver::Api *Api = driver::api()) {
      std::lock_guard<std::mutex> GlobalLock(globals().Mutex);
      Occupancy Occ;
      if (occupancy(*P.Kernel, Req.Shape.Block, Req.Shape.SharedMem, *Api,
                    Occ) &&
          Occ.Variant >= 2)
        Throttled = unsigned(Occ.Variant) / 2;
    }
    P.LocalityTuning = std::make_shared<LocalityTuning>(
        localityCandidates(Class, P.Urgent, Throttled));
  }
  LocalityTuning &T = *P.LocalityTuning;
  // Decided while this launch waited for the lock: T.Choice is read without
  // it from now on, so it is written only once.
  if (Prepared *Chosen = P.LocalityChosen.load(std::memory_order_acquire)) {
    Req.LocalityChoice = &T.Choice;
    return dispatchWithPriority(*Chosen, Req, Device);
  }
  collectTimes(T);
  for (;;) {
    if (T.Trials.decided()) {
      Prepared *Chosen = placement(T, T.Trials.chosen(), Req, Device);
      if (!Chosen) // the original always has a prepared launch
        return launchOriginal(Req);
      T.Choice = T.Trials.summary(T.Names);
      P.LocalityChosen.store(Chosen, std::memory_order_release);
      Req.LocalityChoice = &T.Choice;
      return dispatchWithPriority(*Chosen, Req, Device);
    }
    LocalityTrials::Next Next = T.Trials.next();
    Prepared *Run = placement(T, Next.Candidate, Req, Device);
    if (!Run && Next.Candidate != 0) {
      T.Trials.drop(Next.Candidate);
      continue;
    }
    if (!Run)
      return launchOriginal(Req);
    Req.LocalityChoice = &T.TrialNotes[Next.Candidate];
    if (!Next.Timed)
      return dispatchWithPriority(*Run, Req, Device);
    cudaEvent_t Start = nullptr, End = nullptr;
    if (eventFromPool(T, Start) != cudaSuccess ||
        eventFromPool(T, End) != cudaSuccess ||
        cudaEventRecord(Start, Stream) != cudaSuccess) {
      cudaGetLastError();
      if (Start)
        T.FreeEvents.push_back(Start);
      if (End)
        T.FreeEvents.push_back(End);
      T.Trials.lost(Next.Candidate);
      return dispatchWithPriority(*Run, Req, Device); // untimed
    }
    cudaError_t Err = dispatchWithPriority(*Run, Req, Device);
    if (Err == cudaSuccess && cudaEventRecord(End, Stream) == cudaSuccess) {
      T.Timed.push_back({Next.Candidate, Start, End});
      return cudaSuccess;
    }
    if (Err == cudaSuccess)
      cudaGetLastError(); // the end event's error, not the launch's
    T.Trials.lost(Next.Candidate);
    T.FreeEvents.push_back(Start);
    T.FreeEvents.push_back(End);
    return Err;
  }
}

} // namespace smc
