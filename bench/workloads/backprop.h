//===- backprop.h - backprop: neural network layer pass (CTA-Clustering) --===//
//
// Rodinia backprop's two kernels for the input -> hidden layer (16 hidden
// units, Rodinia's 1-based layout with a bias row and column in the
// (in + 1) x 17 weight matrix):
//  - bpnn_layerforward: 16 x 16 blocks, one per 16 input units; each block
//    stages 16 inputs and a 16 x 16 tile of weights in shared memory,
//    multiplies, and sums over its 16 inputs with a barrier per tree level;
//    the per-block sums go to partialSum[block][hidden].
//  - bpnn_adjust_weights: w' = w + ETA delta[j] x[i] + MOMENTUM dw,
//    dw' = the change, written out of place so that run() can repeat.
// Rodinia launches a (1, in / 16) grid, which exceeds gridDim.y's limit of
// 65535 beyond 2^20 inputs; here the grid is (16, in / 256) and block
// (x, y) takes Rodinia's block row y * 16 + x.  inputs: multiple of 256.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_BACKPROP_H
#define SMC_BENCH_WORKLOADS_BACKPROP_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::backprop {

constexpr int kHidden = 16;
constexpr float kEta = 0.3f, kMomentum = 0.3f;

struct Problem {
  int32_t in = 0;              // input units (multiple of 16)
  std::vector<float> input;    // in + 1 (input[0] is the bias unit)
  std::vector<float> weight;   // (in + 1) * (kHidden + 1), row = input unit
  std::vector<float> oldDelta; // same shape: previous weight changes
  std::vector<float> delta;    // kHidden + 1 (delta[0] unused)
};

Problem generate(const Params &params, uint64_t seed);
struct Reference {
  std::vector<double> partial, partialMagnitude; // (in / 16) * kHidden
  std::vector<double> weight, oldDelta;          // adjusted, (in+1)*(kHidden+1)
};
void cpuReference(const Problem &problem, Reference &ref);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // backprop.cu

} // namespace smc::workloads::backprop

#endif // SMC_BENCH_WORKLOADS_BACKPROP_H
