//===- CoRunPlan.h - What smc_corun_bench co-runs, and how ------*- C++ -*-===//
//
// The CUDA-free plan of the co-run harness (bench/corun/corun.cu): which
// suite workloads are memory- or compute-bound and why, the groups of 2 to
// 4 workloads co-run (the 24 default pairs, the 8 default triples of
// --triples) and their categories, the modes, the command line, the N-way
// SM splits the static oracle and green contexts try, the SM counts the
// scheduler's profiles measure and the repetitions that give each workload
// a comparable time alone.  Defined in CoRunGroups.cpp (classes, groups),
// CoRunPlan.cpp (modes, command line) and CoRunSplits.cpp (splits, counts);
// unit-tested in test/unit/CoRunGroupsTest.cpp, CoRunOptionsTest.cpp and
// CoRunSplitsTest.cpp.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_CORUNPLAN_H
#define SMC_BENCH_CORUN_CORUNPLAN_H

#include <initializer_list>
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
  // docs/benchmarks.md).
  double H100RunMs;
  RunLength length() const;
};

// The suite workloads the harness may co-run, in the registry's order.  Not
// listed: pf, st and hotspot, whose __smc variants run in one-chunk mode,
// which setStreamSMs does not confine (docs/compiler.md).
const std::vector<ClassifiedWorkload> &classifiedWorkloads();
const ClassifiedWorkload *findClassified(const std::string &Name);

// The fewest and the most workloads a co-run group may have.
constexpr unsigned MinGroupSize = 2, MaxGroupSize = 4;

// Workloads that co-run: a pair, a triple or a group of four, each on a
// stream of its own, started together.  Within a group the first is the
// workload that the priority mode puts on the high-priority stream.
struct WorkloadGroup {
  std::vector<std::string> Names;
  WorkloadGroup() = default;
  WorkloadGroup(std::initializer_list<std::string> List) : Names(List) {}
  explicit WorkloadGroup(std::vector<std::string> List)
      : Names(std::move(List)) {}
  size_t size() const { return Names.size(); }
  // "spmv+mm", "spmv+mm+nn".
  std::string name() const;
  bool operator==(const WorkloadGroup &O) const { return Names == O.Names; }
};

// How many of the group's workloads are of each class: "2 memory + 1
// compute" (memory first; a class with none is left out: "3 memory").
std::string classMix(const WorkloadGroup &Group);

// "pair", "triple", "group of 4".
std::string groupNoun(size_t Size);
// The plural for a list of groups: "pairs" or "triples" if every group has
// that size, else "groups".
std::string groupsNoun(const std::vector<WorkloadGroup> &Groups);

// The categories of a group of classified workloads (empty if one is not
// classified).  By class, exactly one of: "memory x compute" (the group has
// a memory-bound and a compute-bound workload, in any number and order),
// "memory x memory" (all memory-bound), "compute x compute" (all
// compute-bound); and "short x long" when one run() is Short and another
// Long (RunLength).  A triple of two memory-bound workloads and one
// compute-bound one is "memory x compute", as is one of one memory-bound
// and two compute-bound; the JSON lists each group's workloads, and
// --list prints their classes.
std::vector<std::string> categoriesOf(const WorkloadGroup &Group);
const std::vector<std::string> &allCategories();

// The 24 pairs of a default run, and the 8 of --quick (at least two per
// category).
const std::vector<WorkloadGroup> &defaultPairs();
const std::vector<WorkloadGroup> &quickPairs();
// The 8 triples of --triples, each a default pair and a third workload
// (so that a triple's numbers can be set beside its pair's): at least two
// per category, both memory x compute mixes (two memory-bound and one
// compute-bound, one and two), and the 4 of --quick --triples (every
// category at least once).
const std::vector<WorkloadGroup> &defaultTriples();
const std::vector<WorkloadGroup> &quickTriples();

// "a+b,c+d+e" into groups of MinGroupSize to MaxGroupSize classified
// workloads, none twice in one group; false with Error naming the bad
// part (Groups unchanged).
bool parseGroups(const std::string &Text, std::vector<WorkloadGroup> &Groups,
                 std::string &Error);

// The co-run modes, in the order records are written (N: the group's
// workloads):
//   serial            the originals one after the other on one stream
//   streams           the originals on N plain streams
//   priority          the originals, the first on a high-priority stream,
//                     the others on plain streams
//   green             the originals in N CUDA green contexts, best split
//   smc-shared        the N __smc variants on every SM (no partition)
//   smc-oracle        __smc, the best of the SM splits x workers per SM
//                     (oracleConfigs)
//   smc-scheduler     the split CoRunScheduler's decide() picks from the N
//                     profiles (its Shared decision runs the originals on
//                     N streams)
//   smc-trials        what CoRunTrials (runtime/corun/CoRunTrials.h, policy
//                     auto's measured co-runs) settles on after co-running
//                     the group under its trials: the model's decision,
//                     sharing, then hill climbing over splits
//   batch-search,     the N workloads' launches recorded into an
//   batch-turnaround  smc::Batch, run in the layout its Search settles on
const std::vector<std::string> &allModes();

