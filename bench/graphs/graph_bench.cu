//===- graph_bench.cu - CUDA graphs replayed as instantiated and laid out -===//
//
// smc_graph_bench: graphs of independent branches made by stream capture
// (GraphCases.h), each replayed --replays times (default 1000) through two
// executable graphs instantiated from it in one process:
//
//   plain     instantiated under smc::setGraphLayouts(Off): the graph as
//             CUDA runs it
//   layouts   instantiated under smc::setGraphLayouts(Search): its first
//             replays measure layouts of the graph's independent branches
//             against the graph as instantiated, and the fastest is kept if
//             it beats the original by 2%
//   batch     with --batch, Kernelet mixes only: the same four runs through
//             smc::Batch in Mode::Search (KerneletGraphs.cu), timed behind
//             a gate
//
// A round runs each mode once, in a random order per round.  Every replay
// is timed by CUDA events recorded on one stream around cudaGraphLaunch,
// then synchronized.  The cases (--cases): kernelet (the eight mixes of
// smc_kernelet_bench, one workload per branch), forkjoin (small GEMMs, maps
// and reductions joined by one kernel, as an inference step) and solver (a
// Jacobi step of two independent halves and a combine).
//
// Per graph: the medians of plain and layouts over the last half of the
// replays (after the search has settled), their ratio (layouts' throughput
// over plain's), the trial cost (the sum over layouts' first 1000 replays
// of what each took beyond plain's median, over the time of plain's first
// 1000 replays), smc::graphLayoutReport after the rounds, and whether the
// results are right.  After the rounds each executable graph makes one
// checked run from poisoned outputs (the solver: --replays steps from its
// start): plain's results must pass the CPU reference (kernelet) or have
// every element written; layouts' must pass the CPU reference (kernelet) or
// equal plain's bit for bit; a batch's the CPU reference.  A failed check
// makes the exit status 1.
//
// USAGE: smc_graph_bench [--replays N] [--cases kernelet,forkjoin,solver]
//                        [--json FILE] [--batch] [--capture original|smc]
//   --capture  the kernels the graphs' nodes launch: the originals (the
//              default, what a program without SMC captures) or what each
//              kernel's policy launches (SMC_POLICY; by default the
//              SM-centric variant).  Either way the graphs are instantiated
//              under SMC_POLICY or the default policy, so layouts may split
//              their kernels (not those of policy original).
// Every file of the benchmark is compiled with the SMC plugin, so that the
// graphs' instantiation and launches go through the runtime and the
// benchmark's own kernels have the variants layouts run.  The JSON
// (--json): scripts/plot_graphs.py tabulates and charts it.
//===----------------------------------------------------------------------===//
#include "CudaSupport.cuh"
#include "GraphCases.h"
#include "measure/Measured.h"
#include "smc/smc.h"

#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using nlohmann::json;
using namespace smc::graphbench;

