//===- RemapLaunch.cpp - Policy remap on the launch path ------------------===//
//
// Each configuration's remap state and the decision-maker's hooks; see
// RemapLaunch.h.  A table is rewritten only after every launch that may
// still read it: the computation waits on the event each stream recorded
// after its last remapped launch, and a launch on another stream than the
// one that computed the table waits on the computation's event.
//===----------------------------------------------------------------------===//
#include "remap/RemapLaunch.h"

#include "base/Driver.h"
#include "base/Forever.h"
#include "base/Locks.h"
#include "core/Kernels.h"
#include "core/Prepared.h"
#include "measure/TimedTrials.h"
#include "policy/Policies.h"
#include "remap/RemapSort.h"
#include "remap/RemapTables.h"

#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace smc {

// The remap of one configuration of policy remap.
struct RemapState {
  // The configuration's policy (looked up once: policies live as long as
  // the process).
  const Policy *Pol = nullptr;
  // Non-empty: the remap cannot run for this configuration (the original
  // runs; the user was told).
  std::string Problem;
  bool Allocated = false;
  RemapBuffers Buffers;
  // The table: valid, the arguments and the refresh it was computed for.
  bool TableValid = false;
  std::vector<char> TableArgs;
  uint64_t TableRefresh = 0;
  uint64_t Tables = 0; // tables computed
  cudaStream_t TableStream = nullptr;
  cudaEvent_t TableDone = nullptr;
  // Per stream, the event recorded after its last remapped launch.
  std::vector<std::pair<cudaStream_t, cudaEvent_t>> LastUses;
  // Control adaptive: the trials (with their timed launches in flight),
  // and what SMC_STATS records.
  std::unique_ptr<TimedTrials> Trial;
  std::string Choice;
  // Launches since the trials decided, the decision, and after how many
  // launches new data runs the trials again (RetrialBackoff).
  uint64_t SinceDecision = 0;
  unsigned Decision = NoDecision;
  uint64_t RetrialAfter = 0;
  static constexpr unsigned NoDecision = ~0u;
};

