//===- remap_bench.cpp - Thread-data remapping against the original ------===//
//
// For every G-Streamline workload (WorkloadInfo::papers has
// PaperGStreamline), on its irregular input and on the input where
// remapping cannot pay (its regular parameter set to 1), times in one
// process, interleaved round by round:
//
//   original        every kernel of the workload as compiled
//   remap           policy remap(control=always): the table computed on the
//                   first run and reused (the arguments do not change)
//   remap-refresh   the same, smc::refreshRemaps() before every run: each
//                   run pays the inspector and the sort
//   remap-adaptive  policy remap (control adaptive), after its trials: what
//                   a user gets by default from 'k=remap'
//   auto            policy auto, after its trials (docs/remap.md)
//
// in two phases, so that the refreshes of remap-refresh do not make the
// other modes' tables stale: original, remap, remap-adaptive and auto
// interleaved round by round, then original and remap-refresh; each mode's
// speedup is over the original's median of its phase.  (remap-adaptive
// and auto share one configuration, policy remap(control=adaptive): auto
// comes to it where the co-run scheduler runs the original.)  It prints,
// per workload and input, the median of each, the speedups over the
// original, the share of a refreshed run spent on its table
// ((refresh - remap) / refresh) and what computing the table on the host
// would cost instead (keys down, a stable sort, the table up).  Every
// remapped mode's outputs are checked against the CPU reference.  Writes
// the table as JSON with --json=<file>.
//
// USAGE: remap_bench [--rounds=N] [--size=small|default|large]
//                    [--json=FILE] [--profile] [workload...]
// --profile runs each workload once as the original and once remapped (the
// table made before) and nothing else, for Nsight Compute.
//===----------------------------------------------------------------------===//
#include "Workload.h"
#include "remap/RemapTables.h"
#include "smc/smc.h"

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using namespace smc::workloads;

namespace {

void check(cudaError_t Err, const char *What) {
  if (Err != cudaSuccess)
    throw std::runtime_error(std::string(What) + ": " + cudaGetErrorName(Err));
}

// The parameter that gives a workload's regular input.
const std::map<std::string, std::string> RegularInput = {
    {"lbm", "clustered=1"},      {"mcubes", "smooth=1"},
    {"particles", "sorted=1"},   {"filter", "uniform=1"},
    {"recgather", "identity=1"}, {"ellspmv", "ordered=1"}};

struct Mode {
  const char *Name;
  smc::Policy Policy;
  bool Refresh;
};

// Phase A is modes [0, 4), phase B [4, 6).
constexpr size_t PhaseB = 4;

std::vector<Mode> modes() {
  return {
      {"original", smc::Policy::original(), false},
      {"remap", smc::Policy::remap(smc::RemapControl::Always), false},
      {"remap-adaptive", smc::Policy::remap(), false},
      {"auto", smc::Policy::automatic(), false},
      {"original", smc::Policy::original(), false},
      {"remap-refresh", smc::Policy::remap(smc::RemapControl::Always), true}};
}

void setPolicies(const WorkloadInfo &Info, const smc::Policy &P) {
  for (const std::string &Kernel : Info.kernelNames)
    smc::setPolicy(Kernel, P);
}

double timeRun(Workload &W, cudaStream_t Stream, cudaEvent_t Start,
               cudaEvent_t End) {
  check(cudaEventRecord(Start, Stream), "cudaEventRecord");
  W.run(Stream);
  check(cudaEventRecord(End, Stream), "cudaEventRecord");
  check(cudaEventSynchronize(End), "cudaEventSynchronize");
  float Ms = 0;
  check(cudaEventElapsedTime(&Ms, Start, End), "cudaEventElapsedTime");
  return Ms;
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

// The jobs (threads) of a workload's remapped kernel, from its parameters.
uint32_t jobsOf(const Params &P) {
  uint64_t Jobs = 1;
  for (const char *Name : {"n", "rows", "nx", "ny", "dx", "dy", "dz"})
    if (P.has(Name))
      Jobs *= uint64_t(P.get(Name));
  return uint32_t(std::min<uint64_t>(Jobs, 1u << 30));
}

// What the table of Jobs jobs would cost on the host: keys down, a stable
// sort, the table up (ms, median of 5).
double hostTableMs(uint32_t Jobs) {
  std::vector<uint32_t> Keys(Jobs), Table;
  uint32_t *Device = nullptr;
  check(cudaMalloc(reinterpret_cast<void **>(&Device), size_t(Jobs) * 4),
        "cudaMalloc");
  std::vector<double> Times;
  for (int I = 0; I < 5; ++I) {
    auto T0 = std::chrono::steady_clock::now();
    check(cudaMemcpy(Keys.data(), Device, size_t(Jobs) * 4,
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy");
    if (I == 0) // keys to sort, not the zeros copied down
      Keys = smc::randomKeys(Jobs, 7);
    Table = smc::remapTableFromKeys(Keys);
    check(cudaMemcpy(Device, Table.data(), size_t(Jobs) * 4,
                     cudaMemcpyHostToDevice),
          "cudaMemcpy");
    Times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - T0)
                        .count());
  }
  cudaFree(Device);
  return median(Times);
}

struct Options {
  int Rounds = 15;
  Size Size = Size::Default;
  std::string Json;
  bool Profile = false;
  std::vector<std::string> Only;
};

Options parse(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--rounds=", 0) == 0)
      O.Rounds = std::max(1, std::stoi(A.substr(9)));
    else if (A.rfind("--size=", 0) == 0) {
      if (!parseSize(A.substr(7), O.Size))
        throw std::invalid_argument("bad size " + A);
    } else if (A.rfind("--json=", 0) == 0)
      O.Json = A.substr(7);
    else if (A == "--profile")
      O.Profile = true;
    else if (A.rfind("--", 0) == 0)
      throw std::invalid_argument("unknown option " + A);
    else
      O.Only.push_back(A);
  }
  return O;
}

} // namespace

