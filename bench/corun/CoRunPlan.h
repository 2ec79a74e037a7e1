//===- CoRunPlan.h - What smc_corun_bench co-runs, and how ------*- C++ -*-===//
//
// The CUDA-free plan of the co-run harness (bench/corun/corun.cu): which
// suite workloads are memory- or compute-bound and why, the pairs co-run by
// default and their categories, the modes, the command line, the SM splits
// the static oracle and green contexts try, the SM counts the scheduler's
// profiles measure and the repetitions that give each workload a comparable
// time alone.  Unit-tested in test/unit/CoRunBenchTest.cpp.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_CORUNPLAN_H
#define SMC_BENCH_CORUN_CORUNPLAN_H

#include <optional>
#include <string>
#include <vector>

namespace smc::corun {

// Memory: the workload's arithmetic intensity is below the H100's ridge
// point (see classifiedWorkloads()); Compute: at or above it.
enum class WorkloadClass { Memory, Compute };
const char *className(WorkloadClass Class);

// One run() is Short (< 1 ms on an H100 at Default size: many short
// kernels once repeated), Long (>= 2 ms: few long kernels) or Medium.
enum class RunLength { Short, Medium, Long };
const char *lengthName(RunLength Length);

struct ClassifiedWorkload {
  const char *Name;
  WorkloadClass Class;
  // Operations per byte of compulsory DRAM traffic: Workload::estimate()'s
  // flops / bytes at Size::Default.
  double OpsPerByte;
  // One run() at Size::Default on an H100 80GB HBM3, ms (bench/workloads
  // README, "Sizes and checks").
  double H100RunMs;
  RunLength length() const;
};

// The suite workloads the harness may pair, in the registry's order.  Not
// listed: pf, st and hotspot, whose __smc variants run in one-chunk mode,
// which setStreamSMs does not confine (README, "Compiler side").
const std::vector<ClassifiedWorkload> &classifiedWorkloads();
const ClassifiedWorkload *findClassified(const std::string &Name);

struct WorkloadPair {
  std::string First, Second;
  // "spmv+mm".
  std::string name() const;
  bool operator==(const WorkloadPair &O) const {
    return First == O.First && Second == O.Second;
  }
};

// "memory x compute" (either order), "memory x memory", "compute x
// compute", and "short x long" where one run() is Short and the other Long.
std::vector<std::string> categoriesOf(const WorkloadPair &Pair);
const std::vector<std::string> &allCategories();

// The 24 pairs of a default run, and the 8 of --quick (at least two per
// category).
const std::vector<WorkloadPair> &defaultPairs();
const std::vector<WorkloadPair> &quickPairs();

// "a+b,c+d" into pairs of classified workloads; false with Error naming the
// bad part.
bool parsePairs(const std::string &Text, std::vector<WorkloadPair> &Pairs,
                std::string &Error);

// The co-run modes, in the order records are written:
//   serial         the originals one after the other on one stream
//   streams        the originals on two plain streams
//   priority       the originals, the first on a high-priority stream
//   green          the originals in two CUDA green contexts, best split
//   smc-shared     both __smc variants on every SM (no partition)
//   smc-oracle     __smc, the best of every SM split x workers per SM
//   smc-scheduler  the split CoRunScheduler's decide() picks from profiles
//                  (its Shared decision runs the originals on two streams)
const std::vector<std::string> &allModes();

enum class CheckPolicy {
  FirstUse,  // each workload once per mode: after its first measured co-run
             // in that mode, in the first pair that has it
  EveryPair, // each workload after the first measured co-run of each mode
             // of each pair
};

struct Options {
  std::vector<WorkloadPair> Pairs;
  std::vector<std::string> Modes; // in allModes() order
  std::string OutFile = "corun.json";
  bool Quick = false;
  bool ListOnly = false;
  // Measured rounds (after one warm-up round); every mode once per round.
  unsigned Rounds = 5;
  // Each workload repeats run() to about this many ms alone.
  double TargetMs = 5;
  // SM splits of the oracle and green contexts move in steps of this many
  // SMs; the oracle's workers per SM (0: the original's occupancy).
  unsigned SplitStep = 8;
  std::vector<unsigned> Workers = {0, 1, 2, 4};
  // The oracle sweep of a pair stops after this many seconds (the splits
  // most likely to win are measured first, see stpUpperBound).
  double SweepSeconds = 6;
  CheckPolicy Check = CheckPolicy::FirstUse;
  // No pair is started once the run would exceed this many seconds.
  double BudgetSeconds = 420;
};

// Parses the arguments (argv[1..]); --quick changes the defaults of what is
// not given (8 pairs, 3 rounds, split step 16, workers 0 and 1, sweeps of
// 3 s).  False with
// Error set on a bad argument; Error is "help" for --help.
bool parseOptions(const std::vector<std::string> &Args, Options &O,
                  std::string &Error);
std::string usage();

// One SM split of two kernels: the first on SMs [0, FirstSms), the second on
// [FirstSms, NumSms), with the given workers per SM (0: the original's
// occupancy).
struct SplitConfig {
  unsigned FirstSms = 0;
  unsigned FirstWorkers = 0, SecondWorkers = 0;
  bool operator==(const SplitConfig &O) const {
    return FirstSms == O.FirstSms && FirstWorkers == O.FirstWorkers &&
           SecondWorkers == O.SecondWorkers;
  }
};

// SM counts of the first kernel: Step, 2 Step, ... while the second keeps
// at least Step SMs (132 SMs, step 8: 8 to 120, the second 124 to 12).
std::vector<unsigned> splitPoints(unsigned NumSms, unsigned Step);
// Every split point x first workers x second workers.
std::vector<SplitConfig> oracleConfigs(unsigned NumSms, unsigned Step,
                                       const std::vector<unsigned> &Workers);
// The first green context's SM counts to request: each split point rounded
// up to the driver's alignment and minimum partition, keeping only those
// that leave the second context at least MinPartition SMs; no repeats.
std::vector<unsigned> greenRequests(unsigned NumSms, unsigned Step,
                                    unsigned MinPartition, unsigned Alignment);
// SM counts the profiles measure (for the scheduler and the oracle's STP
// bound): Quick {16, 32, 64, 96}, else {8, 16, 24, 32, 48, 64, 80, 96,
// 112}, those below NumSms, then NumSms.
std::vector<unsigned> profileSmCounts(unsigned NumSms, bool Quick);

// run() repetitions that take about TargetMs when one run() takes RunMs:
// at least 1, at most MaxReps.
unsigned repsFor(double RunMs, double TargetMs, unsigned MaxReps = 1000);

// SMs First, First + 1, ..., First + Count - 1.
std::vector<unsigned> smRange(unsigned First, unsigned Count);

} // namespace smc::corun

#endif // SMC_BENCH_CORUN_CORUNPLAN_H