namespace {

const char *const Usage =
    "usage: smc_graph_bench [--replays N] [--cases kernelet,forkjoin,solver]\n"
    "                       [--json FILE] [--batch] [--capture original|smc]\n";

// Replays whose extra time the trial cost counts.
constexpr size_t TrialCostReplays = 1000;

struct Options {
  unsigned Replays = 1000;
  bool Kernelet = true, ForkJoin = true, Solver = true;
  std::string Json;
  bool Batch = false;
  bool CaptureOriginals = true;
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Options of Argv; throws UsageError.  "--flag value" and "--flag=value".
Options parseOptions(int Argc, char **Argv, bool &Help) {
  Options O;
  Help = false;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I], Value;
    bool Inline = false;
    if (size_t Eq = Arg.find('='); Arg.rfind("--", 0) == 0 && Eq != Arg.npos) {
      Value = Arg.substr(Eq + 1);
      Arg = Arg.substr(0, Eq);
      Inline = true;
    }
    auto NeedValue = [&]() {
      if (!Inline && I + 1 >= Argc)
        throw UsageError(Arg + " needs a value");
      if (!Inline)
        Value = Argv[++I];
      return Value;
    };
    if (Arg == "--help" || Arg == "-h") {
      Help = true;
    } else if (Arg == "--replays") {
      std::string Text = NeedValue();
      size_t End = 0;
      unsigned long N = 0;
      try {
        N = std::stoul(Text, &End);
      } catch (const std::exception &) {
        End = 0;
      }
      if (End != Text.size() || N < 2 || N > 10000000)
        throw UsageError("--replays " + Text + ": expected 2 or more");
      O.Replays = unsigned(N);
    } else if (Arg == "--cases") {
      O.Kernelet = O.ForkJoin = O.Solver = false;
      std::stringstream List(NeedValue());
      std::string Case;
      while (std::getline(List, Case, ','))
        if (Case == "kernelet")
          O.Kernelet = true;
        else if (Case == "forkjoin")
          O.ForkJoin = true;
        else if (Case == "solver")
          O.Solver = true;
        else
          throw UsageError("--cases: no case " + Case);
      if (!O.Kernelet && !O.ForkJoin && !O.Solver)
        throw UsageError("--cases: no case named");
    } else if (Arg == "--json") {
      O.Json = NeedValue();
    } else if (Arg == "--capture") {
      std::string Capture = NeedValue();
      if (Capture != "original" && Capture != "smc")
        throw UsageError("--capture " + Capture + ": expected original or smc");
      O.CaptureOriginals = Capture == "original";
    } else if (Arg == "--batch" && !Inline) {
      O.Batch = true;
    } else {
      throw UsageError("unknown argument " + std::string(Argv[I]));
    }
  }
  return O;
}

// The median of the last half of Times.
double lateMedian(const std::vector<double> &Times) {
  return smc::median(
      std::vector<double>(Times.begin() + Times.size() / 2, Times.end()));
}

// What the first TrialCostReplays replays of Trials cost beyond Baseline
// ms each, over the time of as many replays of Reference.
double trialCost(const std::vector<double> &Trials,
                 const std::vector<double> &Reference, double Baseline) {
  size_t N = std::min({Trials.size(), Reference.size(), TrialCostReplays});
  double Extra = 0, Base = 0;
  for (size_t I = 0; I < N; ++I) {
    Extra += std::max(0.0, Trials[I] - Baseline);
    Base += Reference[I];
  }
  return Base > 0 ? Extra / Base : 0;
}

// Replays of executable graphs on one stream, each timed by two events.
class Replayer {
public:
  Replayer() {
    SMC_CUDA_CHECK(cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking));
    SMC_CUDA_CHECK(cudaEventCreate(&Begin));
    SMC_CUDA_CHECK(cudaEventCreate(&End));
  }
  ~Replayer() {
    cudaEventDestroy(End);
    cudaEventDestroy(Begin);
    cudaStreamDestroy(Stream);
  }

  // One replay of Exec, in ms from an event before cudaGraphLaunch to one
  // after it.
  double timed(cudaGraphExec_t Exec) {
    SMC_CUDA_CHECK(cudaEventRecord(Begin, Stream));
    SMC_CUDA_CHECK(cudaGraphLaunch(Exec, Stream));
    SMC_CUDA_CHECK(cudaEventRecord(End, Stream));
    SMC_CUDA_CHECK(cudaEventSynchronize(End));
    float Ms = 0;
    SMC_CUDA_CHECK(cudaEventElapsedTime(&Ms, Begin, End));
    return Ms;
  }

  // Case's checked run of Exec: its buffers prepared, then its replays.
  void checkedRun(GraphCase &Case, cudaGraphExec_t Exec, unsigned Replays) {
    Case.prepareCheck(Stream);
    unsigned N = Case.checkReplays(Replays);
    for (unsigned I = 0; I < N; ++I)
      SMC_CUDA_CHECK(cudaGraphLaunch(Exec, Stream));
    SMC_CUDA_CHECK(cudaStreamSynchronize(Stream));
  }

  cudaStream_t Stream = nullptr;

private:
  cudaEvent_t Begin = nullptr, End = nullptr;
};

cudaGraphExec_t instantiate(cudaGraph_t Graph, smc::GraphLayouts Layouts) {
  smc::setGraphLayouts(Layouts);
  cudaGraphExec_t Exec = nullptr;
  SMC_CUDA_CHECK(cudaGraphInstantiate(&Exec, Graph, 0));
  smc::setGraphLayouts(smc::GraphLayouts::Off);
  return Exec;
}

