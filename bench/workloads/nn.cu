//===- nn.cu - nn: distance kernel and its GPU driver ---------------------===//
#include "nn.h"

#include "Check.h"
#include "CudaSupport.cuh"

#include <algorithm>

// Rodinia's euclid: 1-D records over a 2-D grid of blocks.
__global__ void nn_euclid(const float2 *__restrict__ locations,
                          float *__restrict__ distances, int numRecords,
                          float lat, float lng) {
  int globalId =
      (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  if (globalId < numRecords) {
    float2 loc = locations[globalId];
    distances[globalId] =
        sqrtf((lat - loc.x) * (lat - loc.x) + (lng - loc.y) * (lng - loc.y));
  }
}

namespace smc::workloads::nn {
namespace {

constexpr int kBlock = 256;
constexpr unsigned kMaxGridX = 256;
constexpr double kTolerance = 1e-6;

class NnWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    reference.clear();
    dLocation.upload(problem.location);
    dDistance.allocate(problem.records());
  }

  void run(cudaStream_t stream) override {
    unsigned blocks = ceilDiv(problem.records(), kBlock);
    dim3 grid(std::min(blocks, kMaxGridX), ceilDiv(blocks, kMaxGridX));
    nn_euclid<<<grid, kBlock, 0, stream>>>(
        reinterpret_cast<const float2 *>(dLocation.get()), dDistance.get(),
        int(problem.records()), kTargetLat, kTargetLng);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dDistance.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dDistance.download(got);
    if (reference.empty())
      cpuReference(problem, reference);
    return compareScaled(got.data(), reference.data(), nullptr, got.size(),
                         kTolerance, 1e-3, "|gpu-ref|/max(|ref|,1e-3)",
                         "distance");
  }

  RunEstimate estimate() const override {
    double n = double(problem.records());
    return {n * 12, n * 6};
  }

private:
  Problem problem;
  std::vector<double> reference;
  DeviceBuffer<float> dLocation, dDistance;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<NnWorkload>(); }

} // namespace smc::workloads::nn
