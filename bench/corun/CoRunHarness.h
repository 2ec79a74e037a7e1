//===- CoRunHarness.h - The co-run harness of smc_corun_bench ---*- C++ -*-===//
//
// What smc_corun_bench (corun.cu, which describes the run) keeps: its
// workloads, the jobs of one co-run, its streams, what one group runs in
// each mode, and the Harness, whose methods are defined by concern:
// CoRunSetup.cu (the device, the workloads' setup, checks, calibration and
// profiles), CoRunModes.cu (the gate and the co-run of each mode),
// CoRunSweeps.cu (the sweeps and decisions before a group's rounds),
// CoRunRounds.cu (the measured rounds and the JSON) and corun.cu (the whole
// run).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_CORUNHARNESS_H
#define SMC_BENCH_CORUN_CORUNHARNESS_H

#include "CoRunPlan.h"
#include "CoRunReport.h"
#include "GreenContexts.h"
#include "Workload.h"
#include "smc/smc.h"

#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace smc::corun {

using nlohmann::json;
namespace wl = smc::workloads;

constexpr const char *Program = "smc_corun_bench";

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

// What a mode runs, for the records of modes without a decided config.
const char *whatRuns(const std::string &Mode);

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

} // namespace smc::corun

#endif // SMC_BENCH_CORUN_CORUNHARNESS_H
