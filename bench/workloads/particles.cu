//===- particles.cu - particles: integrator kernel and its GPU driver -----===//
#include "particles.h"

#include "Check.h"
#include "CudaSupport.cuh"

// One thread per particle: its own number of semi-implicit Euler steps.
__global__ void particles_integrate(const int *__restrict__ iters,
                                    const float4 *__restrict__ pos,
                                    const float4 *__restrict__ vel,
                                    float4 *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int steps = iters[i];
  float4 p = pos[i];
  float4 v = vel[i];
  const float dt = smc::workloads::particles::kDt;
  float x = p.x, y = p.y, z = p.z, k = p.w;
  float vx = v.x, vy = v.y, vz = v.z, c = v.w;
  for (int s = 0; s < steps; ++s) {
    float r2 = x * x + y * y + z * z;
    float spring = k * rsqrtf(1.0f + r2);
    vx += dt * (-spring * x - c * vx);
    vy += dt * (-spring * y - c * vy);
    vz += dt * (-spring * z - c * vz);
    x += dt * vx;
    y += dt * vy;
    z += dt * vz;
  }
  out[i] = make_float4(x, y, z, sqrtf(vx * vx + vy * vy + vz * vz));
}

namespace smc::workloads::particles {
namespace {

constexpr int kBlock = 256;
constexpr size_t kSampledParticles = size_t(1) << 20;
constexpr double kTolerance = 1e-5;

class ParticlesWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    particles.clear();
    reference.clear();
    dSteps.upload(problem.steps);
    dPos.upload(problem.pos);
    dVel.upload(problem.vel);
    dOut.allocate(problem.pos.size());
  }

  void run(cudaStream_t stream) override {
    int n = int(problem.particles());
    particles_integrate<<<ceilDiv(n, kBlock), kBlock, 0, stream>>>(
        dSteps.get(), reinterpret_cast<const float4 *>(dPos.get()),
        reinterpret_cast<const float4 *>(dVel.get()),
        reinterpret_cast<float4 *>(dOut.get()), n);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dOut.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dOut.download(got);
    size_t n = problem.particles();
    if (particles.empty()) {
      particles = sampleIndices(n, kSampledParticles, 79);
      cpuReference(problem, particles, reference);
    }
    std::vector<float> sampled(4 * particles.size());
    for (size_t k = 0; k < particles.size(); ++k)
      for (size_t j = 0; j < 4; ++j)
        sampled[4 * k + j] = got[4 * particles[k] + j];
    CheckResult r =
        compareScaled(sampled.data(), reference.data(), nullptr, sampled.size(),
                      kTolerance, 1.0, "|gpu-ref|/max(|ref|,1)", "out");
    if (particles.size() < n) {
      r.merge(checkAllFinite(got.data(), got.size(), "out"));
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(particles.size()) + " of " +
                  std::to_string(n) + " particles compared";
    }
    return r;
  }

  RunEstimate estimate() const override {
    double n = double(problem.particles()), steps = 0;
    for (int32_t s : problem.steps)
      steps += s;
    // Count, two float4 in, one out; ~25 flops per step.
    return {n * (4 + 48), steps * 25};
  }

private:
  Problem problem;
  std::vector<size_t> particles;
  std::vector<double> reference;
  DeviceBuffer<int32_t> dSteps;
  DeviceBuffer<float> dPos, dVel, dOut;
};

} // namespace

std::unique_ptr<Workload> create() {
  return std::make_unique<ParticlesWorkload>();
}

} // namespace smc::workloads::particles
