//===- pc.h - pc: pointer chasing (Kernelet) ------------------------------===//
//
// Kernelet's pointer-chasing benchmark: every thread starts at a random node
// of a table of (next, value) pairs and follows `hops` next pointers, summing
// the values it passes; it writes where it ended and the sum.  The table is
// one cycle through all nodes in a pseudo-random order, so each hop is a
// dependent, uncached load: latency-bound, irregular.  Integer: exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_PC_H
#define SMC_BENCH_WORKLOADS_PC_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::pc {

struct Problem {
  int32_t nodes = 0, hops = 0;
  std::vector<int32_t> table; // nodes * 2: (next, value)
  std::vector<int32_t> start; // one per chain
};

Problem generate(const Params &params, uint64_t seed);
// Follows chain `c` of the problem: its end node and value sum (mod 2^32).
void chase(const Problem &problem, int32_t from, int32_t hops, int32_t &end,
           uint32_t &sum);
// End nodes and sums of the chains `chains`.
void cpuReference(const Problem &problem, const std::vector<size_t> &chains,
                  std::vector<int32_t> &end, std::vector<uint32_t> &sum);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // pc.cu

} // namespace smc::workloads::pc

#endif // SMC_BENCH_WORKLOADS_PC_H
