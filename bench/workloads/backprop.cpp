//===- backprop.cpp - backprop: inputs, CPU reference, self-check ---------===//
#include "backprop.h"

#include "Check.h"
#include "Random.h"

#include <cmath>
#include <stdexcept>

namespace smc::workloads::backprop {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.in = int32_t(params.get("inputs"));
  if (p.in < 256 || p.in % 256 || p.in > (1 << 26))
    throw std::invalid_argument(
        "backprop: inputs must be a multiple of 256, at most 2^26");
  Rng inputs(seed, 1), weights(seed, 2), olds(seed, 3), deltas(seed, 4);
  p.input.resize(size_t(p.in) + 1);
  for (float &v : p.input)
    v = inputs.unit();
  p.input[0] = 1.0f;
  size_t entries = (size_t(p.in) + 1) * (kHidden + 1);
  p.weight.resize(entries);
  p.oldDelta.resize(entries);
  for (float &w : p.weight)
    w = weights.uniform(-1.0f, 1.0f);
  for (float &d : p.oldDelta)
    d = olds.uniform(-0.05f, 0.05f);
  p.delta.resize(kHidden + 1);
  for (float &d : p.delta)
    d = deltas.uniform(-0.1f, 0.1f);
  return p;
}

void cpuReference(const Problem &p, Reference &ref) {
  const size_t width = kHidden + 1;
  size_t blocks = size_t(p.in) / 16;
  ref.partial.assign(blocks * kHidden, 0.0);
  ref.partialMagnitude.assign(blocks * kHidden, 0.0);
  for (size_t b = 0; b < blocks; ++b)
    for (size_t r = 0; r < 16; ++r) {
      size_t i = b * 16 + r + 1; // input unit
      for (size_t j = 1; j <= kHidden; ++j) {
        double term = double(p.weight[i * width + j]) * p.input[i];
        ref.partial[b * kHidden + j - 1] += term;
        ref.partialMagnitude[b * kHidden + j - 1] += std::fabs(term);
      }
    }
  // Every weight of input rows 1..in and hidden columns 1..16, and the bias
  // row 0, changes; column 0 is copied.
  ref.weight.assign(p.weight.begin(), p.weight.end());
  ref.oldDelta.assign(p.oldDelta.begin(), p.oldDelta.end());
  for (size_t i = 0; i <= size_t(p.in); ++i)
    for (size_t j = 1; j <= kHidden; ++j) {
      double x = i == 0 ? 1.0 : double(p.input[i]);
      double change = double(kEta) * p.delta[j] * x +
                      double(kMomentum) * p.oldDelta[i * width + j];
      ref.weight[i * width + j] = double(p.weight[i * width + j]) + change;
      ref.oldDelta[i * width + j] = change;
    }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  Reference ref;
  cpuReference(p, ref);
  const size_t width = kHidden + 1;
  // The block sums add up to the full dot products input . weight[:, j].
  double worst = 0;
  for (size_t j = 1; j <= kHidden; ++j) {
    double full = 0, fromBlocks = 0, scale = 0;
    for (size_t i = 1; i <= size_t(p.in); ++i) {
      full += double(p.input[i]) * p.weight[i * width + j];
      scale += std::fabs(double(p.input[i]) * p.weight[i * width + j]);
    }
    for (size_t b = 0; b < size_t(p.in) / 16; ++b)
      fromBlocks += ref.partial[b * kHidden + j - 1];
    worst = std::max(worst, std::fabs(full - fromBlocks) / scale);
  }
  if (!(worst < 1e-12))
    return failure("partials", "block sums do not add up");
  // w' - w == dw' for every entry; column 0 unchanged.
  for (size_t e = 0; e < ref.weight.size(); ++e) {
    double change = ref.weight[e] - double(p.weight[e]);
    bool column0 = e % width == 0;
    if (column0 ? change != 0 || ref.oldDelta[e] != double(p.oldDelta[e])
                : std::fabs(change - ref.oldDelta[e]) > 1e-12)
      return failure("adjust", "entry " + std::to_string(e));
  }
  CheckResult r = success("invariants", ref.partial.size() + ref.weight.size());
  r.maxError = worst;
  r.detail = "block sums add up to the dot products; w' - w == dw'; bias "
             "column kept";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "backprop",
      "Neural network layer forward (16x16 shared-memory tree sums with "
      "barriers) and weight adjustment (Rodinia backprop)",
      2,
      Regularity::Regular,
      Locality::AlgorithmRelated,
      PaperCtaClustering,
      FeatureSharedMemory | FeatureBarriers | FeatureMultiLaunch,
      {"bpnn_layerforward", "bpnn_adjust_weights"},
      {{"inputs", 1 << 14, 1 << 22, 1 << 23, "input units (multiple of 256)"}},
      &create,
      &cpuSelfCheck,
      "partial sums: |gpu-ref| <= 1e-5 * sum|terms|; weights and changes: "
      "|gpu-ref| <= 1e-6 * max(|ref|, 1)",
  };
  return entry;
}

} // namespace smc::workloads::backprop
