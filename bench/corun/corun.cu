//===- corun.cu - Groups of suite workloads co-running, every way ---------===//
//
// smc_corun_bench: groups of 2 to 4 workloads of the suite (bench/workloads,
// their kernels compiled with the SMC plugin; by default the 24 pairs,
// with --triples the 8 triples of CoRunPlan.h) start together, one stream
// each; each repeats its run() so that it takes about --target-ms alone.
// Every group runs in each mode of CoRunPlan.h (serial, plain streams,
// stream priorities, green contexts at their best split, the __smc
// variants shared, the SMC static oracle's best split x workers per SM,
// the split the co-run scheduler decides from measured profiles, what policy
// auto's measured co-run trials settle on, and the layouts smc::Batch's
// search settles on), the modes interleaved round by
// round in one process, next to the originals alone, which give T_alone.
// Metrics and JSON: CoRunReport.h.
//
// Timing.  A gate kernel on a stream of its own spins until the host has
// queued every launch of the co-run (for GateTimeoutNs at most); the event
// recorded after it is the common start that every stream of the co-run
// (one per workload, or the one of serial) waits for.  A workload's
// T_corun is from its stream's Begin event, recorded right after that
// wait, to its End event, recorded after its last run().  The workloads'
// run()s are queued in turn, one of each workload per turn.  A co-run
// whose gate timed out (the host took too long to queue) is run again.
//
// Phases.  Each workload: set up, checked after a run of its originals and
// of its __smc variants alone, its repetitions calibrated, its __smc
// variant profiled alone on k SMs x workers per SM (for the scheduler and
// the oracle's bound).  Each group of N: the green-context sweep (N
// contexts per split, the splits of greenSweep, at most --sweep-s), the
// oracle sweep (one co-run per split x workers configuration of
// oracleConfigs, in decreasing order of the STP bound the profiles give,
// until no remaining configuration can beat the best or --sweep-s runs
// out), both ranked by STP against the calibrated T_alone; the scheduler's
// decision for the N profiles; the co-run trials (three co-runs per trial,
// until they settle, at most 60); the batch searches; one warm-up round and
// --rounds measured rounds of every mode, whose configurations are the
// sweeps' best; checks after the first measured co-run of each mode.  The
// JSON is rewritten after each group, so a run cut short keeps what it
// measured; no group is started that would end after --budget-s.  At the
// end every stream, event and green context the harness made is
// destroyed.
//
// This file is compiled without the SMC plugin (the gate kernel is launched
// as it is); the workloads' launches go through the SMC runtime.
//===----------------------------------------------------------------------===//
#include "BenchCuda.h"
#include "CoRunPlan.h"
#include "CoRunReport.h"
#include "corun/CoRunTrials.h"
#include "GreenContexts.h"
#include "Workload.h"
#include "smc/smc.h"

#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#ifndef SMC_VERSION
#define SMC_VERSION "unknown"
#endif

using nlohmann::json;
using namespace smc::corun;
namespace wl = smc::workloads;

// Holds its stream until the host sets *Release to Generation or later, or
// for TimeoutNs at most (then *TimedOut = Generation).
__global__ void gateKernel(const volatile unsigned *Release,
                           unsigned Generation, unsigned long long TimeoutNs,
                           volatile unsigned *TimedOut) {
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  while (*Release < Generation) {
    if (__nvvm_read_ptx_sreg_globaltimer() - Begin > TimeoutNs) {
      *TimedOut = Generation;
      return;
    }
    __nanosleep(1000);
  }
}

namespace {

constexpr const char *Program = "smc_corun_bench";
constexpr unsigned long long GateTimeoutNs = 200'000'000; // 200 ms
constexpr int GateAttempts = 3;

// One workload of the suite, set up once for the whole run.
struct SuiteWorkload {
  const wl::WorkloadInfo *Info = nullptr;
  const ClassifiedWorkload *Class = nullptr;
  std::unique_ptr<wl::Workload> Instance;
  double RunMs = 0;   // one run() of the originals alone
  unsigned Reps = 1;  // run()s per co-run
  double AloneMs = 0; // Reps run()s of the originals alone (calibration)
  smc::KernelProfile Profile;
  std::vector<CheckRecord> AloneChecks;
  std::set<std::string> CheckedModes;
  std::string name() const { return Info->name; }
};

// One workload's part of a co-run: Reps run()s on Stream, timed from Begin
// to End.
struct Job {
  SuiteWorkload *W;
  cudaStream_t Stream;
  cudaEvent_t Begin, End;
};

// A stream of the primary context and its timing events.
struct Lane {
  cudaStream_t Stream = nullptr;
  cudaEvent_t Begin = nullptr, End = nullptr;
};

enum class Variant { Original, SmCentric };

// What one group runs in each mode, decided before its rounds.
struct GroupRun {
  WorkloadGroup Group;
  std::vector<SuiteWorkload *> Members; // in the group's order
  std::vector<smc::KernelShare> OracleShares;
  std::vector<unsigned> GreenSms; // the first N - 1 green contexts' requests
  smc::CoRunDecision Decision;
  smc::CoRunDecision Trials;                  // what smc-trials settled on
  std::map<std::string, json> Config;         // by mode
  std::map<std::string, std::string> Missing; // unavailable modes: why
  size_t size() const { return Members.size(); }
  // The members' calibrated times alone (what the sweeps rank by).
  std::vector<double> aloneMs() const {
    std::vector<double> Ms;
    for (const SuiteWorkload *W : Members)
      Ms.push_back(W->AloneMs);
    return Ms;
  }
  std::vector<const smc::KernelProfile *> profiles() const {
    std::vector<const smc::KernelProfile *> Profiles;
    for (const SuiteWorkload *W : Members)
      Profiles.push_back(&W->Profile);
    return Profiles;
  }
};

std::string isoDate() {
  std::time_t Now = std::time(nullptr);
  char Buffer[32];
  std::strftime(Buffer, sizeof(Buffer), "%Y-%m-%dT%H:%M:%S%z",
                std::localtime(&Now));
  return Buffer;
}

// What a mode runs, for the records of modes without a decided config.
const char *whatRuns(const std::string &Mode) {
  if (Mode == "serial")
    return "the originals, one workload after the other on one stream";
  if (Mode == "streams")
    return "the originals on plain streams, one per workload";
  if (Mode == "priority")
    return "the originals, the first workload on a high-priority stream, "
           "the others on plain streams";
  if (Mode == "smc-shared")
    return "__smc variants on every SM, workers per SM as the originals' "
           "occupancy, plain streams, one per workload";
  if (Mode == "green")
    return "the originals in green contexts, one per workload";
  if (Mode == "batch-search")
    return "the workloads' launches recorded into an smc::Batch, run in "
           "the layout its Search settled on (least makespan)";
  if (Mode == "batch-turnaround")
    return "the workloads' launches recorded into an smc::Batch, run in "
           "the layout its Search settled on (least sum of the workloads' "
           "turnaround)";
  if (Mode == "smc-trials")
    return "what the measured co-run trials settled on: the originals on "
           "plain streams (sharing) or __smc variants on SM partitions";
  return "__smc variants on SM partitions";
}

class Harness {
public:
  explicit Harness(Options O) : Opt(std::move(O)) {}
  // The whole run; the exit status.
  int run();
  // --mps-tenant: one workload's loop (Options::MpsTenant); the exit status.
  int tenant();
  bool MpsTenantMode() const { return !Opt.MpsTenant.empty(); }

private:
  void initDevice();
  // Destroys what initDevice() and the green sweeps made (at the end).
  void releaseDevice();
  SuiteWorkload &workload(const std::string &Name);
  void calibrate(SuiteWorkload &W);
  void profile(SuiteWorkload &W);
  void usePolicy(const std::vector<SuiteWorkload *> &Ws, Variant V);

