//===- tea.h - tea: Tiny Encryption Algorithm (Kernelet) ------------------===//
//
// TEA (Wheeler and Needham) encryption of 64-bit blocks under one 128-bit
// key, 32 cycles per block: integer compute-bound.  A fixed grid of 2048
// blocks of 256 threads walks the blocks with a grid-stride loop.  Exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_TEA_H
#define SMC_BENCH_WORKLOADS_TEA_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::tea {

struct Problem {
  uint32_t key[4] = {0, 0, 0, 0};
  std::vector<uint32_t> plain; // blocks * 2
  size_t blocks() const { return plain.size() / 2; }
};

Problem generate(const Params &params, uint64_t seed);
void encryptBlock(uint32_t v[2], const uint32_t key[4]);
void decryptBlock(uint32_t v[2], const uint32_t key[4]);
// Ciphertexts of the blocks `blocks` (2 words each).
void cpuReference(const Problem &problem, const std::vector<size_t> &blocks,
                  std::vector<uint32_t> &cipher);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // tea.cu

} // namespace smc::workloads::tea

#endif // SMC_BENCH_WORKLOADS_TEA_H
