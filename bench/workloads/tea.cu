//===- tea.cu - tea: encryption kernel and its GPU driver -----------------===//
#include "tea.h"

#include "Check.h"
#include "CudaSupport.cuh"

__global__ void tea_encrypt(const uint2 *__restrict__ plain,
                            uint2 *__restrict__ cipher, int blocks, unsigned k0,
                            unsigned k1, unsigned k2, unsigned k3) {
  const unsigned delta = 0x9E3779B9u;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < blocks;
       i += blockDim.x * gridDim.x) {
    uint2 v = plain[i];
    unsigned v0 = v.x, v1 = v.y, sum = 0;
#pragma unroll 8
    for (int cycle = 0; cycle < 32; ++cycle) {
      sum += delta;
      v0 += ((v1 << 4) + k0) ^ (v1 + sum) ^ ((v1 >> 5) + k1);
      v1 += ((v0 << 4) + k2) ^ (v0 + sum) ^ ((v0 >> 5) + k3);
    }
    cipher[i] = make_uint2(v0, v1);
  }
}

namespace smc::workloads::tea {
namespace {

constexpr int kBlock = 256;
constexpr int kGrid = 2048;
constexpr size_t kSampledBlocks = 1 << 20;

class TeaWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    blocks.clear();
    dPlain.upload(problem.plain);
    dCipher.allocate(problem.plain.size());
  }

  void run(cudaStream_t stream) override {
    tea_encrypt<<<kGrid, kBlock, 0, stream>>>(
        reinterpret_cast<const uint2 *>(dPlain.get()),
        reinterpret_cast<uint2 *>(dCipher.get()), int(problem.blocks()),
        problem.key[0], problem.key[1], problem.key[2], problem.key[3]);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dCipher.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<uint32_t> got;
    dCipher.download(got);
    if (blocks.empty()) {
      blocks = sampleIndices(problem.blocks(), kSampledBlocks, 23);
      cpuReference(problem, blocks, reference);
    }
    std::vector<uint32_t> sampled(2 * blocks.size());
    for (size_t k = 0; k < blocks.size(); ++k) {
      sampled[2 * k] = got[2 * blocks[k]];
      sampled[2 * k + 1] = got[2 * blocks[k] + 1];
    }
    CheckResult r = compareExact(sampled, reference, "cipher");
    if (blocks.size() < problem.blocks()) {
      // A block still holding the poison pattern was never written (a real
      // ciphertext equals it with probability 2^-64).
      CheckResult written;
      written.metric = "written";
      written.checked = problem.blocks();
      for (size_t i = 0; i < problem.blocks(); ++i)
        if (got[2 * i] == 0xFFFFFFFFu && got[2 * i + 1] == 0xFFFFFFFFu &&
            written.failures++ == 0)
          written.detail = "cipher block " + std::to_string(i) + " unwritten";
      written.ok = written.failures == 0;
      r.merge(written);
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(blocks.size()) + " of " +
                  std::to_string(problem.blocks()) + " blocks compared";
    }
    return r;
  }

  RunEstimate estimate() const override {
    double n = double(problem.blocks());
    return {n * 16, n * 32 * 2 * 9};
  }

private:
  Problem problem;
  std::vector<size_t> blocks;
  std::vector<uint32_t> reference;
  DeviceBuffer<uint32_t> dPlain, dCipher;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<TeaWorkload>(); }

} // namespace smc::workloads::tea