  std::vector<double> runJobs(const std::vector<Job> &Jobs);
  std::vector<double> runJobsOnce(const std::vector<Job> &Jobs, bool &TimedOut);
  double runAlone(SuiteWorkload &W);
  // Workload i on Plain[i] (the first on High with FirstHigh).
  std::vector<double> runOnLanes(GroupRun &P, bool FirstHigh = false);
  std::vector<double> runShares(GroupRun &P,
                                const std::vector<smc::KernelShare> &Shares);
  // A co-run scheduler's decision: a partition on SM shares, or sharing
  // (the originals on plain streams).
  std::vector<double> runDecision(GroupRun &P, const smc::CoRunDecision &D);
  std::vector<double> runGreen(GroupRun &P, const GreenContexts::Split &S);
  std::vector<double> runMode(GroupRun &P, const std::string &Mode);

  bool wants(const std::string &Mode) const {
    return std::find(Opt.Modes.begin(), Opt.Modes.end(), Mode) !=
           Opt.Modes.end();
  }
  void sweepGreen(GroupRun &P);
  void sweepOracle(GroupRun &P);
  void settleSearch(GroupRun &P, const std::string &Mode);
  void settleTrials(GroupRun &P);
  void schedule(GroupRun &P);
  void measure(GroupRun &P);
  CheckRecord check(SuiteWorkload &W);

  json workloadsJson() const;
  json report() const;
  void writeReport() const;
  double elapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         Began)
        .count();
  }

  Options Opt;
  std::chrono::steady_clock::time_point Began =
      std::chrono::steady_clock::now();
  cudaDeviceProp Prop{};
  unsigned NumSms = 0;
  // Set: runJobsOnce records the jobs' launches into an smc::Batch and runs
  // it (Mode::Search) for this objective; LastLayout is what the batch ran.
  std::optional<smc::Batch::Objective> Batched;
  std::string LastLayout;
  json Context;

  cudaStream_t GateStream = nullptr;
  cudaEvent_t Start = nullptr;
  unsigned *Flags = nullptr; // host-mapped: [0] release, [1] timed out
  unsigned *DeviceFlags = nullptr;
  unsigned Generation = 0;
  unsigned GateTimeouts = 0, UnreleasedRuns = 0;
  // Plain[i]: workload i's stream (Plain[0] also serial's and the alone
  // runs'), one per workload of the largest group; High: the priority
  // mode's first workload.
  std::vector<Lane> Plain;
  Lane High;
  GreenContexts Green;
  std::string GreenProblem; // why green contexts cannot run here

  std::map<std::string, std::unique_ptr<SuiteWorkload>> Workloads;
  std::vector<std::string> WorkloadOrder;
  std::string PolicyKey;
  std::vector<ModeRecord> Records;
  std::vector<std::string> Failures, Skipped;
  std::string Fatal;
};

