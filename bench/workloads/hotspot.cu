//===- hotspot.cu - hotspot: pyramid kernel and its GPU driver ------------===//
#include "hotspot.h"

#include "Check.h"
#include "CudaSupport.cuh"

#include <algorithm>

#define HS_BLOCK 16

// Advances `iteration` steps.  Block (bx, by) computes the cells
// [small * b, small * (b + 1)) in each dimension, small = HS_BLOCK -
// 2 * iteration, from a halo of `iteration` cells.
__global__ void hotspot_calculate_temp(int iteration,
                                       const float *__restrict__ power,
                                       const float *__restrict__ tempSrc,
                                       float *__restrict__ tempDst,
                                       int gridCols, int gridRows,
                                       float stepDivCap, float rx1, float ry1,
                                       float rz1, float ambient) {
  __shared__ float tempOnCuda[HS_BLOCK][HS_BLOCK];
  __shared__ float powerOnCuda[HS_BLOCK][HS_BLOCK];
  __shared__ float tempT[HS_BLOCK][HS_BLOCK];
  int tx = threadIdx.x, ty = threadIdx.y;
  int small = HS_BLOCK - 2 * iteration;
  int blkY = small * blockIdx.y - iteration;
  int blkX = small * blockIdx.x - iteration;
  int blkYmax = blkY + HS_BLOCK - 1;
  int blkXmax = blkX + HS_BLOCK - 1;
  int yidx = blkY + ty;
  int xidx = blkX + tx;
  // Cells outside the chip have nothing to load or compute.
  if (yidx < 0 || yidx >= gridRows || xidx < 0 || xidx >= gridCols)
    return;
  int index = gridCols * yidx + xidx;
  tempOnCuda[ty][tx] = tempSrc[index];
  powerOnCuda[ty][tx] = power[index];
  __syncthreads();
  int validYmin = blkY < 0 ? -blkY : 0;
  int validYmax = blkYmax > gridRows - 1
                      ? HS_BLOCK - 1 - (blkYmax - gridRows + 1)
                      : HS_BLOCK - 1;
  int validXmin = blkX < 0 ? -blkX : 0;
  int validXmax = blkXmax > gridCols - 1
                      ? HS_BLOCK - 1 - (blkXmax - gridCols + 1)
                      : HS_BLOCK - 1;
  int north = max(ty - 1, validYmin), south = min(ty + 1, validYmax);
  int west = max(tx - 1, validXmin), east = min(tx + 1, validXmax);
  bool computed = false;
  for (int i = 0; i < iteration; ++i) {
    computed = false;
    if (tx >= i + 1 && tx <= HS_BLOCK - i - 2 && ty >= i + 1 &&
        ty <= HS_BLOCK - i - 2) {
      computed = true;
      float t = tempOnCuda[ty][tx];
      tempT[ty][tx] =
          t +
          stepDivCap *
              (powerOnCuda[ty][tx] +
               (tempOnCuda[south][tx] + tempOnCuda[north][tx] - 2.0f * t) *
                   ry1 +
               (tempOnCuda[ty][east] + tempOnCuda[ty][west] - 2.0f * t) * rx1 +
               (ambient - t) * rz1);
    }
    __syncthreads();
    if (i == iteration - 1)
      break;
    if (computed)
      tempOnCuda[ty][tx] = tempT[ty][tx];
    __syncthreads();
  }
  if (computed)
    tempDst[index] = tempT[ty][tx];
}

namespace smc::workloads::hotspot {
namespace {

constexpr double kTolerance = 1e-5;

class HotspotWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    reference.clear();
    dTemp.upload(problem.temp);
    dPower.upload(problem.power);
    for (auto &b : dBuffer)
      b.allocate(problem.temp.size());
  }

  void run(cudaStream_t stream) override {
    const Coefficients &c = problem.coeff;
    const float *src = dTemp.get();
    int buffer = 0;
    dim3 block(HS_BLOCK, HS_BLOCK);
    for (int t = 0; t < problem.iterations; t += problem.pyramid) {
      int iteration = std::min(problem.pyramid, problem.iterations - t);
      int small = HS_BLOCK - 2 * iteration;
      dim3 grid(ceilDiv(problem.cols, small), ceilDiv(problem.rows, small));
      hotspot_calculate_temp<<<grid, block, 0, stream>>>(
          iteration, dPower.get(), src, dBuffer[buffer].get(), problem.cols,
          problem.rows, c.stepDivCap, c.rx1, c.ry1, c.rz1, c.ambient);
      SMC_CUDA_CHECK_LAUNCH();
      src = dBuffer[buffer].get();
      buffer ^= 1;
    }
    resultBuffer = buffer ^ 1;
  }

  void resetOutputs(cudaStream_t stream) override {
    for (auto &b : dBuffer)
      b.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dBuffer[resultBuffer].download(got);
    if (reference.empty())
      cpuReference(problem, reference);
    return compareScaled(got.data(), reference.data(), nullptr, got.size(),
                         kTolerance, 1.0, "|gpu-ref|/|ref|", "temp");
  }

  RunEstimate estimate() const override {
    double cells = double(problem.temp.size());
    double launches =
        double((problem.iterations + problem.pyramid - 1) / problem.pyramid);
    return {launches * cells * 12, double(problem.iterations) * cells * 15};
  }

private:
  Problem problem;
  std::vector<double> reference;
  DeviceBuffer<float> dTemp, dPower;
  DeviceBuffer<float> dBuffer[2];
  int resultBuffer = 0;
};

} // namespace

std::unique_ptr<Workload> create() {
  return std::make_unique<HotspotWorkload>();
}

} // namespace smc::workloads::hotspot
