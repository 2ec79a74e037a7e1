//===- BenchHarness.h - Timing workloads as original, smc and slice -------===//
//
// The Google Benchmark harness that smc_bench (SMC's own workloads and the
// launch path) and smc_suite_bench (the papers' suite) share: every
// workload timed as <name>/original, <name>/smc and <name>/slice (in the
// suite also <name>/smc-cluster where its grid is 2-D or 3-D) after a check
// of each form against the workload's CPU reference.  A main calls,
// in order: takeSizeFlag, listOnly, benchmark::Initialize,
// registerWorkloadBenchmarks, addGpuContext and addSuiteContext (unless only
// listing), benchmark::RunSpecifiedBenchmarks, releaseWorkloads.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_BENCHHARNESS_H
#define SMC_BENCH_WORKLOADS_BENCHHARNESS_H

#include "Workload.h"

#include <string>
#include <vector>

namespace smc::workloads {

// One timed workload: the name its benchmarks carry, and what it is.
struct BenchWorkload {
  std::string name;
  const WorkloadInfo *info;
};

// Registers <name>/<original|smc|slice> for every workload of `list`, and
// with `localityForms` also <name>/smc-cluster (SM-centric, tile clusters
// of the per-SM target: smc(order=cluster(tile))) and smc-cluster4,
// smc-cluster32 (tiles of 4 and 32 chunks), smc-cluster-x and
// smc-cluster-y (runs along x and along y) for those with 2-D or 3-D
// grids and <name>/smc-affinity (smc::placeByAffinity on
// Workload::chunkReads) for the irregular ones of one kernel with index
// arrays, and <name>/smc-locality
// (policy locality: placements tried, the fastest kept) for every workload;
// set up at `size` when first
// timed and timed after `warmUpRuns` runs; no CUDA calls.  `program` prefixes
// the harness's messages (on stderr).
void registerWorkloadBenchmarks(const char *program,
                                const std::vector<BenchWorkload> &list,
                                Size size, int warmUpRuns,
                                bool localityForms = false);

// Removes --size X / --size=X from argv into `size`, else takes the value
// of the environment variable `envVar` (if not null).  False, with a
// message, on a bad size.
bool takeSizeFlag(const char *program, const char *envVar, int &argc,
                  char **argv, Size &size);

// Whether the run only lists the benchmarks (--benchmark_list_tests).
bool listOnly(int argc, char **argv);

// Adds the GPU's context (name, SM count, clocks, CUDA versions); returns ""
// or why there is no usable GPU.
std::string addGpuContext();

// Adds SMC's version, the size, the seed, SMC_POLICY, SMC_DISABLE and
// SMC_STATS where set, and every registered workload's parameters.
void addSuiteContext();

// Frees the workloads and the stream while the CUDA runtime is still up.
void releaseWorkloads();

} // namespace smc::workloads

#endif // SMC_BENCH_WORKLOADS_BENCHHARNESS_H