namespace {

const std::vector<std::string> CandidateNames = {"original", "remap"};

// New data (new arguments, smc::refreshRemap) runs the trials again: the
// remap that paid on the data before may not pay on this data (and a remap
// that did not may now).  The first new data after a decision does so at
// once; while the trials keep deciding the same, the launches they wait
// before the next trials double from RetrialBackoff, so that a program
// whose data changes at every launch (ping-pong buffers, a refresh per
// step) spends a shrinking share of its launches on trials.
constexpr uint64_t RetrialBackoff = 32;

// The Remap lock held.  Records a new decision of S's trials.
void decided(RemapState &S) {
  unsigned Now = S.Trial->chosen();
  if (S.Decision == RemapState::NoDecision)
    S.RetrialAfter = 0;
  else if (S.Decision == Now)
    S.RetrialAfter = std::max(RetrialBackoff, 2 * S.RetrialAfter);
  else
    S.RetrialAfter = RetrialBackoff;
  S.Decision = Now;
  S.SinceDecision = 0;
  S.Choice = S.Trial->summary(CandidateNames);
}
const std::string TrialNotes[] = {"trial of original", "trial of remap"};
const std::string WaitingNote = "the original while the trials' times come in";

// smc::refreshRemap's count per kernel symbol, and smc::refreshRemaps'
// (the Remap lock).
struct RefreshCounts {
  std::map<const void *, uint64_t> BySymbol;
  uint64_t All = 0;
  uint64_t of(const void *Symbol) { return BySymbol[Symbol] + All; }
};

std::string cudaText(const char *Call, cudaError_t Err) {
  cudaGetLastError();
  return std::string(Call) + " failed: " + cudaGetErrorName(Err);
}

// Queues the keys of L's jobs into S.Buffers.Keys on L's stream: the
// inspector K__remap_keys with L's arguments, or random keys.
std::string queueKeys(const Launch &L, RemapState &S) {
  const Prepared &P = *L.current();
  RemapBuffers &B = S.Buffers;
  size_t Bytes = size_t(B.Count) * sizeof(uint32_t);
  if (S.Pol->remapKeys == RemapKeys::Random) {
    std::vector<uint32_t> Keys = randomKeys(B.Count, 0x5eed + S.Tables);
    cudaError_t Err = cudaMemcpyAsync(B.Keys, Keys.data(), Bytes,
                                      cudaMemcpyHostToDevice, L.Stream);
    // A copy from pageable memory has read it when the call returns.
    return Err == cudaSuccess ? "" : cudaText("cudaMemcpyAsync", Err);
  }
  cudaError_t Err = cudaMemsetAsync(B.Keys, 0xFF, Bytes, L.Stream);
  if (Err != cudaSuccess)
    return cudaText("cudaMemsetAsync", Err);
  SmcDescriptor Desc = P.Desc;
  Desc.remap_count = B.Count;
  Desc.remap_keys = B.Keys;
  std::vector<void *> Params(L.Req.Args, L.Req.Args + P.NumParams);
  Params.push_back(&Desc);
  const LaunchShape &Shape = L.Req.Shape;
  CUresult R = driver::api()->LaunchKernel(
      P.Kernel->RemapKeys, Shape.Grid.x, 1, 1, Shape.Block.x, 1, 1,
      unsigned(Shape.SharedMem), reinterpret_cast<CUstream>(L.Stream),
      Params.data(), nullptr);
  return R == CUDA_SUCCESS
             ? ""
             : "launching the inspector failed with " + driver::resultText(R);
}

// Whether L's arguments differ from those S's table was computed for.
bool newArguments(const Launch &L, const RemapState &S) {
  return !sameArguments(S.TableArgs, L.Req.Args, L.current()->ParamSizes);
}

// The Remap lock held.  Whether S's table must be computed (again) for L:
// none yet, a refresh since, or new arguments.
bool tableStale(const Launch &L, const RemapState &S) {
  const Prepared &P = *L.current();
  return !S.TableValid ||
         S.TableRefresh != forever<RefreshCounts>().of(P.Kernel->Symbol) ||
         newArguments(L, S);
}

// The Remap lock held.  Makes S's table current for L: computed on L's
// stream when missing or stale, waited for when computed on another.
std::string currentTable(const Launch &L, RemapState &S) {
  const Prepared &P = *L.current();
  if (!S.Allocated) {
    std::string Error;
    uint32_t Count =
        remapCount(L.Req.Shape.ctas() * L.Req.Shape.Block.x, S.Pol->remapRatio);
    if (!allocateRemapBuffers(Count, S.Buffers, Error))
      return "cannot allocate its remap table: " + Error;
    cudaError_t Err =
        cudaEventCreateWithFlags(&S.TableDone, cudaEventDisableTiming);
    if (Err != cudaSuccess)
      return cudaText("cudaEventCreateWithFlags", Err);
    S.Allocated = true;
  }
  uint64_t Refresh = forever<RefreshCounts>().of(P.Kernel->Symbol);
  if (!tableStale(L, S)) {
    if (L.Stream != S.TableStream)
      cudaStreamWaitEvent(L.Stream, S.TableDone, 0);
    return "";
  }
  // Nothing may still read the table (or the keys) being rewritten.
  for (auto &[Stream, Event] : S.LastUses)
    if (Stream != L.Stream)
      cudaStreamWaitEvent(L.Stream, Event, 0);
  if (S.TableValid && S.TableStream != L.Stream)
    cudaStreamWaitEvent(L.Stream, S.TableDone, 0);
  S.TableValid = false;
  std::string Problem = queueKeys(L, S);
  if (!Problem.empty())
    return Problem;
  if (cudaError_t Err = sortJobsByKey(S.Buffers, L.Stream))
    return cudaText("the remap sort", Err);
  if (cudaError_t Err = cudaEventRecord(S.TableDone, L.Stream))
    return cudaText("cudaEventRecord", Err);
  S.TableStream = L.Stream;
  S.TableArgs = argumentBytes(L.Req.Args, P.ParamSizes);
  S.TableRefresh = Refresh;
  S.TableValid = true;
  ++S.Tables;
  return "";
}

// The Remap lock held.  Records, after L's remapped launch, the event a
// later table computation on another stream waits on.
void recordUse(const Launch &L, RemapState &S) {
  auto Use = std::find_if(S.LastUses.begin(), S.LastUses.end(),
                          [&](const auto &U) { return U.first == L.Stream; });
  if (Use == S.LastUses.end()) {
    cudaEvent_t Event = nullptr;
    if (cudaEventCreateWithFlags(&Event, cudaEventDisableTiming) !=
        cudaSuccess) {
      cudaGetLastError();
      return;
    }
    Use = S.LastUses.insert(S.LastUses.end(), {L.Stream, Event});
  }
  if (cudaEventRecord(Use->second, L.Stream) != cudaSuccess)
    cudaGetLastError();
}

// Policy auto, where the co-run scheduler chose the original (running
// beside others as the hardware places CTAs, as a remap does too): the
// configuration of policy remap (control adaptive) for L, used from now on;
// null where the kernel has no __remap variant for L's shape.
Prepared *remapUnderAuto(Launch &L) {
  const Prepared &Auto = *L.current();
  const LaunchShape &S = L.Req.Shape;
  if (!L.Decision.Original || *L.Decision.OriginalReason ||
      !(Auto.Kernel->Info.flags & SMC_INFO_HAS_REMAP) || S.Grid.y != 1 ||
      S.Grid.z != 1 || S.Block.y != 1 || S.Block.z != 1)
    return nullptr;
  LaunchDecision D;
  D.Placement = policyIdFor(Policy::remap());
  Prepared *Remap = prepare(L.Req, L.Device, D);
  if (!Remap || Remap->Variant != Variant::Remap)
    return nullptr;
  L.use(Remap);
  L.Decision.Original = false;
  return Remap;
}

} // namespace

