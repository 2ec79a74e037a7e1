//===- ellspmv.cu - ellspmv: row-order SpMV kernel and its GPU driver -----===//
#include "ellspmv.h"

#include "Check.h"
#include "CudaSupport.cuh"

// One thread per row, in the order rowOrder gives.
__global__ void
ellspmv_rows(const int *__restrict__ rowOrder, const int *__restrict__ rowStart,
             const int *__restrict__ cols, const float *__restrict__ vals,
             const float *__restrict__ x, float *__restrict__ y, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows)
    return;
  int row = rowOrder[i];
  int end = rowStart[row + 1];
  float sum = 0.0f;
  for (int k = rowStart[row]; k < end; ++k)
    sum += vals[k] * x[cols[k]];
  y[row] = sum;
}

namespace smc::workloads::ellspmv {
namespace {

constexpr int kBlock = 256;

class EllspmvWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    reference.clear();
    dRowOrder.upload(problem.rowOrder);
    dRowStart.upload(problem.rowStart);
    dCols.upload(problem.cols);
    dVals.upload(problem.vals);
    dX.upload(problem.x);
    dY.allocate(size_t(problem.rows));
  }

  void run(cudaStream_t stream) override {
    ellspmv_rows<<<ceilDiv(problem.rows, kBlock), kBlock, 0, stream>>>(
        dRowOrder.get(), dRowStart.get(), dCols.get(), dVals.get(), dX.get(),
        dY.get(), problem.rows);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dY.poison(stream); }

  CheckResult check() override {
    return checkExactFloatOutput(
        dY, reference,
        [&](std::vector<double> &out) { cpuReference(problem, out); }, "y");
  }

  // x at the columns of the rows of the CTA's threads (each row's values
  // and columns are read by that thread alone).
  bool chunkReads(ChunkReads &reads) const override {
    reads.byCta(size_t(problem.rows), kBlock, [&](size_t i) {
      size_t row = size_t(problem.rowOrder[i]);
      for (int32_t k = problem.rowStart[row]; k < problem.rowStart[row + 1];
           ++k)
        reads.read(uint64_t(problem.cols[size_t(k)]) * sizeof(float));
    });
    return true;
  }

  RunEstimate estimate() const override {
    double nnz = double(problem.vals.size()), rows = double(problem.rows);
    return {nnz * 8 + rows * 16, nnz * 2};
  }

private:
  Problem problem;
  std::vector<double> reference;
  DeviceBuffer<int32_t> dRowOrder, dRowStart, dCols;
  DeviceBuffer<float> dVals, dX, dY;
};

} // namespace

std::unique_ptr<Workload> create() {
  return std::make_unique<EllspmvWorkload>();
}

} // namespace smc::workloads::ellspmv