void Harness::initDevice() {
  SMC_CUDA_CHECK(cudaGetDeviceProperties(&Prop, 0));
  NumSms = unsigned(Prop.multiProcessorCount);
  int Driver = 0, Runtime = 0;
  cudaDriverGetVersion(&Driver);
  cudaRuntimeGetVersion(&Runtime);
  SMC_CUDA_CHECK(cudaStreamCreateWithFlags(&GateStream, cudaStreamNonBlocking));
  SMC_CUDA_CHECK(cudaEventCreate(&Start));
  SMC_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void **>(&Flags),
                               2 * sizeof(unsigned), cudaHostAllocMapped));
  Flags[0] = Flags[1] = 0;
  SMC_CUDA_CHECK(cudaHostGetDevicePointer(
      reinterpret_cast<void **>(&DeviceFlags), Flags, 0));
  size_t Lanes = MinGroupSize;
  std::set<size_t> Sizes;
  for (const WorkloadGroup &G : Opt.Groups) {
    Lanes = std::max(Lanes, G.size());
    Sizes.insert(G.size());
  }
  Plain.resize(Lanes);
  PriorityStreams Priority = createPriorityStreams();
  Plain[0].Stream = Priority.Low;
  High.Stream = Priority.High;
  for (size_t I = 1; I < Plain.size(); ++I)
    SMC_CUDA_CHECK(
        cudaStreamCreateWithFlags(&Plain[I].Stream, cudaStreamNonBlocking));
  std::vector<Lane *> All = {&High};
  for (Lane &L : Plain)
    All.push_back(&L);
  for (Lane *L : All) {
    SMC_CUDA_CHECK(cudaEventCreate(&L->Begin));
    SMC_CUDA_CHECK(cudaEventCreate(&L->End));
  }
  if (wants("green") && !Green.init(0))
    GreenProblem = Green.reason();

  std::vector<std::string> Groups;
  for (const WorkloadGroup &G : Opt.Groups)
    Groups.push_back(G.name());
  // What the sweeps try, by group size.
  json OracleConfigs = json::object(), OracleWorkers = json::object();
  for (size_t Size : Sizes) {
    std::string Key = std::to_string(Size);
    OracleConfigs[Key] =
        oracleConfigs(NumSms, Opt.SplitStep, Opt.Workers, unsigned(Size))
            .size();
    OracleWorkers[Key] = oracleWorkers(Opt.Workers, unsigned(Size));
  }
  Context = {
      {"date", isoDate()},
      {"executable", Program},
      {"smc_version", SMC_VERSION},
      {"gpu", Prop.name},
      {"gpu_sm_count", NumSms},
      {"gpu_cc", std::to_string(Prop.major) + "." + std::to_string(Prop.minor)},
      {"cuda_driver", Driver},
      {"cuda_runtime", Runtime},
      {"module_loading", std::getenv("CUDA_MODULE_LOADING")
                             ? std::getenv("CUDA_MODULE_LOADING")
                             : ""},
      {"pairs", Groups}, // every group, whatever its size
      {"group_sizes", Sizes},
      {"triples", Opt.Triples},
      {"modes", Opt.Modes},
      {"quick", Opt.Quick},
      {"rounds", Opt.Rounds},
      {"target_ms", Opt.TargetMs},
      {"split_step", Opt.SplitStep},
      {"oracle_workers_per_sm", Opt.Workers},
      {"oracle_workers_per_sm_by_group_size", OracleWorkers},
      {"oracle_configs", OracleConfigs}, // by group size
      {"green_max_splits", MaxGreenSplits},
      {"profile_sms", profileSmCounts(NumSms, Opt.Quick)},
      {"check", Opt.Check == CheckPolicy::EveryGroup ? "pair" : "once"},
      {"sweep_s", Opt.SweepSeconds},
      {"budget_s", Opt.BudgetSeconds},
      {"metrics", "STP = sum T_alone/T_corun; ANTT = mean T_corun/T_alone; "
                  "T_alone = the originals alone on the whole GPU (median of "
                  "the group's alone rounds); T_corun from the common start "
                  "to the end of the workload's stream; medians over rounds; "
                  "sums and means over the group's workloads"},
      {"mps", "not measured: the harness has no MPS mode"},
  };
  json GreenJson = {{"available", GreenProblem.empty() && wants("green")}};
  if (!wants("green"))
    GreenJson["reason"] = "mode not selected";
  else if (!GreenProblem.empty())
    GreenJson["reason"] = GreenProblem;
  else {
    GreenJson["device_sms"] = Green.deviceSms();
    GreenJson["min_partition"] = Green.minPartition();
    GreenJson["alignment"] = Green.alignment();
  }
  Context["green_contexts"] = GreenJson;
  if (const char *Policy = std::getenv("SMC_POLICY"))
    Context["SMC_POLICY"] = Policy; // overrides nothing the harness sets
}

void Harness::releaseDevice() {
  // Nothing may be in flight on what is destroyed; after a sticky error
  // the context is gone and there is nothing to release.
  if (cudaDeviceSynchronize() != cudaSuccess) {
    cudaGetLastError();
    std::fprintf(stderr, "%s: the device failed; nothing released\n", Program);
    return;
  }
  unsigned Failed = Green.release();
  std::vector<Lane *> All = {&High};
  for (Lane &L : Plain)
    All.push_back(&L);
  for (Lane *L : All) {
    for (cudaEvent_t *E : {&L->Begin, &L->End})
      if (*E) {
        Failed += cudaEventDestroy(*E) != cudaSuccess;
        *E = nullptr;
      }
    if (L->Stream) {
      smc::clearStreamSMs(L->Stream);
      Failed += cudaStreamDestroy(L->Stream) != cudaSuccess;
      L->Stream = nullptr;
    }
  }
  if (Start)
    Failed += cudaEventDestroy(Start) != cudaSuccess;
  if (GateStream)
    Failed += cudaStreamDestroy(GateStream) != cudaSuccess;
  if (Flags)
    Failed += cudaFreeHost(Flags) != cudaSuccess;
  Start = nullptr;
  GateStream = nullptr;
  Flags = DeviceFlags = nullptr;
  cudaGetLastError();
  if (Failed)
    std::fprintf(stderr, "%s: %u streams, events or contexts not released\n",
                 Program, Failed);
}

void Harness::usePolicy(const std::vector<SuiteWorkload *> &Ws, Variant V) {
  std::string Key = V == Variant::Original ? "original" : "smc";
  for (const SuiteWorkload *W : Ws)
    Key += ":" + W->name();
  if (Key == PolicyKey)
    return;
  // Policies of earlier pairs are dropped, so that the lookup stays short.
  smc::clearPolicies();
  smc::Policy P = V == Variant::Original ? smc::Policy::original()
                                         : smc::Policy::smCentric();
  for (const SuiteWorkload *W : Ws)
    for (const std::string &Kernel : W->Info->kernelNames)
      smc::setPolicy(Kernel, P);
  PolicyKey = Key;
}

std::vector<double> Harness::runJobsOnce(const std::vector<Job> &Jobs,
                                         bool &TimedOut) {
  unsigned Gen = ++Generation;
  gateKernel<<<1, 1, 0, GateStream>>>(DeviceFlags, Gen, GateTimeoutNs,
                                      DeviceFlags + 1);
  SMC_CUDA_CHECK(cudaGetLastError());
  SMC_CUDA_CHECK(cudaEventRecord(Start, GateStream));
  std::vector<cudaStream_t> Streams;
  for (const Job &J : Jobs) {
    if (std::find(Streams.begin(), Streams.end(), J.Stream) != Streams.end())
      continue;
    Streams.push_back(J.Stream);
    SMC_CUDA_CHECK(cudaStreamWaitEvent(J.Stream, Start, 0));
    SMC_CUDA_CHECK(cudaEventRecord(J.Begin, J.Stream));
  }
  if (Streams.size() == 1) { // serial: one workload after the other
    for (const Job &J : Jobs) {
      for (unsigned R = 0; R < J.W->Reps; ++R)
        J.W->Instance->run(J.Stream);
      SMC_CUDA_CHECK(cudaEventRecord(J.End, J.Stream));
    }
  } else {
    // Batching: events act at once while launches are recorded, so the
    // ends are recorded after run(), when each stream waits for its last
    // launch.
    smc::Batch Batch;
    std::string Error;
    if (Batched) {
      Batch.setObjective(*Batched);
      if (!Batch.begin(&Error))
        throw std::runtime_error("smc::Batch: " + Error);
    }
    unsigned Most = 0;
    for (const Job &J : Jobs)
      Most = std::max(Most, J.W->Reps);
    for (unsigned R = 0; R < Most; ++R)
      for (const Job &J : Jobs) {
        if (R >= J.W->Reps)
          continue;
        J.W->Instance->run(J.Stream);
        if (R + 1 == J.W->Reps && !Batched)
          SMC_CUDA_CHECK(cudaEventRecord(J.End, J.Stream));
      }
    if (Batched) {
      Batch.end();
      if (!Batch.run(smc::Batch::Mode::Search, &Error))
        throw std::runtime_error("smc::Batch: " + Error);
      LastLayout = Batch.describe();
      for (const Job &J : Jobs)
        SMC_CUDA_CHECK(cudaEventRecord(J.End, J.Stream));
    }
  }
  __atomic_store_n(&Flags[0], Gen, __ATOMIC_SEQ_CST);
  for (const Job &J : Jobs)
    SMC_CUDA_CHECK(cudaEventSynchronize(J.End));
  TimedOut = __atomic_load_n(&Flags[1], __ATOMIC_SEQ_CST) == Gen;
  std::vector<double> Ms;
  for (const Job &J : Jobs)
    Ms.push_back(elapsedMs(J.Begin, J.End));
  return Ms;
}

