//===- CorpusTest.cu - Library code under every SMC policy, with co-runs --===//
//
// One value-parameterized test per (program, policy): Library/Corpus.Run/
// <program>__<policy>.  Each sets the policy for every kernel ("*") and
// then:
//  1. runs the library call once (warm-up) and checks its result against
//     the CPU reference;
//  2. times it alone three times (CUDA events; the median is reported) and
//     checks the last result;
//  3. co-run: starts smctest::SmHog (policy original), which holds half of the
//     SMs, one 1024-thread CTA per SM with more than half of the SM's shared
//     memory, until the host releases it or 5 s pass; waits until every hog
//     CTA is running; runs the library call on another stream, and requires
//     that the call finished while the hog still held its SMs (had it not,
//     the call stalled behind the co-runner); releases the hog and checks
//     the result.
// Library/CorpusLocality.EveryTrialMatches/<program> runs the call fourteen
// times under "*=locality" (every placement's trials, then the choice),
// checking each result; Library/CorpusBatch records it into an smc::Batch.
// It prints `corpus-timing: <program> <policy> alone_ms=... corun_ms=...
// ratio=...` (never a pass condition) and records it for SMC_CORPUS_JSON.
// A watchdog ends the process (exit 3) if a run does not finish in 120 s:
// a hung kernel cannot be recovered in-process.
//===----------------------------------------------------------------------===//
#include "Corpus.h"
#include "CorpusTimings.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

using namespace corpus;
using smctest::numSMs;
using smctest::symbolOf;

namespace {

constexpr double kHogSeconds = 5;
constexpr int kTimedRuns = 3;
constexpr int kWatchdogSeconds = 120;

/// Ends the process when an armed phase outlives its deadline: a kernel
/// that hangs (e.g. a CTA waiting for one that never runs) would otherwise
/// block the whole test program with no message.
class Watchdog {
public:
  static Watchdog &get() {
    static Watchdog *W = new Watchdog(); // never destroyed: thread detached
    return *W;
  }
  void arm(const std::string &Phase, int Seconds) {
    std::lock_guard<std::mutex> Lock(M);
    What = Phase;
    Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(Seconds);
    Armed = true;
    CV.notify_all();
  }
  void disarm() {
    std::lock_guard<std::mutex> Lock(M);
    Armed = false;
    CV.notify_all();
  }

private:
  Watchdog() {
    std::thread([this] { loop(); }).detach();
  }
  void loop() {
    std::unique_lock<std::mutex> Lock(M);
    for (;;) {
      if (!Armed) {
        CV.wait(Lock);
        continue;
      }
      if (CV.wait_until(Lock, Deadline) == std::cv_status::timeout && Armed &&
          std::chrono::steady_clock::now() >= Deadline) {
        std::fprintf(stderr,
                     "smc_corpus_tests: HANG: %s did not finish within %d s; "
                     "a hung kernel cannot be recovered, exiting\n",
                     What.c_str(), kWatchdogSeconds);
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(3);
      }
    }
  }
  std::mutex M;
  std::condition_variable CV;
  std::string What;
  std::chrono::steady_clock::time_point Deadline;
  bool Armed = false;
};

struct WatchdogScope {
  WatchdogScope(const std::string &Phase) {
    Watchdog::get().arm(Phase, kWatchdogSeconds);
  }
  ~WatchdogScope() { Watchdog::get().disarm(); }
};

/// Streams, events and the co-runner, made once per process (never
/// destroyed: CUDA may be gone by the time static destructors run).
struct Resources {
  cudaStream_t LibStream = nullptr;
  cudaEvent_t Start = nullptr, Stop = nullptr;
  smctest::SmHog Hog;
  cudaError_t Status = cudaErrorNotReady;

  cudaError_t create() {
    cudaError_t Err;
    // Non-blocking: the stream does not wait for the legacy default stream.
    if ((Err = cudaStreamCreateWithFlags(&LibStream, cudaStreamNonBlocking)) ||
        (Err = cudaEventCreate(&Start)) || (Err = cudaEventCreate(&Stop)))
      return Err;
    return cudaSuccess;
  }

