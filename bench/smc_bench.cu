//===- smc_bench.cu - Google Benchmark of SMC variants against originals --===//
//
// SMC's own workloads (bench/workloads/micro.h), each timed as the original
// kernel, as its SM-centric variant at the original's occupancy and as one
// slice, by the harness the workload suite uses (BenchHarness.h):
//   vecAdd   1-D vector add, memory bound (2^28 floats)
//   matMul   2048^2 fp32 matrix multiply with 32x32 shared-memory tiles
//   reduce   tree reduction per CTA + atomicAdd of the partials (2^29 floats)
//   stencil  1-D 9-point stencil with `if (i >= n) return;` before the
//            barrier (2^28 - 100 floats)
//   gather   out[i] = in[idx[i]] with random idx (2^26 elements)
// (sizes at --size default).  Benchmarks are named
// <workload>/<original|smc|slice>; each iteration times one run with CUDA
// events (manual time) after a few warm-up runs.  Before the first timing of
// a workload, each form's output is checked against the CPU reference; a
// form that fails is reported as an error instead of timed.  Then the
// launch-path benchmarks (launch_path.cpp, compiled without the plugin):
// the host cost of a launch through the runtime against cudaLaunchKernel.
// With --priority-case=yielding (or =urgent) it runs only that launch-path
// case with stream priorities (launch_path/smc_entry_smc_yielding,
// _urgent) and launch_path/cudaLaunchKernel: yielding, once on, stays on
// for the process and would slow the SM-centric launches of every later
// benchmark, so these cases never run beside the others.
//
// Without a GPU it prints "SKIPPED: no CUDA GPU (<reason>)" and exits 77;
// --benchmark_list_tests works anywhere.
//
// USAGE: smc_bench [--size small|default|large] \
//          [--priority-case=yielding|urgent] \
//          --benchmark_repetitions=5 \
//          --benchmark_enable_random_interleaving=true \
//          --benchmark_out=bench.json --benchmark_out_format=json
//        (scripts/run_bench.sh does this and plots the result)
//===----------------------------------------------------------------------===//
#include "BenchHarness.h"
#include "launch_path.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

using namespace smc::workloads;

__global__ void smcBenchEmptyKernel() {}

const void *emptyKernelSymbol() {
  return reinterpret_cast<const void *>(smcBenchEmptyKernel);
}

int main(int Argc, char **Argv) {
  Size WorkloadSize = Size::Default;
  if (!takeSizeFlag("smc_bench", nullptr, Argc, Argv, WorkloadSize))
    return 2;
  LaunchPathCases Cases = LaunchPathCases::WithoutPriorities;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (Arg.rfind("--priority-case=", 0) != 0)
      continue;
    std::string Case = Arg.substr(std::string("--priority-case=").size());
    if (Case == "yielding") {
      Cases = LaunchPathCases::Yielding;
    } else if (Case == "urgent") {
      Cases = LaunchPathCases::Urgent;
    } else {
      std::fprintf(stderr,
                   "smc_bench: --priority-case=%s: expected yielding or "
                   "urgent\n",
                   Case.c_str());
      return 2;
    }
    std::copy(Argv + I + 1, Argv + Argc, Argv + I);
    --Argc;
    break;
  }
  bool List = listOnly(Argc, Argv);
  benchmark::Initialize(&Argc, Argv);
  if (benchmark::ReportUnrecognizedArguments(Argc, Argv))
    return 1;
  // The benchmark names smc_bench has always reported, and the workloads.
  const std::pair<const char *, const char *> Names[] = {
      {"vecAdd", "vecadd"},
      {"matMul", "matmul"},
      {"reduce", "treesum"},
      {"stencil", "stencil9"},
      {"gather", "gather"}};
  std::vector<BenchWorkload> Workloads;
  if (Cases == LaunchPathCases::WithoutPriorities) {
    for (auto [BenchName, Name] : Names)
      Workloads.push_back({BenchName, findWorkload(Name)});
    registerWorkloadBenchmarks("smc_bench", Workloads, WorkloadSize, 3);
  }
  unsigned NumSMs = 0; // The launch path's grid; not needed for a list.
  if (!List) {
    std::string NoGpu = addGpuContext();
    if (!NoGpu.empty()) {
      std::printf("SKIPPED: no CUDA GPU (%s)\n", NoGpu.c_str());
      return 77;
    }
    addSuiteContext();
    int Count = 0;
    cudaDeviceGetAttribute(&Count, cudaDevAttrMultiProcessorCount, 0);
    NumSMs = unsigned(Count);
  }
  registerLaunchPathBenchmarks(NumSMs, Cases);

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  releaseWorkloads();
  return 0;
}