std::vector<double> Harness::runJobs(const std::vector<Job> &Jobs) {
  for (int Attempt = 1;; ++Attempt) {
    bool TimedOut = false;
    std::vector<double> Ms = runJobsOnce(Jobs, TimedOut);
    if (!TimedOut)
      return Ms;
    ++GateTimeouts;
    if (Attempt == GateAttempts) {
      ++UnreleasedRuns;
      return std::vector<double>(Jobs.size(), NAN);
    }
  }
}

double Harness::runAlone(SuiteWorkload &W) {
  return runJobs({{&W, Plain[0].Stream, Plain[0].Begin, Plain[0].End}})[0];
}

std::vector<double> Harness::runOnLanes(GroupRun &P, bool FirstHigh) {
  if (P.size() > Plain.size())
    throw std::runtime_error(P.Group.name() + ": more workloads than streams");
  std::vector<Job> Jobs;
  for (size_t I = 0; I < P.size(); ++I) {
    const Lane &L = I == 0 && FirstHigh ? High : Plain[I];
    Jobs.push_back({P.Members[I], L.Stream, L.Begin, L.End});
  }
  return runJobs(Jobs);
}

std::vector<double>
Harness::runShares(GroupRun &P, const std::vector<smc::KernelShare> &Shares) {
  if (Shares.size() != P.size() || P.size() > Plain.size())
    throw std::runtime_error(P.Group.name() + ": " +
                             std::to_string(Shares.size()) + " SM shares for " +
                             std::to_string(P.size()) + " workloads");
  usePolicy(P.Members, Variant::SmCentric);
  auto ClearAll = [&] {
    for (size_t I = 0; I < P.size(); ++I)
      smc::clearStreamSMs(Plain[I].Stream);
  };
  for (size_t I = 0; I < P.size(); ++I) {
    std::string Error;
    if (!smc::setStreamSMs(Plain[I].Stream,
                           smRange(Shares[I].FirstSm, Shares[I].NumSms),
                           Shares[I].WorkersPerSm, &Error)) {
      ClearAll();
      throw std::runtime_error(Error);
    }
  }
  std::vector<double> Ms;
  try {
    Ms = runOnLanes(P);
  } catch (...) {
    ClearAll();
    throw;
  }
  ClearAll();
  return Ms;
}

std::vector<double> Harness::runDecision(GroupRun &P,
                                         const smc::CoRunDecision &D) {
  if (D.Kind == smc::CoRunKind::Partition)
    return runShares(P, D.Shares);
  usePolicy(P.Members, Variant::Original);
  return runOnLanes(P);
}

std::vector<double> Harness::runGreen(GroupRun &P,
                                      const GreenContexts::Split &S) {
  if (S.Streams.size() != P.size())
    throw std::runtime_error("green contexts: a split of " +
                             std::to_string(S.Streams.size()) + " for " +
                             std::to_string(P.size()) + " workloads");
  usePolicy(P.Members, Variant::Original);
  std::vector<Job> Jobs;
  for (size_t I = 0; I < P.size(); ++I)
    Jobs.push_back({P.Members[I], S.Streams[I], S.Begins[I], S.Ends[I]});
  return runJobs(Jobs);
}

std::vector<double> Harness::runMode(GroupRun &P, const std::string &Mode) {
  if (Mode == "smc-shared") {
    usePolicy(P.Members, Variant::SmCentric);
    return runOnLanes(P);
  }
  if (Mode == "smc-oracle")
    return runShares(P, P.OracleShares);
  if (Mode == "batch-search" || Mode == "batch-turnaround") {
    usePolicy(P.Members, Variant::Original);
    Batched = Mode == "batch-search" ? smc::Batch::Objective::Makespan
                                     : smc::Batch::Objective::Turnaround;
    try {
      std::vector<double> Ms = runOnLanes(P);
      Batched.reset();
      return Ms;
    } catch (...) {
      Batched.reset();
      throw;
    }
  }
  if (Mode == "smc-scheduler")
    return runDecision(P, P.Decision);
  if (Mode == "smc-trials")
    return runDecision(P, P.Trials);
  if (Mode == "green") {
    std::string Error;
    const GreenContexts::Split *S = Green.split(P.GreenSms, Error);
    if (!S)
      throw std::runtime_error("green contexts: " + Error);
    return runGreen(P, *S);
  }
  usePolicy(P.Members, Variant::Original);
  if (Mode == "serial") {
    // One stream, one common Begin; each workload's End after its runs.
    std::vector<Job> Jobs;
    for (size_t I = 0; I < P.size(); ++I)
      Jobs.push_back(
          {P.Members[I], Plain[0].Stream, Plain[0].Begin, Plain[I].End});
    return runJobs(Jobs);
  }
  if (Mode == "priority")
    return runOnLanes(P, /*FirstHigh=*/true);
  return runOnLanes(P); // streams
}

CheckRecord Harness::check(SuiteWorkload &W) {
  CheckRecord R;
  R.Workload = W.name();
  try {
    wl::CheckResult Result = W.Instance->check();
    R.Ok = Result.ok;
    R.Summary = Result.summary();
  } catch (const std::exception &E) {
    R.Summary = std::string("check threw: ") + E.what();
  }
  return R;
}

