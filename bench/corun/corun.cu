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
// The harness: CoRunHarness.h; this file holds the whole run, --mps-tenant
// and --list.  It is compiled without the SMC plugin (CoRunModes.cu: the
// gate kernel is launched as it is); the workloads' launches go through the
// SMC runtime.
//===----------------------------------------------------------------------===//
#include "BenchCuda.h"
#include "CoRunHarness.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace smc::corun {

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

} // namespace smc::corun

using namespace smc::corun;

namespace {

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
