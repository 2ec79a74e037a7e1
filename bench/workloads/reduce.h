//===- reduce.h - reduce: tree reduction with barriers (SM-Centric) -------===//
//
// The CUDA SDK reduction (reduce6 style) over int: a fixed grid of 2048
// blocks of 256 threads, each thread first summing two elements per step of
// a grid-stride loop, then a shared-memory tree with a barrier per level and
// warp shuffles for the last 32 lanes; block sums go to a partial array.  A
// second launch of the same kernel with one block reduces the partials.
// Values in [-3, 3]: |sum| <= 3n < 2^31 for n <= 2^29, exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_REDUCE_H
#define SMC_BENCH_WORKLOADS_REDUCE_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::reduce {

constexpr int kBlock = 256;
constexpr int kPartialBlocks = 2048;

struct Problem {
  std::vector<int32_t> values;
};

Problem generate(const Params &params, uint64_t seed);
int64_t cpuReference(const Problem &problem);
// The block sums the first launch produces: block b sums the elements
// i = b * 2 * kBlock + t (+ kBlock), stepping by 2 * kBlock * blocks.
std::vector<int64_t> blockPartials(const Problem &problem, int blocks);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // reduce.cu

} // namespace smc::workloads::reduce

#endif // SMC_BENCH_WORKLOADS_REDUCE_H