SuiteWorkload &Harness::workload(const std::string &Name) {
  std::unique_ptr<SuiteWorkload> &Slot = Workloads[Name];
  if (Slot)
    return *Slot;
  auto W = std::make_unique<SuiteWorkload>();
  W->Info = wl::findWorkload(Name);
  W->Class = findClassified(Name);
  if (!W->Info || !W->Class)
    throw std::runtime_error("no workload '" + Name + "'");
  std::fprintf(stderr, "%s: setting up %s [%s]\n", Program, Name.c_str(),
               W->Info->params(wl::Size::Default).str().c_str());
  usePolicy({W.get()}, Variant::Original); // setup kernels run as they are
  W->Instance = wl::setUpWorkload(*W->Info, wl::Size::Default);
  // Uploads from pageable memory may still be in flight.
  SMC_CUDA_CHECK(cudaDeviceSynchronize());
  Slot = std::move(W);
  WorkloadOrder.push_back(Name);
  calibrate(*Slot);
  if (wants("smc-oracle") || wants("smc-scheduler") || wants("smc-trials"))
    profile(*Slot);
  return *Slot;
}

void Harness::calibrate(SuiteWorkload &W) {
  for (Variant V : {Variant::Original, Variant::SmCentric}) {
    usePolicy({&W}, V);
    W.Reps = 1;
    for (int I = 0; I < 2; ++I) // warm-up: modules, plans
      runAlone(W);
    W.Instance->resetOutputs(Plain[0].Stream);
    runAlone(W);
    CheckRecord C = check(W);
    C.Summary =
        (V == Variant::Original ? "originals alone: " : "__smc alone: ") +
        C.Summary;
    if (!C.Ok)
      Failures.push_back(W.name() + ": " + C.Summary);
    W.AloneChecks.push_back(C);
  }
  usePolicy({&W}, Variant::Original);
  W.RunMs = median({runAlone(W), runAlone(W), runAlone(W)});
  W.Reps = repsFor(W.RunMs, Opt.TargetMs);
  W.AloneMs = median({runAlone(W), runAlone(W), runAlone(W)});
  std::fprintf(stderr, "%s: %s: %.3f ms a run, %u runs alone %.3f ms\n",
               Program, W.name().c_str(), W.RunMs, W.Reps, W.AloneMs);
}

void Harness::profile(SuiteWorkload &W) {
  usePolicy({&W}, Variant::SmCentric);
  W.Profile = smc::KernelProfile(W.name(), Prop.name, NumSms);
  for (unsigned Sms : profileSmCounts(NumSms, Opt.Quick))
    for (unsigned Workers : Opt.Workers) {
      std::string Error;
      if (!smc::setStreamSMs(Plain[0].Stream, smRange(0, Sms), Workers, &Error))
        throw std::runtime_error(Error);
      double Ms = runAlone(W);
      smc::clearStreamSMs(Plain[0].Stream);
      if (std::isfinite(Ms))
        W.Profile.addSample({Sms, Workers, Ms / 1e3, 1});
    }
}

// Green contexts: N per split (greenSweep bounds the splits), each split
// measured once, in order, for --sweep-s at most; the best is kept.
void Harness::sweepGreen(GroupRun &P) {
  if (!GreenProblem.empty()) {
    P.Missing["green"] = GreenProblem;
    return;
  }
  GreenSweep Plan =
      greenSweep(NumSms, Opt.SplitStep, Green.minPartition(), Green.alignment(),
                 unsigned(P.size()), MaxGreenSplits);
  json Sweep = json::array(), Refused = json::array();
  double BestStp = 0;
  unsigned Measured = 0;
  std::string Stopped = "every split measured";
  std::vector<double> Alone = P.aloneMs();
  double Began = elapsedSeconds();
  for (const std::vector<unsigned> &Request : Plan.Requests) {
    if (elapsedSeconds() - Began > Opt.SweepSeconds) {
      Stopped = "time limit (--sweep-s)";
      break;
    }
    std::string Error;
    const GreenContexts::Split *S = Green.split(Request, Error);
    if (!S) {
      Refused.push_back({{"requested_sms", Request}, {"error", Error}});
      continue;
    }
    std::vector<double> Ms;
    try {
      Ms = runGreen(P, *S);
    } catch (const std::exception &E) {
      // Launching into green contexts does not work here: say so, once.
      cudaDeviceSynchronize(); // what was queued before the failure
      cudaGetLastError();
      GreenProblem =
          std::string("a co-run in green contexts failed: ") + E.what();
      P.Missing["green"] = GreenProblem;
      Context["green_contexts"] = {{"available", false},
                                   {"reason", GreenProblem}};
      return;
    }
    ++Measured;
    CoRunMetrics M = coRunMetrics(Alone, Ms);
    Sweep.push_back({S->RequestedSms, S->GrantedSms, M.Stp});
    if (M.Stp > BestStp) {
      BestStp = M.Stp;
      P.GreenSms = Request;
      P.Config["green"] = {{"requested_sms", S->RequestedSms},
                           {"granted_sms", S->GrantedSms}};
    }
  }
  json &GreenConfig = P.Config["green"];
  GreenConfig["sweep_step"] = Plan.Step;
  GreenConfig["sweep_splits"] = Plan.Requests.size();
  GreenConfig["sweep_max_splits"] = MaxGreenSplits;
  GreenConfig["sweep_measured"] = Measured;
  GreenConfig["sweep_stopped"] = Stopped;
  if (!Refused.empty())
    GreenConfig["refused"] = Refused;
  if (BestStp == 0) {
    P.Missing["green"] = "no split could be made or measured";
    return;
  }
  GreenConfig["sweep_best_stp"] = BestStp;
  GreenConfig["sweep_columns"] = {"requested_sms", "granted_sms", "stp"};
  GreenConfig["sweep"] = Sweep;
}

