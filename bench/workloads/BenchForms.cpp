//===- BenchForms.cpp - The forms the bench harness times -----------------===//
//
// The forms of the harness of smc_bench and smc_suite_bench
// (BenchHarness.h): each workload timed in three forms,
//   <name>/original  every kernel of the workload as it is
//   <name>/smc       SM-centric variants at the original's occupancy
//                    (smc::Policy::smCentric())
//   <name>/slice     slice variants, one slice (smc::Policy::slice(0))
// and, where asked for, workloads with 2-D or 3-D grids in a fourth,
//   <name>/smc-cluster  SM-centric variants with tile clusters as large as
//                       the per-SM target (order=cluster(tile), after
//                       CTA-Clustering, ASPLOS'17), and smc-cluster4 and
//                       smc-cluster32 with tiles of 4 (2x2) and 32 (8x4),
//                       smc-cluster-x and smc-cluster-y with runs along x
//                       and along y (cluster(x), cluster(y))
// and irregular workloads of one kernel that gathers through index arrays
// in a fifth,
//   <name>/smc-affinity SM-centric variants placed by affinity
//                       (smc::placeByAffinity on the CTAs' reads that
//                       Workload::chunkReads lists; SM-Centric, ICS'15,
//                       section 5.2), with counters for what building the
//                       placement cost (inspect_ms, graph_ms,
//                       partition_ms) and kept (kept_affinity)
//                       The placement may be a cheaper order than a table
//                       (AffinityOptions::cheapestOrder); the table itself
//                       is timed as
//   <name>/smc-affinity-table  METIS's table whatever it keeps
//   <name>/smc-table    and the control: the same table path without
//                       affinity (no edge passes the threshold, so chunk c
//                       goes to SM c mod SMs: the interleaved order as a
//                       table, one chunk per claim)
//   <name>/smc-locality policy locality (smc::Policy::locality()): each
//                       kernel's placement chosen by timed trials on its
//                       first launches; the check runs after each of the
//                       first runs, trials included, and counter
//                       trial_run_ms is their mean time (the timed runs
//                       come after the choice)
//===----------------------------------------------------------------------===//
#include "BenchForms.h"

namespace smc::workloads {

// The forms every workload is timed in.
const std::vector<VariantSpec> &variants() {
  static const std::vector<VariantSpec> list = {
      {"original", smc::Policy::original()},
      {"smc", smc::Policy::smCentric()},
      {"slice", smc::Policy::slice(0)}};
  return list;
}

// The forms registerWorkloadBenchmarks adds with `localityForms`.
const std::vector<VariantSpec> &clusterVariants() {
  static const std::vector<VariantSpec> list = {
      {"smc-cluster", smc::Policy::clustered(smc::ClusterDir::Tile), 2},
      // Clusters smaller and larger than the per-SM target (2x2, 8x4).
      {"smc-cluster4", smc::Policy::clustered(smc::ClusterDir::Tile, 4), 2},
      {"smc-cluster32", smc::Policy::clustered(smc::ClusterDir::Tile, 32), 2},
      // Runs along x (one row) and along y (one column) of the per-SM
      // target's length.
      {"smc-cluster-x", smc::Policy::clustered(smc::ClusterDir::X), 2},
      {"smc-cluster-y", smc::Policy::clustered(smc::ClusterDir::Y), 2},
      {"smc-affinity", smc::Policy::smCentric(), 1, 0.05},
      {"smc-affinity-table", smc::Policy::smCentric(), 1, 0.05, true},
      {"smc-table", smc::Policy::smCentric(), 1, 2.0, true},
      // Four placements at most, three timed launches each, then the
      // choice (runtime/locality/LocalityChoice.h).
      {"smc-locality", smc::Policy::locality(), 1, 0, false, 13}};
  return list;
}

} // namespace smc::workloads
