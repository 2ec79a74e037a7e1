//===- RankUpdate.cuh - The GPU driver syrk and syr2k share -----*- CUDA
//-*-===//
//
// Everything of syrk's and syr2k's Workload but their kernel launch and their
// other inputs: A, C and the output C' on the device, the 32 x 8 blocks, and
// the check of kSampledRows sampled rows of C' against cpuReferenceRows
// (found through the Problem's namespace).  Included by syrk.cu and
// syr2k.cu only.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_RANKUPDATE_CUH
#define SMC_BENCH_WORKLOADS_RANKUPDATE_CUH

#include "Check.h"
#include "CudaSupport.cuh"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace smc {
namespace workloads {

template <typename Problem> class RankUpdateWorkload : public Workload {
public:
  void resetOutputs(cudaStream_t stream) override { dOut.poison(stream); }

  CheckResult check() override {
    return checkSampledRowsOutput(
        dOut, size_t(problem.n), size_t(problem.n), kSampledRows, sampleSeed,
        rows, reference,
        [&](const std::vector<size_t> &sample, std::vector<double> &out) {
          cpuReferenceRows(problem, sample, out);
        },
        "C");
  }

protected:
  static constexpr size_t kSampledRows = 256;

  // `sampleSeed` picks the rows check() compares.
  explicit RankUpdateWorkload(uint64_t sampleSeed) : sampleSeed(sampleSeed) {}

  // Takes a new problem: uploads A and C, allocates C'.
  void setProblem(Problem generated) {
    problem = std::move(generated);
    rows.clear();
    dA.upload(problem.a);
    dC.upload(problem.c);
    dOut.allocate(problem.c.size());
  }

  // One thread per element of C', 32 x 8 per block.
  static dim3 blockShape() { return dim3(32, 8); }
  dim3 gridShape() const {
    return dim3(ceilDiv(problem.n, 32), ceilDiv(problem.n, 8));
  }

  Problem problem;
  DeviceBuffer<float> dA, dC, dOut;

private:
  const uint64_t sampleSeed;
  std::vector<size_t> rows;
  std::vector<double> reference;
};

} // namespace workloads
} // namespace smc

#endif // SMC_BENCH_WORKLOADS_RANKUPDATE_CUH