// The oracle: the configurations of oracleConfigs (for three workloads or
// more, workers per SM fixed: see oracleWorkers) in decreasing order of
// their STP bound, one co-run each, until the bound cannot beat the best
// or --sweep-s runs out.
void Harness::sweepOracle(GroupRun &P) {
  unsigned Parts = unsigned(P.size());
  std::vector<SplitConfig> Configs =
      oracleConfigs(NumSms, Opt.SplitStep, Opt.Workers, Parts);
  std::vector<double> Alone = P.aloneMs();
  std::vector<const smc::KernelProfile *> Profiles = P.profiles();
  std::vector<double> Bounds, Stps(Configs.size(), NAN);
  for (const SplitConfig &C : Configs)
    Bounds.push_back(stpUpperBound(Profiles, Alone, sharesOf(C, NumSms)));
  std::vector<size_t> Order(Configs.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Bounds[A] > Bounds[B] || (Bounds[A] == Bounds[B] && A < B);
  });
  double Began = elapsedSeconds();
  unsigned Measured = 0;
  std::string Stopped = "every configuration measured";
  CoRunMetrics Best;
  SplitConfig BestConfig;
  for (size_t I : Order) {
    if (!mayBeat(Bounds[I], Best.Stp)) {
      Stopped = "the rest cannot beat the best (STP bound from the profiles)";
      break;
    }
    if (elapsedSeconds() - Began > Opt.SweepSeconds) {
      Stopped = "time limit (--sweep-s)";
      break;
    }
    std::vector<double> Ms = runShares(P, sharesOf(Configs[I], NumSms));
    CoRunMetrics M = coRunMetrics(Alone, Ms);
    Stps[I] = M.Stp;
    ++Measured;
    if (M.Stp > Best.Stp ||
        (M.Stp > 0 && M.Stp == Best.Stp && M.Antt < Best.Antt)) {
      Best = M;
      BestConfig = Configs[I];
    }
  }
  if (Best.Stp == 0) {
    P.Missing["smc-oracle"] = "no configuration could be measured";
    return;
  }
  json Sweep = json::array();
  for (size_t I = 0; I < Configs.size(); ++I)
    Sweep.push_back({Configs[I].Sms, Configs[I].Workers,
                     std::isfinite(Stps[I]) ? json(Stps[I]) : json(),
                     std::isfinite(Bounds[I]) ? json(Bounds[I]) : json()});
  P.OracleShares = sharesOf(BestConfig, NumSms);
  P.Config["smc-oracle"] = {
      {"shares", sharesJson(P.OracleShares)},
      {"sweep_best_stp", Best.Stp},
      {"sweep_measured", Measured},
      {"sweep_configs", Configs.size()},
      {"sweep_workers_per_sm_choices", oracleWorkers(Opt.Workers, Parts)},
      {"sweep_stopped", Stopped},
      {"sweep_columns", {"sms", "workers_per_sm", "stp", "stp_bound"}},
      {"sweep", Sweep}};
}

// Runs the group as a batch until smc::Batch's Search has settled on a
// layout (as a program that co-runs the group again and again would), or
// SearchBatches times at most.
void Harness::settleSearch(GroupRun &P, const std::string &Mode) {
  constexpr unsigned SearchBatches = 300;
  unsigned Runs = 0;
  try {
    while (Runs < SearchBatches) {
      runMode(P, Mode);
      ++Runs;
      if (LastLayout.find("the fastest of") != std::string::npos)
        break;
    }
  } catch (const std::exception &E) {
    P.Missing[Mode] = E.what();
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
    return;
  }
  size_t At = LastLayout.find("layout lane");
  P.Config[Mode] = {
      {"runs", whatRuns(Mode)},
      {"settled_after_batches", Runs},
      {"layout", At == std::string::npos ? LastLayout : LastLayout.substr(At)}};
}

void Harness::schedule(GroupRun &P) {
  P.Decision = decideGroup(P.profiles(), NumSms, Opt.SplitStep);
  bool Split = P.Decision.Kind == smc::CoRunKind::Partition;
  P.Config["smc-scheduler"] = {
      {"decision", decisionJson(P.Decision, P.aloneMs())},
      {"runs", Split ? "__smc variants on the decided shares"
                     : "the originals on plain streams, one per workload "
                       "(shared)"}};
}

// Co-runs the group under the trials of policy auto's measured co-runs
// (runtime/CoRunTrials.h) until they settle, as a program whose co-run
// recurs would: each trial is three co-runs of the group (the runtime's
// samples per kernel), its STP from the workloads' mean times over their
// profiles' times alone on every SM; splits in the runtime's steps
// (trialGranularity), at the original's occupancy; at most 60 co-runs.
void Harness::settleTrials(GroupRun &P) {
  std::vector<smc::CoRunKernel> Kernels;
  for (const SuiteWorkload *W : P.Members)
    Kernels.push_back({W->name(), &W->Profile});
  if (!smc::CoRunTrials::applies(Kernels, NumSms)) {
    P.Missing["smc-trials"] = "the workloads' profiles do not allow trials";
    return;
  }
  smc::CoRunTrials::Options O;
  O.NumSms = NumSms;
  O.Granularity = smc::trialGranularity(NumSms);
  smc::CoRunTrials Trials(Kernels, std::vector<unsigned>(P.size(), 1),
                          decideGroup(P.profiles(), NumSms, Opt.SplitStep), O);
  constexpr unsigned MaxCoRuns = 60;
  unsigned CoRuns = 0;
  try {
    while (!Trials.settled() && CoRuns++ < MaxCoRuns) {
      unsigned Trial = Trials.trial();
      const smc::CoRunDecision &D = Trials.decision();
      std::vector<double> Ms = runDecision(P, D);
      for (size_t I = 0; I < Ms.size(); ++I)
        Trials.record(Trial, I, Ms[I] / 1e3);
    }
  } catch (const std::exception &E) {
    P.Missing["smc-trials"] = E.what();
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
    return;
  }
  P.Trials = Trials.decision();
  json Tried = json::array();
  for (const smc::CoRunTrials::Trial &T : Trials.measured())
    Tried.push_back({{"decision", T.Decision.Reason},
                     {"shares", sharesJson(T.Decision.Shares)},
                     {"stp", T.Stp}});
  P.Config["smc-trials"] = {
      {"runs", P.Trials.Kind == smc::CoRunKind::Partition
                   ? "__smc variants on the settled shares"
                   : "the originals on plain streams, one per workload "
                     "(sharing)"},
      {"settled", Trials.settled()},
      {"co_runs", CoRuns},
      {"decision", P.Trials.Reason},
      {"shares", sharesJson(P.Trials.Shares)},
      {"trials", Tried}};
}

