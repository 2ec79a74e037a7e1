//===- mriq.cu - mriq: phiMag and Q kernels and their GPU driver ----------===//
#include "mriq.h"

#include "Check.h"
#include "CudaSupport.cuh"

#include <algorithm>

__global__ void mriq_phi_mag(const float *__restrict__ phiR,
                             const float *__restrict__ phiI,
                             float *__restrict__ phiMag, int numK) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < numK) {
    float real = phiR[k], imag = phiI[k];
    phiMag[k] = real * real + imag * imag;
  }
}

// Adds the samples [kBegin, kEnd) to Qr and Qi, one voxel per thread.
__global__ void
mriq_compute_q(int numX, int kBegin, int kEnd, const float *__restrict__ kx,
               const float *__restrict__ ky, const float *__restrict__ kz,
               const float *__restrict__ phiMag, const float *__restrict__ x,
               const float *__restrict__ y, const float *__restrict__ z,
               float *__restrict__ Qr, float *__restrict__ Qi) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= numX)
    return;
  const float twoPi = 6.2831853071795864769f;
  float sx = x[t], sy = y[t], sz = z[t];
  float qr = Qr[t], qi = Qi[t];
  for (int k = kBegin; k < kEnd; ++k) {
    float arg = twoPi * (kx[k] * sx + ky[k] * sy + kz[k] * sz);
    float s, c;
    sincosf(arg, &s, &c);
    qr += phiMag[k] * c;
    qi += phiMag[k] * s;
  }
  Qr[t] = qr;
  Qi[t] = qi;
}

namespace smc::workloads::mriq {
namespace {

constexpr int kBlock = 256;
constexpr size_t kSampledVoxels = 4096;
constexpr double kTolerance = 1e-5;

class MriqWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    voxels.clear();
    dKx.upload(problem.kx);
    dKy.upload(problem.ky);
    dKz.upload(problem.kz);
    dPhiR.upload(problem.phiR);
    dPhiI.upload(problem.phiI);
    dX.upload(problem.x);
    dY.upload(problem.y);
    dZ.upload(problem.z);
    dPhiMag.allocate(problem.numK());
    dQr.allocate(problem.numX());
    dQi.allocate(problem.numX());
  }

  void run(cudaStream_t stream) override {
    int numK = int(problem.numK()), numX = int(problem.numX());
    mriq_phi_mag<<<ceilDiv(numK, kBlock), kBlock, 0, stream>>>(
        dPhiR.get(), dPhiI.get(), dPhiMag.get(), numK);
    SMC_CUDA_CHECK_LAUNCH();
    dQr.zero(stream);
    dQi.zero(stream);
    for (int begin = 0; begin < numK; begin += kChunk) {
      int end = std::min(begin + kChunk, numK);
      mriq_compute_q<<<ceilDiv(numX, kBlock), kBlock, 0, stream>>>(
          numX, begin, end, dKx.get(), dKy.get(), dKz.get(), dPhiMag.get(),
          dX.get(), dY.get(), dZ.get(), dQr.get(), dQi.get());
      SMC_CUDA_CHECK_LAUNCH();
    }
  }

  void resetOutputs(cudaStream_t stream) override {
    dPhiMag.poison(stream);
    dQr.poison(stream);
    dQi.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> gotR, gotI;
    dQr.download(gotR);
    dQi.download(gotI);
    if (voxels.empty()) {
      voxels = sampleIndices(problem.numX(), kSampledVoxels, 17);
      cpuReference(problem, voxels, wantR, wantI, scale);
    }
    std::vector<float> sampledR(voxels.size()), sampledI(voxels.size());
    for (size_t v = 0; v < voxels.size(); ++v) {
      sampledR[v] = gotR[voxels[v]];
      sampledI[v] = gotI[voxels[v]];
    }
    const char *metric = "|gpu-ref|/sum(phiMag)";
    CheckResult r =
        compareScaled(sampledR.data(), wantR.data(), nullptr, voxels.size(),
                      kTolerance, scale, metric, "Qr");
    r.merge(compareScaled(sampledI.data(), wantI.data(), nullptr, voxels.size(),
                          kTolerance, scale, metric, "Qi"));
    if (voxels.size() < gotR.size()) {
      r.merge(checkAllFinite(gotR.data(), gotR.size(), "Qr"));
      r.merge(checkAllFinite(gotI.data(), gotI.size(), "Qi"));
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(voxels.size()) + " of " +
                  std::to_string(gotR.size()) + " voxels compared";
    }
    return r;
  }

  RunEstimate estimate() const override {
    double numK = double(problem.numK()), numX = double(problem.numX());
    double launches = std::ceil(numK / kChunk);
    return {numK * 28 + launches * numX * (12 + 16), numX * numK * 14};
  }

private:
  Problem problem;
  std::vector<size_t> voxels;
  std::vector<double> wantR, wantI;
  double scale = 0;
  DeviceBuffer<float> dKx, dKy, dKz, dPhiR, dPhiI, dX, dY, dZ, dPhiMag, dQr,
      dQi;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<MriqWorkload>(); }

} // namespace smc::workloads::mriq