enum class CheckPolicy {
  FirstUse,   // each workload once per mode: after its first measured
              // co-run in that mode, in the first group that has it
  EveryGroup, // each workload after the first measured co-run of each mode
              // of each group (--check=pair, or =group)
};

struct Options {
  std::vector<WorkloadGroup> Groups;
  std::vector<std::string> Modes; // in allModes() order
  std::string OutFile = "corun.json";
  bool Quick = false;
  // --triples: the default triples instead of the default pairs.
  bool Triples = false;
  bool ListOnly = false;
  // Measured rounds (after one warm-up round); every mode once per round.
  unsigned Rounds = 5;
  // Each workload repeats run() to about this many ms alone.
  double TargetMs = 5;
  // SM splits of the oracle and green contexts move in steps of this many
  // SMs; the oracle's workers per SM (0: the original's occupancy), sorted.
  unsigned SplitStep = 8;
  std::vector<unsigned> Workers = {0, 1, 2, 4};
  // The oracle sweep and the green-context sweep of a group each stop
  // after this many seconds (the oracle measures the splits most likely to
  // win first, see stpUpperBound).
  double SweepSeconds = 6;
  CheckPolicy Check = CheckPolicy::FirstUse;
  // No group is started once the run would exceed this many seconds.
  double BudgetSeconds = 420;
  // --mps-tenant=NAME: one workload's loop of its originals in a process of
  // its own (bench/corun/run_mps.py runs two under MPS): it sets the
  // workload up, then, with --gate=FILE, creates FILE.ready-<pid>, waits for
  // FILE and prints "tenant NAME SECONDS right|WRONG BEGIN END" (its loop of
  // --reps=N runs, else as many as take --target-ms alone); without a gate
  // it prints "reps N" and ends.
  std::string MpsTenant, Gate;
  unsigned TenantReps = 0;
};

// Parses the arguments (argv[1..]); --quick changes the defaults of what is
// not given (8 pairs or 4 triples, 3 rounds, split step 16, workers 0 and
// 1, sweeps of 3 s); --triples selects the default triples (with --quick
// the quick ones); it and --pairs exclude each other.  False with Error
// set on a bad argument; Error is "help" for --help.
bool parseOptions(const std::vector<std::string> &Args, Options &O,
                  std::string &Error);
std::string usage();

// One SM split of a group's N kernels: kernel i on Sms[i] SMs, laid out in
// order from SM 0 (kernel 0 on [0, Sms[0]), kernel 1 next, ...), with
// Workers[i] workers per SM (0: the original's occupancy).
struct SplitConfig {
  std::vector<unsigned> Sms;
  std::vector<unsigned> Workers;
  bool operator==(const SplitConfig &O) const {
    return Sms == O.Sms && Workers == O.Workers;
  }
};

// Every split of NumSms SMs among Parts kernels in which each of the first
// Parts - 1 gets a multiple of Step SMs (at least Step) and the last the
// rest, at least Step; each split's counts sum to NumSms.  In lexicographic
// order (the first kernel's count outermost).  132 SMs, step 8: 15 splits
// of two ({8, 124} to {120, 12}), 105 of three, 455 of four.  Empty for
// Step 0 or Parts < 2.
std::vector<std::vector<unsigned>> smSplits(unsigned NumSms, unsigned Step,
                                            unsigned Parts);
// The oracle's workers-per-SM choices for one kernel of a group of Parts:
// every one of Workers for a pair; for three or more, only the smallest of
// Workers (0 by default: the original's occupancy), since Workers^Parts
// combinations per split (64 for a triple at four counts) would not be
// measured within --sweep-s.
std::vector<unsigned> oracleWorkers(const std::vector<unsigned> &Workers,
                                    unsigned Parts);
// Every split of smSplits x every choice of oracleWorkers per kernel (the
// last kernel's choice innermost): 240 for a pair at step 8 with workers
// {0, 1, 2, 4} on 132 SMs, 105 for a triple.
std::vector<SplitConfig> oracleConfigs(unsigned NumSms, unsigned Step,
                                       const std::vector<unsigned> &Workers,
                                       unsigned Parts);
// The SM counts to request for the first Parts - 1 green contexts (the
// last gets the rest): each split of smSplits with those counts rounded up
// to the driver's minimum partition and then to its alignment, keeping
// only those that leave the last context at least MinPartition SMs (and
// one); no repeats.
std::vector<std::vector<unsigned>> greenRequests(unsigned NumSms, unsigned Step,
                                                 unsigned MinPartition,
                                                 unsigned Alignment,
                                                 unsigned Parts);
// The green-context sweep of a group: a green context per kernel for each
// request, so the count is bounded.  Step is the smallest multiple of the
// given step whose requests number at most MaxSplits (on 132 SMs with
// steps and alignment 8: a pair keeps step 8, 15 splits; a triple gets
// step 16, 21 splits; a group of four step 24, 4 splits).
constexpr unsigned MaxGreenSplits = 24;
struct GreenSweep {
  unsigned Step = 0;
  std::vector<std::vector<unsigned>> Requests;
};
GreenSweep greenSweep(unsigned NumSms, unsigned Step, unsigned MinPartition,
                      unsigned Alignment, unsigned Parts,
                      unsigned MaxSplits = MaxGreenSplits);
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
