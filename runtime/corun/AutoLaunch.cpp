//===- AutoLaunch.cpp - The co-run scheduler on the launch path -----------===//
//
// Launches of policy auto (smc::Policy::automatic(), SMC_POLICY '*=auto').
// Each one is decided when it is made, under one lock:
//
//   1. The other launches of policy auto in flight on the device: per
//      stream, the last one, with an event recorded after it.
//   2. decide() (CoRunScheduler.h) for them and this launch, from the
//      kernel profiles (SMC_PROFILE, smc::loadProfiles), cached per set of
//      kernels; chooseAuto() (AutoPolicy.h) turns it into this launch's
//      choice: the original, or the SM-centric variant confined to its
//      share (sized as every confined launch, ConfinedLaunches.cpp).
//   3. The launch, then the stream's event.
//
// A set of kernels that co-runs again and again is then measured
// (CoRunTrials.h; SMC_AUTO_SEARCH=off keeps the model's decision): its
// launches run under one trial decision after another, and a launch made
// from an idle stream while every co-runner in flight runs under the same
// trial is timed with two events; its time is read at the stream's next
// launch of policy auto (a launch not finished by then does not count).
// Once the trials settle, no launch is timed.
//
// SMC_PROFILE_RECORD=<file> records profiles instead: each launch of policy
// auto runs from an idle stream as the SM-centric variant on the next SM
// count of recordLadder(), timed with events and waited for (what else the
// program runs meanwhile counts in: profile a program's kernels one by one);
// the samples are added to what the file already holds and written at exit
// (host data only: no CUDA call runs at exit).  scripts/smc-profile runs a
// program that way.
//===----------------------------------------------------------------------===//
#include "corun/AutoPolicy.h"
#include "core/RuntimeState.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

namespace smc {
namespace {

// How long a launch found in flight counts as in flight without asking the
// driver again.  Launches of policy auto that run for less may be taken for
// co-runners this much longer: a decision, never a result, depends on it.
constexpr std::chrono::microseconds PendingRecheck{20};

// Whether F's last launch may still run (AutoState::Mutex held).
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

struct AutoState {
  std::mutex Mutex;
  bool Started = false;
  // The profiles decisions use.
  ProfileSet Profiles;
  bool ProfilesLoaded = false;
  // SMC_PROFILE_RECORD: where recorded profiles go, and what they hold.
  std::string RecordPath;
  ProfileSet Recorded;
  int RecordOrdinal = -1; // the device Recorded is of; -1: none yet
  std::map<std::string, unsigned> LaunchesThisRun;
  cudaEvent_t RecordStart = nullptr, RecordEnd = nullptr;
  std::map<std::string, CoRunDecision> Decisions; // by coRunKey
  // The measured decisions of co-runs that recur, by the same key; on with
  // SMC_AUTO_SEARCH (default) and profiles.
  bool Search = true;
  std::map<std::string, CoRunTrials> Trials;
  // Workers per SM of each kernel's SM-centric variant at its original's
  // occupancy, by profile name; 0 where it cannot be confined.
  std::map<std::string, unsigned> Fits;
  // One more at each load of profiles and each new trial decision: a memo
  // or a timed launch of another version does not count (AutoMemo).
  unsigned DecisionsVersion = 0;
  unsigned ProfilesVersion = 0; // one more at each load of profiles
  std::map<int, std::string> DeviceNames;
};

AutoState &autoState() {
  static AutoState *State = new AutoState;
  return *State;
}

bool readFile(const std::string &Path, std::string &Text, std::string &Error) {
  std::ifstream File(Path);
  if (!File) {
    Error = "cannot read '" + Path + "'";
    return false;
  }
  std::stringstream Buffer;
  Buffer << File.rdbuf();
  Text = Buffer.str();
  return true;
}

bool loadProfileFile(AutoState &S, const std::string &Path,
                     std::string &Error) {
  std::string Text;
  ProfileSet Set;
  if (!readFile(Path, Text, Error))
    return false;
  if (!Set.load(Text, Error)) {
    Error = "'" + Path + "': " + Error;
    return false;
  }
  S.Profiles = std::move(Set);
  S.ProfilesLoaded = true;
  S.Decisions.clear();
  S.Trials.clear();
  ++S.DecisionsVersion;
  ++S.ProfilesVersion;
  return true;
}

void writeRecordedAtExit() {
  AutoState &S = autoState();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  if (S.RecordOrdinal < 0)
    return;
  std::ofstream File(S.RecordPath);
  File << S.Recorded.toJson();
  File.close();
  if (!File)
    std::fprintf(stderr, "smc: cannot write SMC_PROFILE_RECORD file '%s'\n",
                 S.RecordPath.c_str());
  else
    std::fprintf(stderr, "smc: profiles of %zu launch configurations in '%s'\n",
                 S.Recorded.profiles().size(), S.RecordPath.c_str());
}

// Reads SMC_PROFILE and SMC_PROFILE_RECORD on the first launch of policy
// auto (AutoState::Mutex held).
void start(AutoState &S) {
  if (S.Started)
    return;
  S.Started = true;
  if (const char *Search = std::getenv("SMC_AUTO_SEARCH"); Search && *Search) {
    std::string Value = Search;
    if (Value == "off")
      S.Search = false;
    else if (Value != "on")
      tell("SMC_AUTO_SEARCH: '" + Value + "' is not one of on, off; using on");
  }
  const char *Record = std::getenv("SMC_PROFILE_RECORD");
  if (Record && *Record) {
    S.RecordPath = Record;
    std::atexit(writeRecordedAtExit);
    return;
  }
  const char *Path = std::getenv("SMC_PROFILE");
  std::string Error;
  if (Path && *Path && !S.ProfilesLoaded && !loadProfileFile(S, Path, Error))
    tell("SMC_PROFILE: " + Error + "; policy auto runs the originals");
}

const std::string &deviceName(AutoState &S, int Device) {
  auto It = S.DeviceNames.find(Device);
  if (It != S.DeviceNames.end())
    return It->second;
  cudaDeviceProp Prop;
  std::string Name;
  if (cudaGetDeviceProperties(&Prop, Device) == cudaSuccess)
    Name = Prop.name;
  else
    cudaGetLastError();
  return S.DeviceNames[Device] = Name;
}

// A launch of the SM-centric variant of the request's kernel confined to
// SMs [First, First + Count), with WorkersPerSM workers per SM (0: the
// original's occupancy), sized as every confined launch
// (ConfinedLaunches.cpp), prepared before it is dispatched, so that a launch
// timed from the stream's event does not count the preparation of a new
// plan.  Ready is null when the kernel cannot be confined: no usable
// SM-centric variant, or one chunk per worker (which runs every chunk
// wherever the hardware puts it).
struct ConfinedLaunch {
  std::vector<unsigned> Sms;
  LaunchRequest Req;
  Prepared *Ready = nullptr;

