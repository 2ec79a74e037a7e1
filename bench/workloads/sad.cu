//===- sad.cu - sad: 4x4 SAD kernel and its GPU driver --------------------===//
#include "sad.h"

#include "Check.h"
#include "CudaSupport.cuh"

// Block (bx, by) of the 2-D grid handles the 4x4 block at (4 bx, 4 by).
__global__ void sad_4x4(const unsigned char *__restrict__ cur,
                        const unsigned char *__restrict__ ref,
                        unsigned short *__restrict__ sads, int width,
                        int height, int range) {
  __shared__ int block[16];
  int x0 = blockIdx.x * 4, y0 = blockIdx.y * 4;
  if (threadIdx.x < 16)
    block[threadIdx.x] =
        cur[(y0 + threadIdx.x / 4) * width + x0 + threadIdx.x % 4];
  __syncthreads();
  int side = 2 * range + 1;
  int positions = side * side;
  size_t base = (size_t(blockIdx.y) * gridDim.x + blockIdx.x) * positions;
  for (int pos = threadIdx.x; pos < positions; pos += blockDim.x) {
    int dy = pos / side - range;
    int dx = pos % side - range;
    int sum = 0;
#pragma unroll
    for (int py = 0; py < 4; ++py) {
      int ry = min(max(y0 + py + dy, 0), height - 1);
#pragma unroll
      for (int px = 0; px < 4; ++px) {
        int rx = min(max(x0 + px + dx, 0), width - 1);
        sum += abs(block[py * 4 + px] - int(ref[ry * width + rx]));
      }
    }
    sads[base + pos] = (unsigned short)sum;
  }
}

namespace smc::workloads::sad {
namespace {

constexpr int kBlock = 64;
constexpr size_t kSampledBlocks = 2048;

class SadWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    blocks.clear();
    dCur.upload(problem.cur);
    dRef.upload(problem.ref);
    dSads.allocate(size_t(problem.blocksX()) * problem.blocksY() *
                   problem.positions());
  }

  void run(cudaStream_t stream) override {
    dim3 grid(problem.blocksX(), problem.blocksY());
    sad_4x4<<<grid, kBlock, 0, stream>>>(dCur.get(), dRef.get(), dSads.get(),
                                         problem.width, problem.height,
                                         problem.range);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dSads.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<uint16_t> got;
    dSads.download(got);
    size_t total = size_t(problem.blocksX()) * problem.blocksY();
    if (blocks.empty()) {
      blocks = sampleIndices(total, kSampledBlocks, 13);
      cpuReference(problem, blocks, reference);
    }
    size_t positions = size_t(problem.positions());
    std::vector<uint16_t> sampled(blocks.size() * positions);
    for (size_t b = 0; b < blocks.size(); ++b)
      for (size_t k = 0; k < positions; ++k)
        sampled[b * positions + k] = got[blocks[b] * positions + k];
    CheckResult r = compareExact(sampled, reference, "sad");
    if (blocks.size() < total) {
      r.merge(checkAllInRange<uint16_t>(got.data(), got.size(), 0, 16 * 255,
                                        "sad"));
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(blocks.size()) + " of " +
                  std::to_string(total) + " blocks compared";
    }
    return r;
  }

  RunEstimate estimate() const override {
    double blockCount = double(problem.blocksX()) * problem.blocksY();
    double pixels = double(problem.width) * problem.height;
    return {pixels * 2 + blockCount * problem.positions() * 2,
            blockCount * problem.positions() * 16 * 3};
  }

private:
  Problem problem;
  std::vector<size_t> blocks;
  std::vector<uint16_t> reference;
  DeviceBuffer<uint8_t> dCur, dRef;
  DeviceBuffer<uint16_t> dSads;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<SadWorkload>(); }

} // namespace smc::workloads::sad