  static Resources &get() {
    static Resources *R = new Resources;
    if (R->Status == cudaErrorNotReady)
      R->Status = R->create();
    return *R;
  }
};

/// Releases the co-runner on destruction, so that a failing co-run never
/// leaves it spinning.
struct HogReleaser {
  smctest::SmHog &Hog;
  ~HogReleaser() { Hog.release(); }
};

//===--- Policies ---------------------------------------------------------===//

struct PolicyCase {
  const char *Id;   ///< Part of the test name.
  const char *Text; ///< SMC_POLICY action, set for "*".
};

// A table order (smc::ChunkOrder::Table) is not among them: its chunkToSM
// has one entry per chunk of one particular grid, while a "*" policy applies
// to every kernel the library launches, with grids of many sizes (and the
// runtime runs the original where the table does not fit the grid).  The
// table order is covered by smc_gpu_tests on kernels of known grids.
const std::vector<PolicyCase> &policyCases() {
  static const std::vector<PolicyCase> Cases = {
      {"original", "original"},
      {"smc", "smc"},
      {"smc_workers1", "smc(workers=1)"},
      {"smc_sms0to15", "smc(sms=0-15)"},
      {"smc_contiguous", "smc(order=contiguous)"},
      {"smc_cluster_tile", "smc(order=cluster(tile))"},
      {"slice7", "slice(size=7)"},
      {"auto", "auto"},
      {"locality", "locality"},
      {"remap_random", "remap(control=always,keys=random)"},
      {"remap", "remap"},
      // Every kernel reserved: originals of at most one CTA per SM run with
      // over half an SM's shared memory per CTA (priority/Reserve.h).
      {"original_reserve", "original(reserve)"},
      {"smc_reserve", "smc(reserve)"},
      // Every kernel with a target no launch meets: each launch timed, and
      // kernels launched more than a window's times run reserved
      // (latency/LatencyTargets.h).
      {"original_p99", "original(p99=1us)"},
      {"smc_p99", "smc(p99=1.01x)"},
  };
  return Cases;
}

const std::vector<ProgramEntry> &allPrograms() {
  static const std::vector<ProgramEntry> All = [] {
    std::vector<ProgramEntry> V = thrustPrograms();
    for (ProgramEntry &E : cubPrograms())
      V.push_back(std::move(E));
    return V;
  }();
  return All;
}

std::vector<std::string> programNames() {
  std::vector<std::string> Names;
  for (const ProgramEntry &E : allPrograms())
    Names.push_back(E.Name);
  return Names;
}

std::vector<std::string> policyIds() {
  std::vector<std::string> Ids;
  for (const PolicyCase &C : policyCases())
    Ids.push_back(C.Id);
  return Ids;
}

const PolicyCase &policyCase(const std::string &Id) {
  for (const PolicyCase &C : policyCases())
    if (Id == C.Id)
      return C;
  return policyCases().front();
}

//===--- The test ---------------------------------------------------------===//

/// (program name, policy id).
using CorpusParam = std::tuple<std::string, std::string>;

class Corpus : public smctest::SmcGpuTest,
               public ::testing::WithParamInterface<CorpusParam> {};

/// Runs \p P once on \p S: prepare, the call between two events, and waits
/// for the second event.  Sets \p Ms to the call's time.
void timedRun(Program &P, cudaStream_t S, Resources &R,
              const std::string &Phase, float &Ms) {
  WatchdogScope Guard(Phase);
  SMC_CUDA_ASSERT(P.prepare(S));
  SMC_CUDA_ASSERT(cudaEventRecord(R.Start, S));
  CORPUS_CUDA_ASSERT(P.run(S), P);
  SMC_CUDA_ASSERT(cudaEventRecord(R.Stop, S));
  SMC_CUDA_ASSERT(cudaEventSynchronize(R.Stop));
  SMC_CUDA_ASSERT(cudaGetLastError());
  SMC_CUDA_ASSERT(cudaEventElapsedTime(&Ms, R.Start, R.Stop));
}

double median(std::vector<float> V) {
  std::sort(V.begin(), V.end());
  size_t M = V.size() / 2;
  return V.size() % 2 ? V[M] : (V[M - 1] + V[M]) / 2.0;
}

TEST_P(Corpus, Run) {
  const std::string &Name = std::get<0>(GetParam());
  const PolicyCase &Policy = policyCase(std::get<1>(GetParam()));
  const std::string Label = Name + " " + Policy.Text;
  auto It = std::find_if(allPrograms().begin(), allPrograms().end(),
                         [&](const ProgramEntry &E) { return E.Name == Name; });
  ASSERT_NE(It, allPrograms().end());

  Resources &R = Resources::get();
  SMC_CUDA_ASSERT(R.Status);
  std::string Error;
  ASSERT_TRUE(smc::setPolicyText(std::string("*=") + Policy.Text, &Error))
      << Error;

  std::unique_ptr<Program> P = It->Make();
  ASSERT_NO_FATAL_FAILURE(P->setUp());
  cudaStream_t S = R.LibStream;

  float Ms = 0;
  ASSERT_NO_FATAL_FAILURE(timedRun(*P, S, R, Label + " (warm-up)", Ms));
  ASSERT_NO_FATAL_FAILURE(P->check(Policy.Text + std::string(", warm-up")));

  TimingRecord Timing;
  Timing.Program = Name;
  Timing.Policy = Policy.Text;
  std::vector<float> Alone;
  for (int I = 0; I < kTimedRuns; ++I) {
    ASSERT_NO_FATAL_FAILURE(timedRun(*P, S, R, Label + " (alone)", Ms));
    Alone.push_back(Ms);
    Timing.AloneSamplesMs.push_back(Ms);
  }
  ASSERT_NO_FATAL_FAILURE(P->check(Policy.Text + std::string(", alone")));
  Timing.AloneMs = median(Alone);

  // Co-run.
  {
    WatchdogScope Guard(Label + " (co-run)");
    SMC_CUDA_ASSERT(P->prepare(S));
    SMC_CUDA_ASSERT(cudaStreamSynchronize(S));
    const unsigned HogGrid = std::max(1u, numSMs() / 2);
    HogReleaser Releaser{R.Hog};
    cudaError_t HogErr = R.Hog.start(HogGrid, kHogSeconds);
    ASSERT_EQ(HogErr, cudaSuccess)
        << cudaGetErrorName(HogErr) << ": the co-runner (" << HogGrid
        << " CTAs of 1024 threads, " << R.Hog.sharedBytes()
        << " bytes of shared memory each) did not have every CTA running "
        << "within 3 s";

    SMC_CUDA_ASSERT(cudaEventRecord(R.Start, S));
    CORPUS_CUDA_ASSERT(P->run(S), *P);
    SMC_CUDA_ASSERT(cudaEventRecord(R.Stop, S));
    SMC_CUDA_ASSERT(cudaEventSynchronize(R.Stop));
    Timing.CorunFinishedFirst = R.Hog.holding();
    auto Released = std::chrono::steady_clock::now();
    SMC_CUDA_ASSERT(R.Hog.release());
    double ReleaseMs = std::chrono::duration<double, std::milli>(
                           std::chrono::steady_clock::now() - Released)
                           .count();
    if (ReleaseMs > 500)
      std::printf("smc_corpus_tests: note: the co-runner ended %.0f ms after "
                  "its release (expected: at once)\n",
                  ReleaseMs);
    SMC_CUDA_SYNC_ASSERT();
    SMC_CUDA_ASSERT(cudaEventElapsedTime(&Ms, R.Start, R.Stop));
    Timing.CorunMs = Ms;
    if (!Timing.CorunFinishedFirst)
      ADD_FAILURE() << Label << ": the library call stalled behind the "
                    << "co-runner: it finished only after the kernel holding "
                    << HogGrid << " SMs had ended (the co-runner gives its "
                    << "SMs back after " << kHogSeconds << " s); the call "
                    << "took " << Ms << " ms, alone " << Timing.AloneMs
                    << " ms";
  }
  ASSERT_NO_FATAL_FAILURE(P->check(Policy.Text + std::string(", co-run")));

  double Ratio = Timing.AloneMs > 0 ? Timing.CorunMs / Timing.AloneMs : 0;
  std::printf("corpus-timing: %s %s alone_ms=%.3f corun_ms=%.3f ratio=%.3f\n",
              Name.c_str(), Policy.Text, Timing.AloneMs, Timing.CorunMs, Ratio);
  std::fflush(stdout);
  recordTiming(Timing);
}

std::string paramName(const ::testing::TestParamInfo<CorpusParam> &Info) {
  return std::get<0>(Info.param) + "__" + std::get<1>(Info.param);
}

//===--- Batches ----------------------------------------------------------===//

/// The library call recorded into an smc::Batch and run as explicit plans:
/// every launch in slices of 7 CTAs (where it has a __slice variant), then
/// every launch as 2 persistent workers per SM (where its SM-centric
/// variant runs so); each result checked.  Not for programs whose call
/// reads a result back on the host (Thrust's reduce, copy_if, partition,
/// unique, reduce_by_key): the read happens while recording, before the
/// recorded kernels run, and the library then goes on with what it read
/// (docs/results/kernelet.md).
class CorpusBatch : public smctest::SmcGpuTest,
                    public ::testing::WithParamInterface<std::string> {};

std::vector<std::string> batchablePrograms() {
  const std::set<std::string> ReadBack = {
      "thrust_reduce",    "thrust_transform_reduce", "thrust_copy_if",
      "thrust_partition", "thrust_unique",           "thrust_reduce_by_key"};
  std::vector<std::string> Names;
  for (const std::string &Name : programNames())
    if (!ReadBack.count(Name))
      Names.push_back(Name);
  return Names;
}

/// The program named \p Name, made and set up, in \p P.
void setUpProgram(const std::string &Name, std::unique_ptr<Program> &P) {
  auto It = std::find_if(allPrograms().begin(), allPrograms().end(),
                         [&](const ProgramEntry &E) { return E.Name == Name; });
  ASSERT_NE(It, allPrograms().end());
  SMC_CUDA_ASSERT(Resources::get().Status);
  P = It->Make();
  ASSERT_NO_FATAL_FAILURE(P->setUp());
}

TEST_P(CorpusBatch, SlicesAndWorkersMatch) {
  const std::string &Name = GetParam();
  std::unique_ptr<Program> P;
  ASSERT_NO_FATAL_FAILURE(setUpProgram(Name, P));
  cudaStream_t S = Resources::get().LibStream;
  for (bool Workers : {false, true}) {
    std::string When = Workers ? "batch, workers" : "batch, slices of 7";
    WatchdogScope Guard(Name + " (" + When + ")");
    SMC_CUDA_ASSERT(P->prepare(S));
    SMC_CUDA_ASSERT(cudaStreamSynchronize(S));
    smc::Batch B;
    ASSERT_TRUE(B.begin());
    cudaError_t Err = P->run(S);
    B.end();
    CORPUS_CUDA_ASSERT(Err, *P);
    std::vector<smc::Batch::SliceRun> Runs;
    unsigned Sliced = 0, AsWorkers = 0;
    for (const smc::Batch::LaunchInfo &L : B.launches()) {
      smc::Batch::SliceRun Run{unsigned(Runs.size()), 0, 0, L.ctas, L.ctas};
      if (Workers && L.workers) {
        Run.workersPerSm = 2;
        ++AsWorkers;
      } else if (!Workers && L.sliceable && L.ctas > 7) {
        Run.sliceCtas = 7;
        ++Sliced;
      }
      Runs.push_back(Run);
    }
    std::string Error;
    ASSERT_TRUE(B.run(Runs, &Error)) << Error;
    SMC_CUDA_ASSERT(cudaStreamSynchronize(S));
    SMC_CUDA_ASSERT(cudaGetLastError());
    std::printf("corpus-batch: %s %s: %zu launches, %u sliced, %u as "
                "workers\n",
                Name.c_str(), When.c_str(), Runs.size(), Sliced, AsWorkers);
    ASSERT_NO_FATAL_FAILURE(P->check(When));
  }
}

INSTANTIATE_TEST_SUITE_P(Library, CorpusBatch,
                         ::testing::ValuesIn(batchablePrograms()));

//===--- Policy locality
//---------------------------------------------------===//

/// Policy locality runs, on each kernel configuration's first launches, the
/// original, the interleaved __smc and its class's order (cluster orders
/// also throttled) in turn, three of each, then the one it keeps.  The
/// library call under "*=locality", fourteen times, each result checked:
/// every placement tried, and the choice, give the library's results.
class CorpusLocality : public smctest::SmcGpuTest,
                       public ::testing::WithParamInterface<std::string> {};

TEST_P(CorpusLocality, EveryTrialMatches) {
  const std::string &Name = GetParam();
  std::unique_ptr<Program> P;
  ASSERT_NO_FATAL_FAILURE(setUpProgram(Name, P));
  Resources &R = Resources::get();
  std::string Error;
  ASSERT_TRUE(smc::setPolicyText("*=locality", &Error)) << Error;
  for (int Run = 1; Run <= 14; ++Run) {
    std::string When = "locality, run " + std::to_string(Run);
    float Ms = 0;
    ASSERT_NO_FATAL_FAILURE(
        timedRun(*P, R.LibStream, R, Name + " " + When, Ms));
    ASSERT_NO_FATAL_FAILURE(P->check(When));
  }
}

INSTANTIATE_TEST_SUITE_P(Library, CorpusLocality,
                         ::testing::ValuesIn(programNames()));

INSTANTIATE_TEST_SUITE_P(Library, Corpus,
                         ::testing::Combine(::testing::ValuesIn(programNames()),
                                            ::testing::ValuesIn(policyIds())),
                         paramName);

} // namespace
