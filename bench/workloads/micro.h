//===- micro.h - SMC's own workloads: the kernels smc_bench times ---------===//
//
// Five small kernels, each a shape that matters to SMC's variants; smc_bench
// times them (under the names in parentheses) as the original, the
// SM-centric variant at the original's occupancy and one slice:
//   vecadd    1-D vector add, memory bound                        (vecAdd)
//   matmul    n x n fp32 matrix multiply, 32x32 shared-memory tiles,
//             two barriers per step                               (matMul)
//   treesum   fp32 tree reduction per CTA in shared memory, partials
//             written and atomicAdd-ed into a total               (reduce)
//   stencil9  1-D 9-point stencil whose threads past the end return
//             before the barrier (one-chunk variants)             (stencil)
//   gather    out[i] = in[idx[i]] with random idx                 (gather)
// They are not from the papers (WorkloadInfo::papers is 0), so
// smc_suite_bench leaves them out.  Inputs: floats uniform in [-1, 1) with
// 24 random bits, except matmul (integers in [-3, 3], as mm) and treesum
// (integers in [-1, 1]), so that sums are exact in fp32.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_MICRO_H
#define SMC_BENCH_WORKLOADS_MICRO_H

#include "Workload.h"
#include "mm.h"

#include <vector>

namespace smc::workloads {

namespace vecadd {
constexpr int kBlock = 256;
struct Problem {
  std::vector<float> a, b;
};
Problem generate(const Params &params, uint64_t seed);
std::vector<float> cpuReference(const Problem &problem); // a + b in fp32
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // micro.cu
} // namespace vecadd

namespace matmul {
constexpr int kTile = 32;
// A square mm problem (m = n = k = the parameter n, a multiple of kTile);
// mm::cpuReferenceRows is its reference.
mm::Problem generate(const Params &params, uint64_t seed);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // micro.cu
} // namespace matmul

namespace treesum {
constexpr int kBlock = 256, kPerThread = 4;
constexpr int kPerBlock = kBlock * kPerThread;
struct Problem {
  std::vector<float> values;
  size_t blocks() const { return (values.size() + kPerBlock - 1) / kPerBlock; }
};
Problem generate(const Params &params, uint64_t seed);
// Block b's partial: the sum of values[b * kPerBlock, (b + 1) * kPerBlock).
std::vector<double> cpuPartials(const Problem &problem);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // micro.cu
} // namespace treesum

namespace stencil9 {
constexpr int kBlock = 256, kRadius = 4;
struct Problem {
  std::vector<float> in;
};
// n must leave the last CTA either full or with at least kRadius threads.
Problem generate(const Params &params, uint64_t seed);
// out[i] as the kernel computes it (the same fmaf chain, so equal bit for
// bit), for each i in `at`.
std::vector<float> cpuReferenceAt(const Problem &problem,
                                  const std::vector<size_t> &at);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // micro.cu
} // namespace stencil9

namespace gather {
constexpr int kBlock = 256;
struct Problem {
  std::vector<float> in;
  std::vector<uint32_t> idx; // uniform in [0, n)
};
Problem generate(const Params &params, uint64_t seed);
std::vector<float> cpuReference(const Problem &problem);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // micro.cu
} // namespace gather

} // namespace smc::workloads

#endif // SMC_BENCH_WORKLOADS_MICRO_H
