//===- dct8x8.cu - dct8x8: block DCT kernel and its GPU driver ------------===//
#include "dct8x8.h"

#include "Check.h"
#include "CudaSupport.cuh"

// Block (bx, by) of the 2-D grid transforms the 8x8 image block at
// (8 bx, 8 by); thread (tx, ty) owns coefficient (u = tx, v = ty).
__global__ void dct8x8_forward(const float *__restrict__ src,
                               float *__restrict__ dst, int stride,
                               const float *__restrict__ dctMatrix) {
  __shared__ float block[8][8];
  __shared__ float rows[8][8];
  int tx = threadIdx.x, ty = threadIdx.y;
  size_t at = size_t(blockIdx.y * 8 + ty) * stride + blockIdx.x * 8 + tx;
  block[ty][tx] = src[at];
  __syncthreads();
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    s += dctMatrix[tx * 8 + k] * block[ty][k];
  rows[ty][tx] = s;
  __syncthreads();
  float t = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    t += dctMatrix[ty * 8 + k] * rows[k][tx];
  dst[at] = t;
}

namespace smc::workloads::dct8x8 {
namespace {

constexpr size_t kSampledBlocks = 16384;
constexpr double kTolerance = 1e-5;

class DctWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    blocks.clear();
    dImage.upload(problem.image);
    dMatrix.upload(problem.dctMatrix);
    dCoeff.allocate(problem.image.size());
  }

  void run(cudaStream_t stream) override {
    dim3 block(8, 8);
    dim3 grid(problem.width / 8, problem.height / 8);
    dct8x8_forward<<<grid, block, 0, stream>>>(dImage.get(), dCoeff.get(),
                                               problem.width, dMatrix.get());
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dCoeff.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dCoeff.download(got);
    if (blocks.empty()) {
      blocks = sampleIndices(problem.blocks(), kSampledBlocks, 31);
      cpuReference(problem, blocks, reference, magnitude);
    }
    size_t perRow = size_t(problem.width / 8);
    std::vector<float> sampled(64 * blocks.size());
    for (size_t b = 0; b < blocks.size(); ++b) {
      size_t x0 = (blocks[b] % perRow) * 8, y0 = (blocks[b] / perRow) * 8;
      for (int v = 0; v < 8; ++v)
        for (int u = 0; u < 8; ++u)
          sampled[64 * b + v * 8 + u] = got[(y0 + v) * problem.width + x0 + u];
    }
    CheckResult r = compareScaled(sampled.data(), reference.data(),
                                  magnitude.data(), sampled.size(), kTolerance,
                                  1e-30, "|gpu-ref|/sum|terms|", "coeff");
    if (blocks.size() < problem.blocks()) {
      r.merge(checkAllFinite(got.data(), got.size(), "coeff"));
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(blocks.size()) + " of " +
                  std::to_string(problem.blocks()) + " blocks compared";
    }
    return r;
  }

  RunEstimate estimate() const override {
    double pixels = double(problem.image.size());
    return {pixels * 8, pixels * 32};
  }

private:
  Problem problem;
  std::vector<size_t> blocks;
  std::vector<double> reference, magnitude;
  DeviceBuffer<float> dImage, dMatrix, dCoeff;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<DctWorkload>(); }

} // namespace smc::workloads::dct8x8