  ConfinedLaunch(const LaunchRequest &Request, int Device, unsigned First,
                 unsigned Count, unsigned WorkersPerSM)
      : Sms(Count), Req(Request) {
    for (unsigned I = 0; I < Count; ++I)
      Sms[I] = First + I;
    Req.ConfinedSms = &Sms;
    Req.ConfinedWorkersPerSM = WorkersPerSM;
    Prepared *Confined = prepare(Req, Device);
    if (Confined && Confined->Variant == Variant::SMCentric &&
        Confined->Plan.Mode == SMC_MODE_LOOP)
      Ready = Confined;
  }
  ConfinedLaunch(const ConfinedLaunch &) = delete;
  ConfinedLaunch &operator=(const ConfinedLaunch &) = delete;
  cudaError_t dispatch() { return dispatchPrepared(*Ready, Req); }
};

constexpr const char *NotConfinable =
    "its SM-centric variant cannot be confined to SMs (one chunk per worker, "
    "or no usable variant)";

// SMC_PROFILE_RECORD: one launch recorded (AutoState::Mutex held).
cudaError_t recordLaunch(AutoState &S, LaunchRequest &Req, int Device,
                         Prepared &P) {
  DeviceState &Dev = *P.Device;
  if (S.RecordOrdinal >= 0 && Device != S.RecordOrdinal) {
    tell("SMC_PROFILE_RECORD: records device " +
         std::to_string(S.RecordOrdinal) + " only; launches on device " +
         std::to_string(Device) + " run the original");
    return launchOriginal(Req);
  }
  if (S.RecordOrdinal < 0) {
    S.RecordOrdinal = Device;
    S.Recorded = ProfileSet(deviceName(S, Device), Dev.NumSMs);
    std::string Text, Error;
    ProfileSet Earlier;
    if (readFile(S.RecordPath, Text, Error)) {
      if (!Earlier.load(Text, Error))
        tell("SMC_PROFILE_RECORD: '" + S.RecordPath +
             "' is not kept: " + Error);
      else if (Earlier.device() != S.Recorded.device() ||
               Earlier.deviceSms() != Dev.NumSMs)
        tell("SMC_PROFILE_RECORD: '" + S.RecordPath +
             "' was recorded on another device (" + Earlier.device() +
             "); it is replaced");
      else
        S.Recorded = std::move(Earlier);
    }
    if (cudaEventCreate(&S.RecordStart) != cudaSuccess ||
        cudaEventCreate(&S.RecordEnd) != cudaSuccess) {
      cudaGetLastError();
      S.RecordStart = S.RecordEnd = nullptr;
    }
  }
  // The first launch of each configuration warms it up, unrecorded.
  unsigned &ThisRun = S.LaunchesThisRun[P.AutoName];
  if (ThisRun++ == 0 || !S.RecordStart)
    return launchOriginal(Req);
  const KernelProfile *Profile = S.Recorded.find(P.AutoName);
  unsigned Sms = nextRecordSms(launchesRecorded(Profile), Dev.NumSMs);
  cudaStream_t Stream = Req.effectiveStream();
  // Timed from an idle stream.  Not the whole device: a program whose
  // other streams wait on this one (or on the host) would never get there.
  // (An error the wait reports stays the program's to see.)
  ConfinedLaunch Confined(Req, Device, 0, Sms, 0);
  if (!Confined.Ready) {
    // Its times would not depend on the SMs: no profile at all.
    tellKernel(*P.Kernel, std::string("SMC_PROFILE_RECORD: not profiled: ") +
                              NotConfinable + "; it runs the original");
    return launchOriginal(Req);
  }
  if (cudaStreamSynchronize(Stream) != cudaSuccess)
    return launchOriginal(Req);
  if (cudaEventRecord(S.RecordStart, Stream) != cudaSuccess) {
    cudaGetLastError();
    return launchOriginal(Req);
  }
  cudaError_t Err = Confined.dispatch();
  float Ms = 0;
  if (Err == cudaSuccess &&
      cudaEventRecord(S.RecordEnd, Stream) == cudaSuccess &&
      cudaEventSynchronize(S.RecordEnd) == cudaSuccess &&
      cudaEventElapsedTime(&Ms, S.RecordStart, S.RecordEnd) == cudaSuccess) {
    ScalingPoint Sample;
    Sample.Sms = Sms;
    Sample.Seconds = double(Ms) * 1e-3;
    S.Recorded.profile(P.AutoName).addSample(Sample);
  } else if (Err == cudaSuccess) {
    cudaGetLastError();
  }
  return Err;
}

// Records, once per launch configuration, the workers per SM of P's
// kernel's SM-centric variant at its original's occupancy, for co-run
// trials; 0 where the variant cannot be confined (none, or one chunk per
// worker).  AutoState::Mutex held.
void fitOf(AutoState &S, Prepared &P, const LaunchRequest &Req) {
  if (P.AutoFitKnown)
    return;
  P.AutoFitKnown = true;
  unsigned Fit = 0;
  KernelEntry &K = *P.Kernel;
  KernelFacts Facts = KernelFacts::fromInfo(K.Info);
  const driver::Api *Api = driver::api();
  if (Api && K.Smc && K.InfoProblem.empty() && K.SmcProblem.empty() &&
      Facts.HasSmc && !Facts.OneChunk) {
    std::lock_guard<std::mutex> GlobalLock(globals().Mutex);
    Occupancy Occ;
    if (occupancy(K, Req.Shape.Block, Req.Shape.SharedMem, *Api, Occ))
      Fit = unsigned(std::max(0, std::min(Occ.Original, Occ.Variant)));
  }
  S.Fits.emplace(P.AutoName, Fit); // a kernel found not confinable stays 0
}

// The co-run trials of these kernels (one of them `Me`), made where they
// apply, and Me's index in them; null where the model decides
// (AutoState::Mutex held).
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
// it has finished (AutoState::Mutex held).
void harvest(AutoState &S, AutoStreamFlight &F) {
  if (!F.Timed)
    return;
  F.Timed = false;
  float Ms = 0;
  cudaError_t Err = cudaEventElapsedTime(&Ms, F.TimedStart, F.TimedEnd);
  if (Err != cudaSuccess) {
    if (Err != cudaErrorNotReady)
      cudaGetLastError();
    return;
  }
  if (!F.Trials || F.TrialsVersion != S.ProfilesVersion ||
      !F.Trials->record(F.Trial, F.TrialKernel, double(Ms) * 1e-3))
    return;
  ++S.DecisionsVersion; // a new trial: every memo decides again
  if (F.Trials->settled())
    tell("auto: co-run " + F.Trials->names() + ": " +
         F.Trials->decision().Reason);
}

// Whether a launch decided under `Trials` now may be timed for them: every
// other launch of policy auto in flight runs under the same trial.
bool cleanTrial(AutoState &S, DeviceState &Dev, AutoStreamFlight &Mine,
                const CoRunTrials &Trials,
                std::chrono::steady_clock::time_point Now) {
  for (AutoStreamFlight &F : Dev.AutoFlights)
    if (&F != &Mine && inFlight(F, Now) &&
        (F.Trials != &Trials || F.TrialsVersion != S.ProfilesVersion ||
         F.Trial != Trials.trial()))
      return false;
  if (!Mine.TimedStart && (cudaEventCreate(&Mine.TimedStart) != cudaSuccess ||
                           cudaEventCreate(&Mine.TimedEnd) != cudaSuccess)) {
    cudaGetLastError();
    if (Mine.TimedStart)
      cudaEventDestroy(Mine.TimedStart);
    Mine.TimedStart = nullptr;
    return false;
  }
  return true;
}

} // namespace

cudaError_t launchAuto(LaunchRequest &Req, int Device, Prepared &P) {
  cudaStream_t Stream = Req.effectiveStream();
  cudaStreamCaptureStatus Capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(Stream, &Capture) != cudaSuccess) {
    cudaGetLastError();
    return launchOriginal(Req);
  }
  StreamKey Key;
  if (Capture != cudaStreamCaptureStatusNone || !streamKey(Stream, Key))
    return runOriginal(P, "", Req); // a captured launch: nothing to decide