void Harness::measure(GroupRun &P) {
  std::vector<std::string> Modes = {"alone"};
  for (const std::string &Mode : Opt.Modes)
    if (!P.Missing.count(Mode))
      Modes.push_back(Mode);
  const size_t N = P.size();
  std::map<std::string, std::vector<std::vector<double>>> Samples;
  std::map<std::string, std::vector<CheckRecord>> Checks;
  for (unsigned Round = 0; Round <= Opt.Rounds; ++Round) {
    std::vector<std::string> Order = Modes;
    std::rotate(Order.begin(), Order.begin() + Round % Order.size(),
                Order.end());
    for (const std::string &Mode : Order) {
      std::vector<double> Ms;
      if (Mode == "alone") {
        usePolicy(P.Members, Variant::Original);
        for (SuiteWorkload *W : P.Members)
          Ms.push_back(runAlone(*W));
      } else {
        std::vector<SuiteWorkload *> ToCheck;
        if (Round == 1)
          for (SuiteWorkload *W : P.Members)
            if (Opt.Check == CheckPolicy::EveryGroup ||
                !W->CheckedModes.count(Mode))
              ToCheck.push_back(W);
        for (SuiteWorkload *W : ToCheck)
          W->Instance->resetOutputs(GateStream);
        Ms = runMode(P, Mode);
        for (SuiteWorkload *W : ToCheck) {
          Checks[Mode].push_back(check(*W));
          W->CheckedModes.insert(Mode);
        }
      }
      if (Round == 0) // warm-up
        continue;
      if (Ms.size() != N)
        throw std::runtime_error(P.Group.name() + "/" + Mode + ": " +
                                 std::to_string(Ms.size()) + " times for " +
                                 std::to_string(N) + " workloads");
      std::vector<std::vector<double>> &S = Samples[Mode];
      S.resize(N);
      for (size_t I = 0; I < N; ++I)
        S[I].push_back(Ms[I]);
    }
  }

  std::vector<std::vector<double>> &Alone = Samples["alone"];
  Alone.resize(N);
  for (const std::string &Mode : Opt.Modes) {
    ModeRecord R;
    R.Group = P.Group.name();
    R.Mode = Mode;
    R.Categories = categoriesOf(P.Group);
    if (P.Config.count(Mode))
      R.Config = P.Config[Mode];
    if (!R.Config.contains("runs"))
      R.Config["runs"] = whatRuns(Mode);
    for (size_t I = 0; I < N; ++I) {
      KernelRecord K;
      K.Workload = P.Members[I]->name();
      K.Reps = P.Members[I]->Reps;
      K.AloneMs = median(Alone[I]);
      if (Samples.count(Mode))
        K.CoRunSamplesMs = Samples[Mode][I];
      R.Kernels.push_back(K);
    }
    if (P.Missing.count(Mode)) {
      R.Status = "unavailable";
      R.Note = P.Missing[Mode];
    }
    R.Checks = Checks[Mode];
    for (const CheckRecord &C : R.Checks)
      if (!C.Ok) {
        R.Status = "failed";
        R.Note = C.Workload + " failed its check after this co-run";
        Failures.push_back(R.Group + "/" + Mode + ": " + C.Workload + ": " +
                           C.Summary);
      }
    Records.push_back(R);
  }
}

json Harness::workloadsJson() const {
  json List = json::array();
  for (const std::string &Name : WorkloadOrder) {
    const SuiteWorkload &W = *Workloads.at(Name);
    wl::RunEstimate E = W.Instance->estimate();
    json J = {{"name", Name},
              {"class", className(W.Class->Class)},
              {"ops_per_byte", W.Class->OpsPerByte},
              {"h100_readme_run_ms", W.Class->H100RunMs},
              {"length", lengthName(W.Class->length())},
              {"kernels", W.Info->kernelNames},
              {"params", W.Info->params(wl::Size::Default).str()},
              {"run_ms", W.RunMs},
              {"reps", W.Reps},
              {"alone_ms", W.AloneMs},
              {"estimate_bytes_per_run", E.bytes},
              {"estimate_ops_per_run", E.flops}};
    if (W.RunMs > 0)
      J["dram_gb_per_s"] = E.bytes / (W.RunMs * 1e-3) / 1e9;
    if (E.bytes > 0)
      J["estimate_ops_per_byte"] = E.flops / E.bytes;
    J["checks"] = json::array();
    for (const CheckRecord &C : W.AloneChecks)
      J["checks"].push_back({{"ok", C.Ok}, {"summary", C.Summary}});
    J["profile"] = json::array();
    for (const smc::ScalingPoint &Point : W.Profile.points())
      J["profile"].push_back({{"sms", Point.Sms},
                              {"workers_per_sm", Point.WorkersPerSm},
                              {"ms", Point.Seconds * 1e3}});
    List.push_back(J);
  }
  return List;
}

json Harness::report() const {
  json J;
  J["context"] = Context;
  J["context"]["elapsed_s"] = elapsedSeconds();
  J["context"]["gate_timeouts"] = GateTimeouts;
  J["context"]["unreleased_runs"] = UnreleasedRuns;
  J["workloads"] = workloadsJson();
  J["benchmarks"] = json::array();
  for (const ModeRecord &R : Records)
    J["benchmarks"].push_back(toJson(R));
  J["summary"] = summarize(Records, Opt.Modes);
  J["failures"] = Failures;
  J["skipped_pairs"] = Skipped;
  if (!Fatal.empty())
    J["fatal_error"] = Fatal;
  return J;
}

void Harness::writeReport() const {
  std::string Temporary = Opt.OutFile + ".tmp";
  {
    std::ofstream Out(Temporary);
    Out << report().dump(1) << "\n";
    if (!Out)
      throw std::runtime_error("cannot write " + Temporary);
  }
  if (std::rename(Temporary.c_str(), Opt.OutFile.c_str()) != 0)
    throw std::runtime_error("cannot rename " + Temporary + " to " +
                             Opt.OutFile);
}

int Harness::tenant() {
  Opt.Modes = {"streams"}; // no profiles, sweeps or batches: its loop only
  try {
    initDevice();
    SuiteWorkload &W = workload(Opt.MpsTenant); // set up, checked, calibrated
    if (Opt.TenantReps)
      W.Reps = Opt.TenantReps;
    if (Opt.Gate.empty()) {
      std::printf("reps %u\n", W.Reps);
      return Failures.empty() ? 0 : 1;
    }
    usePolicy({&W}, Variant::Original);
    runAlone(W); // warm-up at this process's MPS share
    W.Instance->resetOutputs(Plain[0].Stream);
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
    std::ofstream(Opt.Gate + ".ready-" + std::to_string(getpid())) << "\n";
    while (!std::ifstream(Opt.Gate))
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    auto Wall = [] {
      return std::chrono::duration<double>(
                 std::chrono::system_clock::now().time_since_epoch())
          .count();
    };
    double Begin = Wall();
    double Ms = runAlone(W);
    double End = Wall();
    CheckRecord C = check(W);
    std::printf("tenant %s %.6f %s %.6f %.6f\n", W.name().c_str(), Ms / 1e3,
                C.Ok && std::isfinite(Ms) && Failures.empty() ? "right"
                                                              : "WRONG",
                Begin, End);
    return C.Ok && Failures.empty() ? 0 : 1;
  } catch (const std::exception &E) {
    std::fprintf(stderr, "%s: %s\n", Program, E.what());
    return 1;
  }
}

