//===- BenchForms.h - The forms the bench harness times ---------*- C++ -*-===//
//
// The forms in which the harness of smc_bench and smc_suite_bench
// (BenchHarness.h) times each workload, and the policy of each; listed and
// described in BenchForms.cpp.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_BENCHFORMS_H
#define SMC_BENCH_WORKLOADS_BENCHFORMS_H

#include "smc/smc.h"

#include <vector>

namespace smc::workloads {

struct VariantSpec {
  const char *name;
  smc::Policy policy;
  // Only for workloads whose grids have at least this many dimensions.
  int minGridDims = 1;
  // The policy is an affinity placement for the workload's chunk reads
  // (`policy` gives its options' workers per SM) with this threshold
  // (above 1: no edges); 0 for the forms that set `policy` itself.
  double affinityThreshold = 0;
  // The placement is METIS's table even where a cheaper order keeps about
  // as much (AffinityOptions::cheapestOrder false).
  bool tableOnly = false;
  // Runs the form needs before its runs are what it settled on (policy
  // locality's trials), each checked and timed when verified.
  int trialRuns = 0;
  bool affinity() const { return affinityThreshold > 0; }
};

// The forms every workload is timed in.
const std::vector<VariantSpec> &variants();

// The forms registerWorkloadBenchmarks adds with `localityForms`.
const std::vector<VariantSpec> &clusterVariants();

} // namespace smc::workloads

#endif // SMC_BENCH_WORKLOADS_BENCHFORMS_H