void Remapping::propose(Launch &L, Ticket &T) {
  Prepared *P = L.current();
  if (P && P->Variant == Variant::Auto)
    P = remapUnderAuto(L);
  if (!P || P->Variant != Variant::Remap)
    return;
  // A captured launch would capture the table's computation too.
  if (L.capture() != Capture::None) {
    L.Decision.Original = true;
    L.Decision.OriginalReason = "remap: the stream is being captured";
    return;
  }
  RemapState &S = P->Rooms.get<RemapState>();
  Guard Lock(levelMutex<LockLevel::Remap>());
  if (!S.Problem.empty()) {
    L.Decision.Original = true;
    L.Decision.OriginalReason = S.Problem.c_str();
    return;
  }
  if (!S.Pol)
    S.Pol = &policyById(P->PolicyId);
  T.State = &S;
  T.Candidate = 1;
  if (S.Pol->remapControl != RemapControl::Adaptive)
    return;
  // New data: the trials again (see RetrialBackoff).
  if (S.Trial && S.Trial->decided() && S.SinceDecision >= S.RetrialAfter &&
      tableStale(L, S)) {
    S.Trial.reset();
    S.Choice.clear();
  }
  if (!S.Trial)
    S.Trial = std::make_unique<TimedTrials>(2);
  S.Trial->collect();
  if (S.Trial->decided()) {
    if (S.Choice.empty())
      decided(S);
    ++S.SinceDecision;
    L.Decision.RemapNote = &S.Choice;
    T.Candidate = S.Trial->chosen();
  } else {
    Trials::Next Next = S.Trial->next();
    T.Candidate = Next.Candidate;
    T.Timed = Next.Timed;
    L.Decision.RemapNote =
        Next.Timed ? &TrialNotes[Next.Candidate] : &WaitingNote;
  }
  if (T.Candidate == 0)
    L.Decision.Original = true;
}

void Remapping::before(Launch &L, Ticket &T) {
  if (!T.State)
    return;
  RemapState &S = *T.State;
  Guard Lock(levelMutex<LockLevel::Remap>());
  // The stopwatch first: a remap trial's time includes its table.
  if (T.Timed && !T.Watch.start(L.Stream)) {
    T.Timed = false;
    S.Trial->lost(T.Candidate); // launched untimed
  }
  if (T.Candidate == 0)
    return;
  std::string Problem = currentTable(L, S);
  if (!Problem.empty()) {
    S.Problem = "remap: " + Problem;
    tellKernel(*L.current()->Kernel, "running the original: " + S.Problem);
    L.Decision.Original = true;
    L.Decision.OriginalReason = S.Problem.c_str();
    return;
  }
  L.Decision.RemapTable = S.Buffers.Table;
  L.Decision.RemapCount = S.Buffers.Count;
}

void Remapping::after(Launch &L, Ticket &T, cudaError_t Err) {
  if (!T.State)
    return;
  RemapState &S = *T.State;
  Guard Lock(levelMutex<LockLevel::Remap>());
  if (L.RanVariant)
    recordUse(L, S);
  if (!T.Timed)
    return;
  if (Err == cudaSuccess && T.Watch.stop(L.Stream))
    S.Trial->inFlight(T.Candidate, std::move(T.Watch));
  else
    S.Trial->lost(T.Candidate);
}

} // namespace smc

void smc::refreshRemapForSymbol(const void *KernelSymbol) {
  Guard Lock(levelMutex<LockLevel::Remap>());
  ++forever<RefreshCounts>().BySymbol[KernelSymbol];
}

void smc::refreshRemaps() {
  Guard Lock(levelMutex<LockLevel::Remap>());
  ++forever<RefreshCounts>().All;
}
