//===- nbody.cu - nbody: acceleration kernel and its GPU driver -----------===//
#include "nbody.h"

#include "Check.h"
#include "CudaSupport.cuh"

__global__ void nbody_accel(const float4 *__restrict__ body,
                            float4 *__restrict__ accel, int n,
                            float softeningSquared) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    float4 me = body[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; ++j) {
      float4 other = body[j];
      float dx = other.x - me.x;
      float dy = other.y - me.y;
      float dz = other.z - me.z;
      float dist2 = dx * dx + dy * dy + dz * dz + softeningSquared;
      float inv = rsqrtf(dist2);
      float s = other.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    accel[i] = make_float4(ax, ay, az, 0.0f);
  }
}

namespace smc::workloads::nbody {
namespace {

constexpr int kBlock = 128;
constexpr size_t kSampledBodies = 2048;
constexpr double kTolerance = 1e-4;

class NbodyWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    bodies.clear();
    dBody.upload(problem.body);
    dAccel.allocate(problem.body.size());
  }

  void run(cudaStream_t stream) override {
    int n = int(problem.bodies());
    nbody_accel<<<ceilDiv(n, kBlock), kBlock, 0, stream>>>(
        reinterpret_cast<const float4 *>(dBody.get()),
        reinterpret_cast<float4 *>(dAccel.get()), n, kSofteningSquared);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dAccel.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dAccel.download(got);
    if (bodies.empty()) {
      bodies = sampleIndices(problem.bodies(), kSampledBodies, 43);
      cpuReference(problem, bodies, reference, magnitude);
    }
    std::vector<float> sampled(4 * bodies.size());
    for (size_t b = 0; b < bodies.size(); ++b)
      for (int c = 0; c < 4; ++c)
        sampled[4 * b + c] = got[4 * bodies[b] + c];
    CheckResult r = compareScaled(sampled.data(), reference.data(),
                                  magnitude.data(), sampled.size(), kTolerance,
                                  1e-30, "|gpu-ref|/sum|terms|", "accel");
    if (bodies.size() < problem.bodies()) {
      r.merge(checkAllFinite(got.data(), got.size(), "accel"));
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(bodies.size()) + " of " +
                  std::to_string(problem.bodies()) + " bodies compared";
    }
    return r;
  }

  RunEstimate estimate() const override {
    double n = double(problem.bodies());
    return {n * 32, n * n * 20};
  }

private:
  Problem problem;
  std::vector<size_t> bodies;
  std::vector<double> reference, magnitude;
  DeviceBuffer<float> dBody, dAccel;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<NbodyWorkload>(); }

} // namespace smc::workloads::nbody
