//===- md.h - md: Lennard-Jones forces with a neighbour list (SM-Centric) -===//
//
// SHOC's MD kernel: one thread per atom gathers the positions of its 32
// neighbours through a column-major neighbour list (neighbour k of atom i at
// [k * atoms + i]) and adds the Lennard-Jones force of those within the
// cutoff.  Atoms sit on a jittered cubic lattice and are numbered in random
// order, so the gathers are irregular; the neighbours are the 26 adjacent
// lattice sites and the 6 sites two steps away along an axis (outside the
// cutoff unless jitter brings them in).  Coordinates are multiples of 1/64,
// which makes |d|^2 exact in fp32: the cutoff test cannot differ between GPU
// and CPU.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_MD_H
#define SMC_BENCH_WORKLOADS_MD_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::md {

constexpr int kNeighbors = 32;
constexpr float kCutoffSquared = 4.84f; // cutoff 2.2
constexpr float kLj1 = 1.5f, kLj2 = 2.0f;

struct Problem {
  int32_t atoms = 0;
  std::vector<float> position;   // atoms * 4 (x, y, z, unused)
  std::vector<int32_t> neighbor; // kNeighbors * atoms, column-major
};

Problem generate(const Params &params, uint64_t seed);
// force[4 * k + c] of atom atoms[k] (c = x, y, z; w is 0) in double, and
// magnitude[4 * k + c], the sum of the absolute values of the terms added
// into it.
void cpuReference(const Problem &problem, const std::vector<size_t> &atoms,
                  std::vector<double> &force, std::vector<double> &magnitude);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // md.cu

} // namespace smc::workloads::md

#endif // SMC_BENCH_WORKLOADS_MD_H
