//===- nbf.cu - nbf: pair-force kernel and its GPU driver -----------------===//
#include "nbf.h"

#include "Check.h"
#include "CudaSupport.cuh"

// One thread per atom: its own force is summed in registers, the partners'
// forces are scattered with atomics.
__global__ void
nbf_pair_forces(const float *__restrict__ px, const float *__restrict__ py,
                const float *__restrict__ pz, const float *__restrict__ charge,
                const int *__restrict__ start, const int *__restrict__ partner,
                float *fx, float *fy, float *fz, int numAtoms,
                float softening) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= numAtoms)
    return;
  float xi = px[i], yi = py[i], zi = pz[i], qi = charge[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int k = start[i]; k < start[i + 1]; ++k) {
    int j = partner[k];
    float dx = xi - px[j];
    float dy = yi - py[j];
    float dz = zi - pz[j];
    float r2 = dx * dx + dy * dy + dz * dz + softening;
    float inv = rsqrtf(r2);
    float s = qi * charge[j] * inv * inv * inv;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
    atomicAdd(&fx[j], -s * dx);
    atomicAdd(&fy[j], -s * dy);
    atomicAdd(&fz[j], -s * dz);
  }
  atomicAdd(&fx[i], ax);
  atomicAdd(&fy[i], ay);
  atomicAdd(&fz[i], az);
}

namespace smc::workloads::nbf {
namespace {

constexpr int kBlock = 256;
constexpr double kTolerance = 1e-5;

class NbfWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    haveReference = false;
    dX.upload(problem.x);
    dY.upload(problem.y);
    dZ.upload(problem.z);
    dCharge.upload(problem.charge);
    dStart.upload(problem.start);
    dPartner.upload(problem.partner);
    for (auto &f : dForce)
      f.allocate(size_t(problem.atoms));
  }

  void run(cudaStream_t stream) override {
    for (auto &f : dForce)
      f.zero(stream);
    nbf_pair_forces<<<ceilDiv(problem.atoms, kBlock), kBlock, 0, stream>>>(
        dX.get(), dY.get(), dZ.get(), dCharge.get(), dStart.get(),
        dPartner.get(), dForce[0].get(), dForce[1].get(), dForce[2].get(),
        problem.atoms, kSoftening);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override {
    for (auto &f : dForce)
      f.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    if (!haveReference) {
      cpuReference(problem, force, magnitude);
      haveReference = true;
    }
    CheckResult r;
    const char *names[3] = {"fx", "fy", "fz"};
    for (int c = 0; c < 3; ++c) {
      std::vector<float> got;
      dForce[c].download(got);
      r.merge(compareScaled(got.data(), force[c].data(), magnitude[c].data(),
                            got.size(), kTolerance, 1e-30,
                            "|gpu-ref|/sum|terms|", names[c]));
    }
    return r;
  }

  // px[j] of the CTA's atoms' partners j; py, pz and charge are read at
  // the same indices, so they would give the same affinity scores.
  bool chunkReads(ChunkReads &reads) const override {
    reads.byCta(size_t(problem.atoms), kBlock, [&](size_t i) {
      for (int32_t k = problem.start[i]; k < problem.start[i + 1]; ++k)
        reads.read(uint64_t(problem.partner[k]) * sizeof(float));
    });
    return true;
  }

  RunEstimate estimate() const override {
    double pairs = double(problem.partner.size());
    double atoms = double(problem.atoms);
    return {atoms * (16 + 4 + 24) + pairs * 4, pairs * 30};
  }

private:
  Problem problem;
  bool haveReference = false;
  std::vector<double> force[3], magnitude[3];
  DeviceBuffer<float> dX, dY, dZ, dCharge;
  DeviceBuffer<int32_t> dStart, dPartner;
  DeviceBuffer<float> dForce[3];
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<NbfWorkload>(); }

} // namespace smc::workloads::nbf
