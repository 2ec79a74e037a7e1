//===- suite_bench.cpp - Google Benchmark of the workload suite -----------===//
//
// Every workload of the papers' suite (the registry's workloads with a
// paper, Workload.h) timed as <workload>/original, <workload>/smc and
// <workload>/slice by the harness of BenchHarness.h; those with 2-D or 3-D
// grids also as <workload>/smc-cluster (tile clusters of the per-SM target,
// smc(order=cluster(tile)); CTA-Clustering, ASPLOS'17) and smc-cluster4,
// smc-cluster32 (tiles of 4 and 32 chunks), smc-cluster-x and
// smc-cluster-y (runs along x and along y), the irregular ones of one
// kernel with index arrays as <workload>/smc-affinity (and its table and
// control forms), and every
// workload as <workload>/smc-locality (policy locality: each kernel's
// placement chosen by timed trials).  Without a GPU it exits
// with an error; --benchmark_list_tests works anywhere.
//
// USAGE: smc_suite_bench [--size small|default|large] \
//          --benchmark_repetitions=3 \
//          --benchmark_enable_random_interleaving=true \
//          --benchmark_out=suite.json --benchmark_out_format=json
//        (scripts/run_bench.sh --suite does this and plots the result).
//        The size may also come from SMC_SUITE_SIZE; --size wins.
//        Cluster order against the original only:
//          --benchmark_filter='/(original|smc-cluster)/'.
//===----------------------------------------------------------------------===//
#include "BenchHarness.h"

#include <benchmark/benchmark.h>

#include <cstdio>

using namespace smc::workloads;

int main(int argc, char **argv) {
  Size size = Size::Default;
  if (!takeSizeFlag("smc_suite_bench", "SMC_SUITE_SIZE", argc, argv, size))
    return 2;
  bool list = listOnly(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 2;
  std::vector<BenchWorkload> suite;
  for (const WorkloadInfo *info : allWorkloads())
    if (info->papers)
      suite.push_back({info->name, info});
  registerWorkloadBenchmarks("smc_suite_bench", suite, size, 2,
                             /*localityForms=*/true);
  if (!list) {
    std::string noGpu = addGpuContext();
    if (!noGpu.empty()) {
      std::fprintf(stderr,
                   "smc_suite_bench: no usable CUDA GPU (%s); nothing was "
                   "timed. (--benchmark_list_tests lists the benchmarks "
                   "without a GPU.)\n",
                   noGpu.c_str());
      return 1;
    }
    addSuiteContext();
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  releaseWorkloads();
  return 0;
}