  AutoState &S = autoState();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  start(S);
  if (!S.RecordPath.empty())
    return recordLaunch(S, Req, Device, P);

  // The flights live with the device's state, which cudaDeviceReset
  // replaces along with their events.
  DeviceState &Dev = *P.Device;
  auto Now = std::chrono::steady_clock::now();
  AutoStreamFlight *Mine =
      streamFlight(Dev.AutoFlights, Key,
                   [Now](AutoStreamFlight &F) { return inFlight(F, Now); });
  // Whatever runs before this launch on its stream, as for the sizing of
  // confined launches (ConfinedLaunches.cpp).  The stream's last launch of
  // policy auto found in flight within PendingRecheck says so without a
  // query (a request loop's launch queued behind the last one); else one
  // query of the stream, which also tells whether that launch is done (a
  // query of a finished stream or event costs about 1.3 us on an H100,
  // bench/probes/driver_calls.cpp: one, not two).
  bool StreamBusy =
      Mine && !Mine->Idle && Now - Mine->PendingAt < PendingRecheck;
  if (!StreamBusy) {
    StreamBusy = !streamIdle(Stream);
    if (!StreamBusy && Mine)
      Mine->Idle = true;
  }
  KernelPriority Priority =
      urgentLaunch(P, Stream) ? KernelPriority::High : KernelPriority::Normal;
  if (!P.AutoTold && !S.Profiles.find(P.AutoName))
    tellKernel(*P.Kernel,
               S.ProfilesLoaded
                   ? "auto: no profile of '" + P.AutoName +
                         "' in the loaded profiles; it runs the original"
                   : std::string("auto: no profiles loaded (SMC_PROFILE, "
                                 "smc::loadProfiles); it runs the original"));
  P.AutoTold = true;
  if (Mine)
    harvest(S, *Mine);
  if (S.Search && S.ProfilesLoaded)
    fitOf(S, P, Req);