// One graph's rounds, checks and report.
json runCase(GraphCase &Case, BranchCapture &Capture, Replayer &Replays,
             const Options &O, std::mt19937 &Random, bool &Failed) {
  cudaGraph_t Graph = Case.capture(Capture);
  cudaGraphExec_t Plain = instantiate(Graph, smc::GraphLayouts::Off);
  cudaGraphExec_t Laid = instantiate(Graph, smc::GraphLayouts::Search);
  bool Batch = O.Batch && Case.hasBatch();
  std::vector<double> PlainMs, LaidMs, BatchMs;
  std::string BatchLayout;
  std::vector<double> BatchHostUs;
  long SettledAt = -1;

  Replays.timed(Plain); // warm-up, not counted
  std::vector<int> Modes = {0, 1};
  if (Batch)
    Modes.push_back(2);
  for (unsigned Round = 0; Round < O.Replays; ++Round) {
    std::shuffle(Modes.begin(), Modes.end(), Random);
    for (int Mode : Modes) {
      if (Mode == 0) {
        PlainMs.push_back(Replays.timed(Plain));
      } else if (Mode == 1) {
        LaidMs.push_back(Replays.timed(Laid));
        smc::GraphLayoutReport Now;
        if (SettledAt < 0 && smc::graphLayoutReport(Laid, Now) && Now.settled)
          SettledAt = long(LaidMs.size());
      } else {
        double HostUs = 0;
        BatchMs.push_back(Case.runBatch(&BatchLayout, &HostUs));
        BatchHostUs.push_back(HostUs);
      }
    }
  }
  smc::GraphLayoutReport Report;
  bool Known = smc::graphLayoutReport(Laid, Report);

  // The checks: plain's results first, the reference of the others.
  Replays.checkedRun(Case, Plain, O.Replays);
  std::string Error = Case.keepReference();
  if (!Error.empty()) {
    Error = "graph as instantiated: " + Error;
  } else {
    Replays.checkedRun(Case, Laid, O.Replays);
    Error = Case.check();
  }
  std::string BatchError;
  if (Batch) {
    Case.prepareCheck(Replays.Stream);
    SMC_CUDA_CHECK(cudaStreamSynchronize(Replays.Stream));
    double HostUs = 0;
    std::string Layout;
    Case.runBatch(&Layout, &HostUs);
    BatchError = Case.check();
  }
  Failed |= !Error.empty() || !BatchError.empty();
  SMC_CUDA_CHECK(cudaGraphExecDestroy(Laid));
  SMC_CUDA_CHECK(cudaGraphExecDestroy(Plain));
  SMC_CUDA_CHECK(cudaGraphDestroy(Graph));

  double PlainMedian = lateMedian(PlainMs), LaidMedian = lateMedian(LaidMs);
  json Out = {
      {"name", Case.name()},
      {"kind", Case.kind()},
      {"plain_ms", PlainMedian},
      {"layouts_ms", LaidMedian},
      {"ratio", LaidMedian > 0 ? PlainMedian / LaidMedian : 0},
      {"trial_cost", trialCost(LaidMs, PlainMs, PlainMedian)},
      {"reported", Known},
      {"laid_out", Report.laidOut},
      {"reason", Report.reason},
      {"co_run_sets", Report.coRunSets},
      {"branches", Report.branches},
      {"report_replays", Report.replays},
      {"trials", Report.trials},
      {"settled", Report.settled},
      {"settled_at", SettledAt},
      {"layout", Report.layout},
      {"original_ms", Report.originalMs},
      {"layout_ms", Report.layoutMs},
      {"executables", Report.executables},
      {"check", Error.empty() ? "ok" : "failed"},
      {"check_detail", Error},
      {"plain_times_ms", PlainMs},
      {"layouts_times_ms", LaidMs},
  };
  if (Batch) {
    double BatchMedian = lateMedian(BatchMs);
    Out["batch_ms"] = BatchMedian;
    Out["batch_ratio"] = BatchMedian > 0 ? PlainMedian / BatchMedian : 0;
    Out["batch_trial_cost"] = trialCost(BatchMs, PlainMs, PlainMedian);
    Out["batch_layout"] = BatchLayout;
    Out["batch_run_host_us"] = smc::median(BatchHostUs);
    Out["batch_check"] = BatchError.empty() ? "ok" : "failed";
    Out["batch_check_detail"] = BatchError;
    Out["batch_times_ms"] = BatchMs;
  }
  return Out;
}