int main(int Argc, char **Argv) try {
  Options O = parse(Argc, Argv);
  cudaDeviceProp Prop;
  check(cudaGetDeviceProperties(&Prop, 0), "cudaGetDeviceProperties");
  cudaStream_t Stream;
  check(cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking),
        "cudaStreamCreate");
  cudaEvent_t Start, End;
  check(cudaEventCreate(&Start), "cudaEventCreate");
  check(cudaEventCreate(&End), "cudaEventCreate");
  std::printf("# remap_bench on %s (%d SMs), size %s, %d rounds\n", Prop.name,
              Prop.multiProcessorCount, sizeName(O.Size), O.Rounds);
  std::printf("| workload | input | original ms | remap | remap-refresh | "
              "remap-adaptive | auto | table share | host table ms | "
              "checks |\n|---|---|---|---|---|---|---|---|---|---|\n");
  nlohmann::json Out = {
      {"device", Prop.name}, {"rounds", O.Rounds}, {"size", sizeName(O.Size)}};
  int Failures = 0;
  for (const WorkloadInfo *Info : allWorkloads()) {
    if (!(Info->papers & PaperGStreamline))
      continue;
    if (!O.Only.empty() &&
        std::find(O.Only.begin(), O.Only.end(), Info->name) == O.Only.end())
      continue;
    for (bool Regular : {false, true}) {
      auto Override = RegularInput.find(Info->name);
      std::string Input = Regular && Override != RegularInput.end()
                              ? Override->second
                              : std::string();
      if (Regular && Input.empty())
        continue;
      std::unique_ptr<Workload> W = Info->create();
      W->setup(Info->params(O.Size, Input), kDefaultSeed);
      // New data, perhaps at the freed buffers' addresses: what a program
      // says when its data changes.
      smc::refreshRemaps();
      std::vector<Mode> Modes = modes();
      if (O.Profile) {
        for (int M : {0, 1}) { // original, then remap (the table made first)
          setPolicies(*Info, Modes[M].Policy);
          W->run(Stream);
          check(cudaStreamSynchronize(Stream), "run");
          W->run(Stream);
          check(cudaStreamSynchronize(Stream), "run");
        }
        continue;
      }
      std::vector<std::vector<double>> Times(Modes.size());
      for (auto [First, Last] :
           {std::pair<size_t, size_t>{0, PhaseB}, {PhaseB, Modes.size()}}) {
        size_t Count = Last - First;
        // Warm-up: every mode until the adaptive trials are decided.
        for (int Warm = 0; Warm < 12; ++Warm)
          for (size_t K = First; K < Last; ++K) {
            setPolicies(*Info, Modes[K].Policy);
            if (Modes[K].Refresh)
              smc::refreshRemaps();
            W->run(Stream);
          }
        check(cudaStreamSynchronize(Stream), "warm-up");
        for (int R = 0; R < O.Rounds; ++R)
          for (size_t K = 0; K < Count; ++K) {
            size_t M = First + (K + R) % Count;
            setPolicies(*Info, Modes[M].Policy);
            if (Modes[M].Refresh)
              smc::refreshRemaps();
            Times[M].push_back(timeRun(*W, Stream, Start, End));
          }
      }
      std::string Checks;
      for (size_t K = 1; K < Modes.size(); ++K) {
        if (K == PhaseB)
          continue; // the original
        setPolicies(*Info, Modes[K].Policy);
        W->resetOutputs(Stream);
        W->run(Stream);
        CheckResult C = W->check();
        Checks += C.ok ? "" : std::string(Modes[K].Name) + ": " + C.summary();
        Failures += !C.ok;
      }
      std::vector<double> Medians, Speedups;
      for (size_t K = 0; K < Modes.size(); ++K) {
        Medians.push_back(median(Times[K]));
        Speedups.push_back(median(Times[K < PhaseB ? 0 : PhaseB]) / Medians[K]);
      }
      double Original = Medians[0];
      // The table's share of a refreshed run: the refreshed run against
      // the reused one, each as a fraction of its phase's original.
      double Share = 1 - Speedups[5] / Speedups[1];
      double HostMs = hostTableMs(jobsOf(Info->params(O.Size, Input)));
      std::printf("| %s | %s | %.3f | %.2fx | %.2fx | %.2fx | %.2fx | %.0f%% "
                  "| %.3f | %s |\n",
                  Info->name, Regular ? Input.c_str() : "irregular", Original,
                  Speedups[1], Speedups[5], Speedups[2], Speedups[3],
                  100 * Share, HostMs, Checks.empty() ? "ok" : Checks.c_str());
      std::fflush(stdout);
      nlohmann::json Row = {{"workload", Info->name},
                            {"input", Regular ? Input : "irregular"},
                            {"table_share", Share},
                            {"host_table_ms", HostMs},
                            {"checks", Checks.empty() ? "ok" : Checks}};
      for (size_t K = 0; K < Modes.size(); ++K) {
        if (K == PhaseB)
          continue;
        Row["median_ms"][Modes[K].Name] = Medians[K];
        Row["speedup"][Modes[K].Name] = Speedups[K];
      }
      Out["rows"].push_back(Row);
    }
  }
  if (!O.Json.empty())
    std::ofstream(O.Json) << Out.dump(2) << "\n";
  smc::clearPolicies();
  return Failures ? 1 : 0;
} catch (const std::exception &E) {
  std::fprintf(stderr, "remap_bench: %s\n", E.what());
  return 2;
}
