//===- mriq.h - mriq: MRI-Q matrix computation (Kernelet) -----------------===//
//
// Parboil MRI-Q: phiMag[k] = phiR[k]^2 + phiI[k]^2 (one kernel), then for
// every voxel x, Q(x) = sum_k phiMag[k] * exp(i 2 pi k . x) (real and
// imaginary parts), computed in launches of 512 k-space samples each that
// add into Qr and Qi, as Parboil does in constant-memory-sized chunks (here
// the samples are read from global memory).  Compute-bound (sincosf).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_MRIQ_H
#define SMC_BENCH_WORKLOADS_MRIQ_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::mriq {

constexpr int kChunk = 512; // k-space samples per ComputeQ launch

struct Problem {
  std::vector<float> kx, ky, kz, phiR, phiI; // numK
  std::vector<float> x, y, z;                // numX
  size_t numK() const { return kx.size(); }
  size_t numX() const { return x.size(); }
};

Problem generate(const Params &params, uint64_t seed);
// Qr, Qi of the voxels `voxels`, in double, and the error scale of each:
// sum_k phiMag[k].
void cpuReference(const Problem &problem, const std::vector<size_t> &voxels,
                  std::vector<double> &qr, std::vector<double> &qi,
                  double &scale);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // mriq.cu

} // namespace smc::workloads::mriq

#endif // SMC_BENCH_WORKLOADS_MRIQ_H