void printHeader(bool Batch) {
  std::printf("%-22s %-8s %9s %9s %7s %7s %-12s %6s %5s %-6s", "graph", "kind",
              "plain ms", "layouts", "p/l", "trials%", "settled(at)", "trials",
              "execs", "check");
  if (Batch)
    std::printf(" %9s %7s %-6s", "batch ms", "p/b", "check");
  std::printf("\n");
}

void printRow(const json &G) {
  std::string Settled =
      G["settled"].get<bool>()
          ? "yes(" + std::to_string(G["settled_at"].get<long>()) + ")"
          : "no";
  std::printf("%-22s %-8s %9.3f %9.3f %7.3f %7.2f %-12s %6u %5u %-6s",
              G["name"].get<std::string>().c_str(),
              G["kind"].get<std::string>().c_str(), G["plain_ms"].get<double>(),
              G["layouts_ms"].get<double>(), G["ratio"].get<double>(),
              100 * G["trial_cost"].get<double>(), Settled.c_str(),
              G["trials"].get<unsigned>(), G["executables"].get<unsigned>(),
              G["check"].get<std::string>().c_str());
  if (G.contains("batch_ms"))
    std::printf(" %9.3f %7.3f %-6s", G["batch_ms"].get<double>(),
                G["batch_ratio"].get<double>(),
                G["batch_check"].get<std::string>().c_str());
  std::printf("\n");
  if (!G["laid_out"].get<bool>())
    std::printf("  not laid out: %s\n",
                G["reported"].get<bool>()
                    ? G["reason"].get<std::string>().c_str()
                    : "the runtime does not know the executable graph");
  else
    std::printf("  layout: %s\n", G["layout"].get<std::string>().c_str());
  for (const char *Detail : {"check_detail", "batch_check_detail"})
    if (G.contains(Detail) && !G[Detail].get<std::string>().empty())
      std::printf("  %s: %s\n", Detail, G[Detail].get<std::string>().c_str());
  std::fflush(stdout);
}

int run(const Options &O) {
  cudaDeviceProp Prop;
  SMC_CUDA_CHECK(cudaGetDeviceProperties(&Prop, 0));
  std::printf("%s, %d SMs, %u replays per mode\n", Prop.name,
              Prop.multiProcessorCount, O.Replays);
  GraphCaseList Cases;
  auto Add = [&](GraphCaseList More) {
    for (auto &Case : More)
      Cases.push_back(std::move(Case));
  };
  if (O.Kernelet)
    Add(kerneletCases());
  if (O.ForkJoin)
    Add(forkJoinCases());
  if (O.Solver)
    Add(solverCases());

  json Out = {{"device", Prop.name},
              {"sms", Prop.multiProcessorCount},
              {"replays", O.Replays},
              {"capture", O.CaptureOriginals ? "original" : "smc"},
              {"graphs", json::array()}};
  BranchCapture Capture(O.CaptureOriginals);
  Replayer Replays;
  std::mt19937 Random(20240607);
  bool Failed = false;
  printHeader(O.Batch);
  for (auto &Case : Cases) {
    json G = runCase(*Case, Capture, Replays, O, Random, Failed);
    printRow(G);
    Out["graphs"].push_back(std::move(G));
    if (!O.Json.empty())
      std::ofstream(O.Json) << Out.dump(1) << "\n";
  }
  if (Failed)
    std::fprintf(stderr, "smc_graph_bench: a check failed\n");
  return Failed ? 1 : 0;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  try {
    bool Help = false;
    O = parseOptions(Argc, Argv, Help);
    if (Help) {
      std::printf("%s", Usage);
      return 0;
    }
  } catch (const UsageError &E) {
    std::fprintf(stderr, "smc_graph_bench: %s\n%s", E.what(), Usage);
    return 2;
  }
  try {
    return run(O);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "smc_graph_bench: %s\n", E.what());
    return 1;
  }
}
