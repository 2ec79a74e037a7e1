//===- spmv.cu - spmv: CSR-vector kernel and its GPU driver ---------------===//
#include "spmv.h"

#include "Check.h"
#include "CudaSupport.cuh"

// One warp per row: lanes stride over the row's entries, then a shuffle
// reduction.  The early return is warp-uniform and no barrier follows.
__global__ void spmv_csr_vector(const float *__restrict__ vals,
                                const int *__restrict__ cols,
                                const int *__restrict__ rowPtr,
                                const float *__restrict__ x,
                                float *__restrict__ y, int numRows) {
  int lane = threadIdx.x & 31;
  int row = int((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  if (row >= numRows)
    return;
  float sum = 0.0f;
  for (int k = rowPtr[row] + lane; k < rowPtr[row + 1]; k += 32)
    sum += vals[k] * x[cols[k]];
  for (int offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0)
    y[row] = sum;
}

namespace smc::workloads::spmv {
namespace {

constexpr int kBlock = 256;

class SpmvWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    reference.clear();
    dRowPtr.upload(problem.rowPtr);
    dCols.upload(problem.cols);
    dVals.upload(problem.vals);
    dX.upload(problem.x);
    dY.allocate(problem.x.size());
  }

  void run(cudaStream_t stream) override {
    unsigned blocks = ceilDiv(size_t(problem.rows) * 32, kBlock);
    spmv_csr_vector<<<blocks, kBlock, 0, stream>>>(dVals.get(), dCols.get(),
                                                   dRowPtr.get(), dX.get(),
                                                   dY.get(), problem.rows);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dY.poison(stream); }

  CheckResult check() override {
    return checkExactFloatOutput(
        dY, reference,
        [&](std::vector<double> &out) { cpuReference(problem, out); }, "y");
  }

  // x[cols[k]] of the CTA's kBlock / 32 rows.
  bool chunkReads(ChunkReads &reads) const override {
    reads.byCta(size_t(problem.rows), kBlock / 32, [&](size_t r) {
      for (int32_t k = problem.rowPtr[r]; k < problem.rowPtr[r + 1]; ++k)
        reads.read(uint64_t(problem.cols[k]) * sizeof(float));
    });
    return true;
  }

  RunEstimate estimate() const override {
    double nnz = double(problem.vals.size());
    return {nnz * 8 + double(problem.rows) * 16, nnz * 2};
  }

private:
  Problem problem;
  std::vector<double> reference;
  DeviceBuffer<int32_t> dRowPtr, dCols;
  DeviceBuffer<float> dVals, dX, dY;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<SpmvWorkload>(); }

} // namespace smc::workloads::spmv