  // The choice of the stream's last launch, where this one is the same
  // launch beside the same co-runners.
  const AutoChoice *Choice = nullptr;
  CoRunTrials *Trials = nullptr;
  size_t TrialKernel = 0;
  if (Mine && Mine->Memo.matches(P.AutoName, Priority, StreamBusy,
                                 S.DecisionsVersion)) {
    size_t Matched = 0;
    bool Same = true;
    for (AutoStreamFlight &F : Dev.AutoFlights)
      if (Same && &F != Mine && inFlight(F, Now))
        Same = Matched < Mine->Memo.Others.size() &&
               sameCoRunner(F.Flight, Mine->Memo.Others[Matched++]);
    if (Same && Matched == Mine->Memo.Others.size()) {
      Choice = &Mine->Memo.Choice;
      Trials = Mine->Memo.Trials;
      TrialKernel = Mine->Memo.TrialKernel;
    }
  }
  AutoChoice Fresh;
  if (!Choice) {
    std::vector<AutoFlight> Others;
    for (AutoStreamFlight &F : Dev.AutoFlights)
      if (&F != Mine && inFlight(F, Now))
        Others.push_back(F.Flight);
    CoRunKernel Me;
    Me.Name = P.AutoName;
    Me.Profile = S.Profiles.find(P.AutoName);
    Me.Priority = Priority;
    const CoRunDecision *Decision = nullptr;
    if (!Others.empty()) {
      std::vector<CoRunKernel> Kernels;
      for (AutoFlight &Other : Others) {
        Other.Kernel.Profile = S.Profiles.find(Other.Kernel.Name);
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
      if (S.Search)
        Trials = trialsFor(S, DecisionKey, Kernels, Me.Name, *Decision,
                           Dev.NumSMs, TrialKernel);
      if (Trials)
        Decision = &Trials->decision();
    }
    Fresh = chooseAuto(Others, Me, StreamBusy,
                       Decision ? *Decision : CoRunDecision(), Dev.NumSMs);
    Choice = &Fresh;
    if (Mine) {
      Mine->Memo.Valid = true;
      Mine->Memo.Me = P.AutoName;
      Mine->Memo.Priority = Priority;
      Mine->Memo.StreamBusy = StreamBusy;
      Mine->Memo.DecisionsVersion = S.DecisionsVersion;
      Mine->Memo.Others = std::move(Others);
      Mine->Memo.Choice = std::move(Fresh);
      Mine->Memo.Trials = Trials;
      Mine->Memo.TrialKernel = TrialKernel;
      Choice = &Mine->Memo.Choice;
    }
  }
  std::optional<ConfinedLaunch> Confined;
  if (Choice->Confine) {
    Confined.emplace(Req, Device, Choice->Share.FirstSm, Choice->Share.NumSms,
                     Choice->Share.WorkersPerSm);
    if (!Confined->Ready) {
      // Not confinable, and never will be: the memo keeps the original.
      Confined.reset();
      AutoChoice Original;
      Original.Reason = std::string("a partition was chosen, but ") +
                        NotConfinable + ": the original";
      S.Fits[P.AutoName] = 0; // no trials of co-runs it is new in
      if (Mine && Choice == &Mine->Memo.Choice)
        Mine->Memo.Choice = std::move(Original);
      else
        Fresh = std::move(Original);
    }
  }
  // Timed for the trials: from an idle stream, beside launches of the
  // same trial only.
  bool Timed = Trials && Mine && !Trials->settled() && !StreamBusy &&
               cleanTrial(S, Dev, *Mine, *Trials, Now);
  if (Timed && cudaEventRecord(Mine->TimedStart, Stream) != cudaSuccess) {
    cudaGetLastError();
    Timed = false;
  }
  cudaError_t Err;
  if (Confined) {
    Confined->Req.AutoDecision = &Choice->Reason;
    Err = Confined->dispatch();
  } else {
    Req.AutoDecision = &Choice->Reason;
    Err = runOriginal(P, "", Req);
    Req.AutoDecision = nullptr;
  }
  if (Err == cudaSuccess && Mine) {
    CoRunKernel &Ran = Mine->Flight.Kernel;
    if (Ran.Name != P.AutoName)
      Ran.Name = P.AutoName;
    Ran.Priority = Priority;
    Mine->Flight.Share = Choice->Confine ? Choice->Share : KernelShare();
    Mine->Trials = Trials;
    Mine->Trial = Trials ? Trials->trial() : 0;
    Mine->TrialKernel = TrialKernel;
    Mine->TrialsVersion = S.ProfilesVersion;
    if (Timed) {
      Mine->Timed = cudaEventRecord(Mine->TimedEnd, Stream) == cudaSuccess;
      if (!Mine->Timed)
        cudaGetLastError();
    }
    if (cudaEventRecord(Mine->Done, Stream) == cudaSuccess) {
      Mine->Idle = false;
      Mine->PendingAt = Now;
    } else {
      cudaGetLastError(); // the stream then looks idle to the scheduler
      Mine->Idle = true;
    }
  } else if (Mine) {
    Mine->Memo.Valid = false; // decide again next time
  }
  return Err;
}

//===----------------------------------------------------------------------===//
// Public API (smc.h)
//===----------------------------------------------------------------------===//

ProfileSet loadedProfiles() {
  AutoState &S = autoState();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  start(S);
  return S.Profiles;
}

std::vector<CoRunTrials> autoCoRunTrials() {
  AutoState &S = autoState();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  std::vector<CoRunTrials> All;
  for (const auto &[Key, Trials] : S.Trials)
    All.push_back(Trials);
  return All;
}

bool loadProfiles(const std::string &Path, std::string *Error) {
  AutoState &S = autoState();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  std::string Message;
  if (!loadProfileFile(S, Path, Message)) {
    if (Error)
      *Error = "smc::loadProfiles: " + Message;
    return false;
  }
  return true;
}

} // namespace smc
