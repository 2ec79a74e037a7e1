//===- pf.cu - pf: pyramid kernel and its GPU driver ----------------------===//
#include "pf.h"

#include "Check.h"
#include "CudaSupport.cuh"

#include <algorithm>

#define PF_BLOCK 256

// Advances `iteration` rows starting below row `startStep` of `wall`.  Block
// bx computes result columns [bx * small, (bx + 1) * small), small = PF_BLOCK
// - 2 * iteration, from the `iteration` columns of halo on each side.
__global__ void pathfinder_rows(int iteration, const int *__restrict__ wall,
                                const int *__restrict__ src,
                                int *__restrict__ dst, int cols,
                                int startStep) {
  __shared__ int prev[PF_BLOCK];
  __shared__ int result[PF_BLOCK];
  int tx = threadIdx.x;
  int smallBlockCols = PF_BLOCK - 2 * iteration;
  int blkX = smallBlockCols * blockIdx.x - iteration;
  int blkXmax = blkX + PF_BLOCK - 1;
  int xidx = blkX + tx;
  // Columns outside the grid have nothing to load or compute.
  if (xidx < 0 || xidx >= cols)
    return;
  int validXmin = blkX < 0 ? -blkX : 0;
  int validXmax =
      blkXmax > cols - 1 ? PF_BLOCK - 1 - (blkXmax - cols + 1) : PF_BLOCK - 1;
  int west = max(tx - 1, validXmin);
  int east = min(tx + 1, validXmax);
  prev[tx] = src[xidx];
  __syncthreads();
  bool computed = false;
  for (int i = 0; i < iteration; ++i) {
    computed = false;
    if (tx >= i + 1 && tx <= PF_BLOCK - i - 2) {
      computed = true;
      int shortest = min(prev[west], min(prev[tx], prev[east]));
      result[tx] = shortest + wall[size_t(startStep + i) * cols + xidx];
    }
    __syncthreads();
    if (i == iteration - 1)
      break;
    if (computed)
      prev[tx] = result[tx];
    __syncthreads();
  }
  if (computed)
    dst[xidx] = result[tx];
}

namespace smc::workloads::pf {
namespace {

class PfWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    reference.clear();
    dWall.upload(problem.wall);
    for (auto &row : dRow)
      row.allocate(size_t(problem.cols));
  }

  void run(cudaStream_t stream) override {
    const int *src = dWall.get(); // row 0
    int buffer = 0;
    for (int t = 0; t < problem.rows - 1; t += problem.pyramid) {
      int iteration = std::min(problem.pyramid, problem.rows - 1 - t);
      unsigned blocks = ceilDiv(problem.cols, PF_BLOCK - 2 * iteration);
      pathfinder_rows<<<blocks, PF_BLOCK, 0, stream>>>(
          iteration, dWall.get(), src, dRow[buffer].get(), problem.cols, t + 1);
      SMC_CUDA_CHECK_LAUNCH();
      src = dRow[buffer].get();
      buffer ^= 1;
    }
    resultBuffer = buffer ^ 1;
  }

  void resetOutputs(cudaStream_t stream) override {
    for (auto &row : dRow)
      row.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    std::vector<int32_t> got;
    dRow[resultBuffer].download(got);
    if (reference.empty())
      cpuReference(problem, reference);
    return compareExact(got, reference, "cost");
  }

  RunEstimate estimate() const override {
    double cells = double(problem.cols) * (problem.rows - 1);
    double launches =
        double((problem.rows - 1 + problem.pyramid - 1) / problem.pyramid);
    return {cells * 4 + launches * problem.cols * 8, cells * 4};
  }

private:
  Problem problem;
  std::vector<int32_t> reference;
  DeviceBuffer<int32_t> dWall;
  DeviceBuffer<int32_t> dRow[2];
  int resultBuffer = 0;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<PfWorkload>(); }

} // namespace smc::workloads::pf
