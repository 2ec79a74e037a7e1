//===- mriq.cpp - mriq: inputs, CPU reference, self-check, registry -------===//
#include "mriq.h"

#include "Check.h"
#include "Random.h"

#include <algorithm>
#include <cmath>
#include <complex>

namespace smc::workloads::mriq {

namespace {
constexpr double kTwoPi = 6.283185307179586476925286766559;
} // namespace

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  size_t numK = size_t(params.get("numk"));
  size_t numX = size_t(params.get("numx"));
  Rng kspace(seed, 1), phi(seed, 2), voxels(seed, 3);
  for (auto *v : {&p.kx, &p.ky, &p.kz, &p.phiR, &p.phiI})
    v->resize(numK);
  for (size_t k = 0; k < numK; ++k) {
    p.kx[k] = kspace.uniform(-0.5f, 0.5f);
    p.ky[k] = kspace.uniform(-0.5f, 0.5f);
    p.kz[k] = kspace.uniform(-0.5f, 0.5f);
    p.phiR[k] = phi.uniform(-1.0f, 1.0f);
    p.phiI[k] = phi.uniform(-1.0f, 1.0f);
  }
  for (auto *v : {&p.x, &p.y, &p.z})
    v->resize(numX);
  for (size_t i = 0; i < numX; ++i) {
    p.x[i] = voxels.uniform(-32.0f, 32.0f);
    p.y[i] = voxels.uniform(-32.0f, 32.0f);
    p.z[i] = voxels.uniform(-32.0f, 32.0f);
  }
  return p;
}

void cpuReference(const Problem &p, const std::vector<size_t> &voxels,
                  std::vector<double> &qr, std::vector<double> &qi,
                  double &scale) {
  size_t numK = p.numK();
  std::vector<double> phiMag(numK);
  scale = 0;
  for (size_t k = 0; k < numK; ++k) {
    // The GPU computes phiMag in float; the reference uses the same value.
    phiMag[k] = double(p.phiR[k] * p.phiR[k] + p.phiI[k] * p.phiI[k]);
    scale += std::fabs(phiMag[k]);
  }
  qr.assign(voxels.size(), 0.0);
  qi.assign(voxels.size(), 0.0);
  for (size_t v = 0; v < voxels.size(); ++v) {
    size_t i = voxels[v];
    double sr = 0, si = 0;
    for (size_t k = 0; k < numK; ++k) {
      double arg =
          kTwoPi * (double(p.kx[k]) * p.x[i] + double(p.ky[k]) * p.y[i] +
                    double(p.kz[k]) * p.z[i]);
      sr += phiMag[k] * std::cos(arg);
      si += phiMag[k] * std::sin(arg);
    }
    qr[v] = sr;
    qi[v] = si;
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<size_t> voxels = sampleIndices(p.numX(), 512, seed);
  std::vector<double> qr, qi;
  double scale;
  cpuReference(p, voxels, qr, qi, scale);
  // Independent formulation: the phase factor as a product of one complex
  // exponential per axis.
  double worst = 0;
  for (size_t v = 0; v < voxels.size(); ++v) {
    size_t i = voxels[v];
    std::complex<double> q = 0;
    for (size_t k = 0; k < p.numK(); ++k) {
      double mag = double(p.phiR[k] * p.phiR[k] + p.phiI[k] * p.phiI[k]);
      q += mag * std::polar(1.0, kTwoPi * p.kx[k] * double(p.x[i])) *
           std::polar(1.0, kTwoPi * p.ky[k] * double(p.y[i])) *
           std::polar(1.0, kTwoPi * p.kz[k] * double(p.z[i]));
    }
    worst = std::max({worst, std::fabs(q.real() - qr[v]) / scale,
                      std::fabs(q.imag() - qi[v]) / scale});
  }
  if (!(worst < 1e-10))
    return failure("phase product",
                   "relative difference " + std::to_string(worst));
  // A float evaluation like the kernel's stays within the GPU tolerance
  // with a margin of 4x.
  std::vector<float> approxR(voxels.size()), approxI(voxels.size());
  for (size_t v = 0; v < voxels.size(); ++v) {
    size_t i = voxels[v];
    float sr = 0, si = 0;
    for (size_t k = 0; k < p.numK(); ++k) {
      float mag = p.phiR[k] * p.phiR[k] + p.phiI[k] * p.phiI[k];
      float arg = float(kTwoPi) *
                  (p.kx[k] * p.x[i] + p.ky[k] * p.y[i] + p.kz[k] * p.z[i]);
      sr += mag * std::cos(arg);
      si += mag * std::sin(arg);
    }
    approxR[v] = sr;
    approxI[v] = si;
  }
  CheckResult r =
      compareScaled(approxR.data(), qr.data(), nullptr, voxels.size(), 2.5e-6,
                    scale, "|err|/sum(phiMag)", "Qr");
  r.merge(compareScaled(approxI.data(), qi.data(), nullptr, voxels.size(),
                        2.5e-6, scale, "|err|/sum(phiMag)", "Qi"));
  r.detail = "exp(i k.x) vs product of per-axis exponentials (1e-10); "
             "float evaluation within tolerance/4";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "mriq",
      "MRI-Q: phiMag kernel, then Q over k-space chunks of 512 per launch "
      "(Parboil MRI-Q)",
      1,
      Regularity::Regular,
      Locality::Unclassified,
      PaperKernelet,
      FeatureMultiLaunch,
      {"mriq_phi_mag", "mriq_compute_q"},
      {{"numx", 4096, 1 << 18, 1 << 20, "voxels"},
       {"numk", 512, 2048, 2048, "k-space samples"}},
      &create,
      &cpuSelfCheck,
      "Qr, Qi: |gpu-ref| <= 1e-5 * sum(phiMag); Default/Large: 4096 sampled "
      "voxels, all finite",
  };
  return entry;
}

} // namespace smc::workloads::mriq
