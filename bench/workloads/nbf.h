//===- nbf.h - nbf: non-bonded force field with a partner list ------------===//
//
// The Maryland "nbf" kernel: every atom i has a list of partners j > i
// (CSR: start/partner); each pair adds q_i q_j d / (|d|^2 + s)^(3/2) to f_i
// and the opposite to f_j (Newton's third law, so each pair is visited once).
// One thread per atom; the partner's force goes through float atomics.
// Partners lie within 256 atoms of i (90%) or anywhere above i (10%).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_NBF_H
#define SMC_BENCH_WORKLOADS_NBF_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::nbf {

constexpr float kSoftening = 0.25f;

struct Problem {
  int32_t atoms = 0;
  std::vector<float> x, y, z, charge; // per atom
  std::vector<int32_t> start;         // atoms + 1
  std::vector<int32_t> partner;       // pairs
};

Problem generate(const Params &params, uint64_t seed);
// force[c][i] (c = x, y, z) in double, and magnitude[c][i], the sum of the
// absolute values of the terms added into it (the scale of rounding errors).
void cpuReference(const Problem &problem, std::vector<double> force[3],
                  std::vector<double> magnitude[3]);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // nbf.cu

} // namespace smc::workloads::nbf

#endif // SMC_BENCH_WORKLOADS_NBF_H
