//===- AutoLaunch.cpp - The co-run scheduler on the launch path -----------===//
//
// Decisions, trials and per-stream flights of policy auto, and the
// decision-maker's hooks; see AutoLaunch.h.
//===----------------------------------------------------------------------===//
#include "corun/AutoLaunch.h"

#include "base/Forever.h"
#include "base/Messages.h"
#include "base/StreamFlights.h"
#include "core/Devices.h"
#include "core/Kernels.h"
#include "core/Prepared.h"
#include "corun/ProfileRecording.h"
#include "measure/Profiles.h"
#include "policy/Config.h"
#include "priority/Priorities.h"

#include <map>

namespace smc {

// The last launch of policy auto on a stream: the kernel and the SMs it was
// given (the CoRun lock).
struct AutoStreamFlight : StreamFlight {
  AutoFlight Flight;
  // Done was found complete: no need to ask again until it is recorded
  // again.  A query costs about 1 us (more for an event of another stream).
  bool Idle = true;
  // When Done was last found pending: it counts as pending for a while
  // after that without another query (PendingRecheck).
  std::chrono::steady_clock::time_point PendingAt;
  // The choice of its last launch, reused while the next launch matches.
  AutoMemo Memo;
  // The co-run trials its last launch was decided under (CoRunTrials.h),
  // which trial, and whether that launch counts for it: timed by Watch as
  // kernel TrialKernel of the trials, while the profiles it was decided
  // from are still in force (the trials still exist).
  CoRunTrials *Trials = nullptr;
  unsigned Trial = 0;
  size_t TrialKernel = 0;
  unsigned TrialsVersion = 0;
  bool Timed = false;
  Stopwatch Watch;
  void release() {
    StreamFlight::release();
    Watch.reset();
  }
};

namespace {

// How long a launch found in flight counts as in flight without asking the
// driver again.  Launches of policy auto that run for less may be taken for
// co-runners this much longer: a decision, never a result, depends on it.
constexpr std::chrono::microseconds PendingRecheck{20};

// The launches of policy auto in flight on one device, per stream.
struct AutoFlights {
  std::vector<AutoStreamFlight> Flights;
};

// What a configuration of policy auto keeps: the name of its profile
// (AutoPolicy.h, profileName), whether the user was told that it has none,
// and whether its kernel's fit is recorded.
struct AutoConfig {
  std::string Name;
  bool Told = false;
  bool FitKnown = false;
};

// Everything policy auto decides from (the CoRun lock).
struct AutoState {
  OrderedMutex Mutex{LockLevel::CoRun};
  // The profiles decisions use; decisions and trials are of this version.
  LoadedProfiles Profiles;
  std::map<std::string, CoRunDecision> Decisions; // by coRunKey
  // The measured decisions of co-runs that recur, by the same key; on with
  // SMC_AUTO_SEARCH (default) and profiles.
  std::map<std::string, CoRunTrials> Trials;
  // Workers per SM of each kernel's SM-centric variant at its original's
  // occupancy, by profile name; 0 where it cannot be confined.
  std::map<std::string, unsigned> Fits;
  // One more at each load of profiles and each new trial decision: a memo
  // or a timed launch of another version does not count (AutoMemo).
  unsigned DecisionsVersion = 0;
};

// Takes the profiles in force; a new version makes every decision and
// trial stale (the CoRun lock held).
void refreshProfiles(AutoState &S) {
  LoadedProfiles Now = currentProfiles();
  if (S.Profiles.Set && Now.Version == S.Profiles.Version)
    return;
  S.Profiles = std::move(Now);
  S.Decisions.clear();
  S.Trials.clear();
  ++S.DecisionsVersion;
}

// Whether F's last launch may still run (the CoRun lock held).
bool inFlight(AutoStreamFlight &F, std::chrono::steady_clock::time_point Now) {
  if (F.Idle)
    return false;
  if (Now - F.PendingAt < PendingRecheck)
    return true;
  if (eventPending(F.Done)) {
    F.PendingAt = Now;
    return true;
  }
  F.Idle = true;
  return false;
}

// Records, once per launch configuration, the workers per SM of P's
// kernel's SM-centric variant at its original's occupancy, for co-run
// trials; 0 where the variant cannot be confined (none, or one chunk per
// worker).
void fitOf(AutoState &S, AutoConfig &C, Prepared &P, const LaunchShape &Shape) {
  if (C.FitKnown)
    return;
  C.FitKnown = true;
  unsigned Fit = 0;
  KernelEntry &K = *P.Kernel;
  KernelFacts Facts = KernelFacts::fromInfo(K.Info);
  if (K.Smc && K.InfoProblem.empty() && K.SmcProblem.empty() && Facts.HasSmc &&
      !Facts.OneChunk) {
    Occupancy Occ;
    if (lockedOccupancy(K, Shape, Occ))
      Fit = unsigned(std::max(0, std::min(Occ.Original, Occ.Variant)));
  }
  S.Fits.emplace(C.Name, Fit); // a kernel found not confinable stays 0
}

// The co-run trials of these kernels (one of them `Me`), made where they
// apply, and Me's index in them; null where the model decides.
CoRunTrials *trialsFor(AutoState &S, const std::string &Key,
                       const std::vector<CoRunKernel> &Kernels,
                       const std::string &Me, const CoRunDecision &Model,
                       unsigned NumSms, size_t &Index) {
  std::vector<CoRunKernel> Order = decisionOrder(Kernels);
  auto It = S.Trials.find(Key);
  if (It == S.Trials.end()) {
    if (!CoRunTrials::applies(Order, NumSms))
      return nullptr;
    std::vector<unsigned> Fits;
    for (const CoRunKernel &K : Order) {
      auto Fit = S.Fits.find(K.Name);
      if (Fit == S.Fits.end() || Fit->second == 0)
        return nullptr;
      Fits.push_back(Fit->second);
    }
    CoRunTrials::Options Options;
    Options.NumSms = NumSms;
    Options.Granularity = trialGranularity(NumSms);
    It = S.Trials.emplace(Key, CoRunTrials(Order, Fits, Model, Options)).first;
  }
  for (Index = 0; Index < Order.size() && Order[Index].Name != Me; ++Index)
    ;
  return &It->second;
}

// Counts the time of F's last launch for the trials it was timed for, if
// it has finished.
void harvest(AutoState &S, AutoStreamFlight &F) {
  if (!F.Timed)
    return;
  F.Timed = false;
  double Seconds = 0;
  if (F.Watch.read(Seconds) != Stopwatch::Reading::Done)
    return;
  if (!F.Trials || F.TrialsVersion != S.Profiles.Version ||
      !F.Trials->record(F.Trial, F.TrialKernel, Seconds))
    return;
  ++S.DecisionsVersion; // a new trial: every memo decides again
  if (F.Trials->settled())
    tell("auto: co-run " + F.Trials->names() + ": " +
         F.Trials->decision().Reason);
}

// Whether a launch decided under `Trials` now may be timed for them: every
// other launch of policy auto in flight runs under the same trial.
bool cleanTrial(AutoState &S, std::vector<AutoStreamFlight> &Flights,
                AutoStreamFlight &Mine, const CoRunTrials &Trials,
                std::chrono::steady_clock::time_point Now) {
  for (AutoStreamFlight &F : Flights)
    if (&F != &Mine && inFlight(F, Now) &&
        (F.Trials != &Trials || F.TrialsVersion != S.Profiles.Version ||
         F.Trial != Trials.trial()))
      return false;
  return true;
}

// The choice of the stream's last launch, where this one is the same
// launch beside the same co-runners.
bool fromMemo(AutoState &S, std::vector<AutoStreamFlight> &Flights,
              AutoStreamFlight &Mine, const std::string &Name, bool StreamBusy,
              CoRun::Ticket &T, std::chrono::steady_clock::time_point Now) {
  if (!Mine.Memo.matches(Name, T.Priority, StreamBusy, S.DecisionsVersion))
    return false;
  size_t Matched = 0;
  for (AutoStreamFlight &F : Flights)
    if (&F != &Mine && inFlight(F, Now))
      if (Matched >= Mine.Memo.Others.size() ||
          !sameCoRunner(F.Flight, Mine.Memo.Others[Matched++]))
        return false;
  if (Matched != Mine.Memo.Others.size())
    return false;
  T.Choice = &Mine.Memo.Choice;
  T.Trials = Mine.Memo.Trials;
  T.TrialKernel = Mine.Memo.TrialKernel;
  return true;
}

// Decides a launch of `Name` beside the others in flight: the model's
// decision, or the trials' where the co-run recurs.
void decideFresh(AutoState &S, DeviceState &Dev,
                 std::vector<AutoStreamFlight> &Flights, AutoStreamFlight *Mine,
                 const std::string &Name, bool StreamBusy, CoRun::Ticket &T,
                 std::chrono::steady_clock::time_point Now) {
  std::vector<AutoFlight> Others;
  for (AutoStreamFlight &F : Flights)
    if (&F != Mine && inFlight(F, Now))
      Others.push_back(F.Flight);
  CoRunKernel Me;
  Me.Name = Name;
  Me.Profile = S.Profiles.Set->find(Name);
  Me.Priority = T.Priority;
  const CoRunDecision *Decision = nullptr;
  if (!Others.empty()) {
    std::vector<CoRunKernel> Kernels;
    for (AutoFlight &Other : Others) {
      Other.Kernel.Profile = S.Profiles.Set->find(Other.Kernel.Name);
      Kernels.push_back(Other.Kernel);
    }
    Kernels.push_back(Me);
    std::string DecisionKey = std::to_string(Dev.NumSMs) + coRunKey(Kernels);
    auto It = S.Decisions.find(DecisionKey);
    if (It == S.Decisions.end()) {
      CoRunOptions Options;
      Options.NumSms = Dev.NumSMs;
      It = S.Decisions
               .emplace(DecisionKey, decide(decisionOrder(Kernels), Options))
               .first;
    }
    Decision = &It->second;
    if (config().AutoSearch)
      T.Trials = trialsFor(S, DecisionKey, Kernels, Me.Name, *Decision,
                           Dev.NumSMs, T.TrialKernel);
    if (T.Trials)
      Decision = &T.Trials->decision();
  }
  T.Fresh = chooseAuto(Others, Me, StreamBusy,
                       Decision ? *Decision : CoRunDecision(), Dev.NumSMs);
  T.Choice = &T.Fresh;
  if (!Mine)
    return;
  AutoMemo &Memo = Mine->Memo;
  Memo.Valid = true;
  Memo.Me = Name;
  Memo.Priority = T.Priority;
  Memo.StreamBusy = StreamBusy;
  Memo.DecisionsVersion = S.DecisionsVersion;
  Memo.Others = std::move(Others);
  Memo.Choice = std::move(T.Fresh);
  Memo.Trials = T.Trials;
  Memo.TrialKernel = T.TrialKernel;
  T.Choice = &Memo.Choice;
}

} // namespace

void CoRun::propose(Launch &L, Ticket &T) {
  Prepared *P = L.current();
  if (!P || P->Variant != Variant::Auto)
    return;
  // A partition of the co-run scheduler's, or the original sharing the GPU
  // as the hardware places CTAs: no SMs to take or yield.
  L.Decision.SmsChosen = true;
  AutoState &S = forever<AutoState>();
  T.Lock = std::unique_lock<OrderedMutex>(S.Mutex);
  AutoConfig &Config = P->Rooms.get<AutoConfig>();
  if (Config.Name.empty()) {
    const LaunchShape &Shape = L.Req.Shape;
    const unsigned Grid[3] = {Shape.Grid.x, Shape.Grid.y, Shape.Grid.z};
    const unsigned Block[3] = {Shape.Block.x, Shape.Block.y, Shape.Block.z};
    Config.Name = profileName(P->Kernel->Source, Grid, Block);
  }
  T.Name = &Config.Name;
  bool Recording = recordingProfiles();
  if (!Recording) {
    refreshProfiles(S);
    if (!Config.Told && !S.Profiles.Set->find(Config.Name))
      tellKernel(
          *P->Kernel,
          (S.Profiles.Loaded
               ? "auto: no profile of '" + Config.Name +
                     "' in the loaded profiles; it runs the original"
               : std::string("auto: no profiles loaded (SMC_PROFILE, "
                             "smc::loadProfiles); it runs the original")) +
              (P->Kernel->Info.flags & SMC_INFO_HAS_REMAP
                   ? " (or its remapped jobs, where policy remap's "
                     "trials find them faster)"
                   : ""));
    Config.Told = true;
    // Nothing loaded: every launch runs the original (or, where policy
    // remap's trials find them faster, its remapped jobs), whatever runs
    // beside it, so there are no flights to keep and no stream to ask
    // about (a loop of one-CTA launches paid about 1 us a launch for
    // them, docs/results/light.md).
    if (!S.Profiles.Loaded) {
      static const std::string NoProfiles = "no profiles loaded: the original";
      L.Decision.Original = true;
      L.Decision.CoRunNote = &NoProfiles;
      T.Lock.unlock();
      return;
    }
  }

  Capture C = L.capture();
  StreamKey Key;
  if (C == Capture::Unknown)
    return L.use(nullptr); // forwarded to the original, unrecorded
  if (C == Capture::Active || !streamKey(L.Stream, Key)) {
    L.Decision.Original = true; // a captured launch: nothing to decide
    return;
  }
  if (Recording)
    return proposeRecorded(L, T, Config.Name);

  // The flights live with the device's state, which cudaDeviceReset
  // replaces along with their events.
  DeviceState &Dev = *P->Device;
  std::vector<AutoStreamFlight> &Flights = Dev.Rooms.get<AutoFlights>().Flights;
  auto Now = std::chrono::steady_clock::now();
  T.Decided = Now;
  T.Mine = streamFlight(
      Flights, Key, [Now](AutoStreamFlight &F) { return inFlight(F, Now); });
  AutoStreamFlight *Mine = T.Mine;
  // Whatever runs before this launch on its stream, as for the sizing of
  // confined launches.  The stream's last launch of policy auto found in
  // flight within PendingRecheck says so without a query (a request loop's
  // launch queued behind the last one); else one query of the stream,
  // which also tells whether that launch is done (a query of a finished
  // stream or event costs about 1.3 us on an H100, bench/probes/
  // driver_calls.cpp: one, not two).
  bool StreamBusy =
      Mine && !Mine->Idle && Now - Mine->PendingAt < PendingRecheck;
  if (!StreamBusy) {
    StreamBusy = !streamIdle(L.Stream);
    if (!StreamBusy && Mine)
      Mine->Idle = true;
  }
  T.Priority = urgentLaunch(*P, L.Stream) ? KernelPriority::High
                                          : KernelPriority::Normal;
  if (Mine)
    harvest(S, *Mine);
  if (config().AutoSearch && S.Profiles.Loaded)
    fitOf(S, Config, *P, L.Req.Shape);

  if (!Mine || !fromMemo(S, Flights, *Mine, Config.Name, StreamBusy, T, Now))
    decideFresh(S, Dev, Flights, Mine, Config.Name, StreamBusy, T, Now);

  if (T.Choice->Confine) {
    // Prepared now, so that a launch timed from the stream's event does not
    // count the preparation of a new plan.
    const KernelShare &Share = T.Choice->Share;
    T.Sms.resize(Share.NumSms);
    for (unsigned I = 0; I < Share.NumSms; ++I)
      T.Sms[I] = Share.FirstSm + I;
    L.confine(&T.Sms, Share.WorkersPerSm);
    Prepared *Confined = L.prepared();
    if (!Confined || !Confined->loopWorkers()) {
      // Not confinable, and never will be: the memo keeps the original.
      AutoChoice Original;
      Original.Reason = std::string("a partition was chosen, but ") +
                        NotConfinable + ": the original";
      S.Fits[Config.Name] = 0; // no trials of co-runs it is new in
      if (Mine && T.Choice == &Mine->Memo.Choice)
        Mine->Memo.Choice = std::move(Original);
      else
        T.Fresh = std::move(Original);
      L.confine(nullptr, 0);
      L.use(P);
    }
  }
  if (!T.Choice->Confine)
    L.Decision.Original = true;
  L.Decision.CoRunNote = &T.Choice->Reason;
  // Timed for the trials: from an idle stream, beside launches of the
  // same trial only.
  T.Timed = T.Trials && Mine && !T.Trials->settled() && !StreamBusy &&
            cleanTrial(S, Flights, *Mine, *T.Trials, Now);
}

void CoRun::before(Launch &L, Ticket &T) {
  if ((T.Timed || T.Recording) && !T.Watch.start(L.Stream))
    T.Timed = false;
}

void CoRun::after(Launch &L, Ticket &T, cudaError_t Err) {
  if (!T.Lock.owns_lock())
    return;
  if (T.Recording) {
    if (Err == cudaSuccess)
      T.Watch.stop(L.Stream);
    recorded(T, *T.Name, Err);
    return;
  }
  AutoStreamFlight *Mine = T.Mine;
  if (!Mine)
    return;
  if (Err != cudaSuccess) {
    Mine->Memo.Valid = false; // decide again next time
    return;
  }
  CoRunKernel &Ran = Mine->Flight.Kernel;
  if (Ran.Name != *T.Name)
    Ran.Name = *T.Name;
  Ran.Priority = T.Priority;
  Mine->Flight.Share = T.Choice->Confine ? T.Choice->Share : KernelShare();
  Mine->Trials = T.Trials;
  Mine->Trial = T.Trials ? T.Trials->trial() : 0;
  Mine->TrialKernel = T.TrialKernel;
  Mine->TrialsVersion = forever<AutoState>().Profiles.Version;
  Mine->Timed = T.Timed && T.Watch.stop(L.Stream);
  if (Mine->Timed)
    Mine->Watch = std::move(T.Watch);
  if (cudaEventRecord(Mine->Done, L.Stream) == cudaSuccess) {
    Mine->Idle = false;
    Mine->PendingAt = T.Decided;
  } else {
    cudaGetLastError(); // the stream then looks idle to the scheduler
    Mine->Idle = true;
  }
}

std::vector<CoRunTrials> autoCoRunTrials() {
  AutoState &S = forever<AutoState>();
  Guard Lock(S.Mutex);
  std::vector<CoRunTrials> All;
  for (const auto &[Key, Trials] : S.Trials)
    All.push_back(Trials);
  return All;
}

} // namespace smc