int Harness::run() {
  try {
    initDevice();
    std::fprintf(stderr, "%s: %s, %u SMs; %zu %s, modes:", Program, Prop.name,
                 NumSms, Opt.Groups.size(), groupsNoun(Opt.Groups).c_str());
    for (const std::string &Mode : Opt.Modes)
      std::fprintf(stderr, " %s", Mode.c_str());
    std::fprintf(
        stderr, "%s\n",
        GreenProblem.empty()
            ? ""
            : ("\n  green contexts unavailable: " + GreenProblem).c_str());
    double GroupSeconds = 0; // the longest group so far
    for (size_t I = 0; I < Opt.Groups.size(); ++I) {
      const WorkloadGroup &Group = Opt.Groups[I];
      double Begin = elapsedSeconds();
      if (Begin + GroupSeconds > Opt.BudgetSeconds) {
        for (size_t J = I; J < Opt.Groups.size(); ++J)
          Skipped.push_back(Opt.Groups[J].name());
        std::fprintf(stderr,
                     "%s: %.0f s of the %.0f s budget used: %zu %s "
                     "skipped\n",
                     Program, Begin, Opt.BudgetSeconds, Skipped.size(),
                     groupsNoun(Opt.Groups).c_str());
        break;
      }
      GroupRun P;
      P.Group = Group;
      for (const std::string &Name : Group.Names)
        P.Members.push_back(&workload(Name));
      if (wants("green"))
        sweepGreen(P);
      if (wants("smc-oracle"))
        sweepOracle(P);
      if (wants("smc-scheduler"))
        schedule(P);
      if (wants("smc-trials"))
        settleTrials(P);
      for (const char *Mode : {"batch-search", "batch-turnaround"})
        if (wants(Mode))
          settleSearch(P, Mode);
      measure(P);
      writeReport();
      GroupSeconds = std::max(GroupSeconds, elapsedSeconds() - Begin);
      std::fprintf(stderr, "%s: %s %zu/%zu %s done (%.1f s)\n", Program,
                   groupNoun(Group.size()).c_str(), I + 1, Opt.Groups.size(),
                   Group.name().c_str(), elapsedSeconds() - Begin);
    }
  } catch (const std::exception &E) {
    Fatal = E.what();
    std::fprintf(stderr, "%s: %s\n", Program, E.what());
  }
  try {
    writeReport();
  } catch (const std::exception &E) {
    std::fprintf(stderr, "%s: %s\n", Program, E.what());
    return 1;
  }
  for (const std::string &F : Failures)
    std::fprintf(stderr, "%s: FAILED: %s\n", Program, F.c_str());
  std::fprintf(stderr, "%s: wrote %s\n", Program, Opt.OutFile.c_str());
  releaseDevice();
  return Fatal.empty() && Failures.empty() ? 0 : 1;
}

// The groups of --list, each with its categories (and its class mix if it
// has more than two workloads), then the count per category.
void listGroups(const std::vector<WorkloadGroup> &Groups,
                const std::string &Heading) {
  std::map<std::string, unsigned> PerCategory;
  std::string Noun = groupsNoun(Groups);
  int Width = 16;
  for (const WorkloadGroup &G : Groups)
    Width = std::max(Width, int(G.name().size()));
  std::printf("\n%zu %s%s:\n", Groups.size(), Noun.c_str(), Heading.c_str());
  for (const WorkloadGroup &G : Groups) {
    std::string Categories;
    for (const std::string &C : categoriesOf(G)) {
      Categories += (Categories.empty() ? "" : ", ") + C;
      ++PerCategory[C];
    }
    if (G.size() > 2)
      Categories += " (" + classMix(G) + ")";
    std::printf("  %-*s %s\n", Width, G.name().c_str(), Categories.c_str());
  }
  for (const std::string &C : allCategories())
    std::printf("%-18s %u %s\n", C.c_str(), PerCategory[C], Noun.c_str());
}

// --list: the classification and the groups a run would co-run, checked
// against the registry; where those hold no triple, the triples of
// --triples too.  No CUDA call.
int listWorkloads(const Options &O) {
  int Status = 0;
  std::printf("%-9s %-8s %10s %10s %-7s\n", "workload", "class", "ops/byte",
              "H100 ms", "length");
  for (const ClassifiedWorkload &W : classifiedWorkloads()) {
    const wl::WorkloadInfo *Info = wl::findWorkload(W.Name);
    const char *Problem = !Info ? "  NOT IN THE REGISTRY"
                          : Info->features & wl::FeatureEarlyExitBeforeBarrier
                              ? "  ONE-CHUNK: setStreamSMs cannot confine it"
                              : "";
    Status |= *Problem != '\0';
    std::printf("%-9s %-8s %10.2f %10.2f %-7s%s\n", W.Name, className(W.Class),
                W.OpsPerByte, W.H100RunMs, lengthName(W.length()), Problem);
  }
  listGroups(O.Groups, "");
  bool AnyTriple =
      std::any_of(O.Groups.begin(), O.Groups.end(),
                  [](const WorkloadGroup &G) { return G.size() == 3; });
  if (!AnyTriple)
    listGroups(O.Quick ? quickTriples() : defaultTriples(),
               " of --triples (not selected)");
  return Status;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  std::string Error;
  if (!parseOptions(std::vector<std::string>(Argv + 1, Argv + Argc), O,
                    Error)) {
    if (Error == "help") {
      std::fputs(usage().c_str(), stdout);
      return 0;
    }
    std::fprintf(stderr, "%s: %s\n%s", Program, Error.c_str(), usage().c_str());
    return 2;
  }
  if (O.ListOnly)
    return listWorkloads(O);
  if (std::getenv("SMC_STATS")) {
    // It synchronizes after every launch, which the common start forbids.
    std::fprintf(stderr,
                 "%s: unset SMC_STATS (it synchronizes after each "
                 "launch)\n",
                 Program);
    return 2;
  }
  // A lazy module load during a co-run can wait for the other kernel
  // (docs/policies.md, "Lazy module loading"): load everything up front.
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  int Count = 0;
  if (cudaGetDeviceCount(&Count) != cudaSuccess || Count == 0) {
    std::fprintf(stderr, "%s: no CUDA GPU\n", Program);
    return 77;
  }
  Harness H(std::move(O));
  return H.MpsTenantMode() ? H.tenant() : H.run();
}
