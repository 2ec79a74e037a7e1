//===- dct8x8.cpp - dct8x8: inputs, CPU reference, self-check, registry ---===//
#include "dct8x8.h"

#include "Check.h"
#include "Random.h"

#include <cmath>
#include <stdexcept>

namespace smc::workloads::dct8x8 {

namespace {
const double kPi = 3.14159265358979323846;

double dctEntry(int u, int x) {
  double scale = u == 0 ? std::sqrt(1.0 / 8) : std::sqrt(2.0 / 8);
  return scale * std::cos((2 * x + 1) * u * kPi / 16);
}
} // namespace

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.width = int32_t(params.get("width"));
  p.height = int32_t(params.get("height"));
  if (p.width % 8 || p.height % 8 || p.width < 8 || p.height < 8)
    throw std::invalid_argument("dct8x8: width, height multiples of 8");
  p.dctMatrix.resize(64);
  for (int u = 0; u < 8; ++u)
    for (int x = 0; x < 8; ++x)
      p.dctMatrix[u * 8 + x] = float(dctEntry(u, x));
  // A smooth gradient plus noise, like a photograph's 8x8 blocks.
  Rng rng(seed, 1);
  p.image.resize(size_t(p.width) * p.height);
  for (int32_t y = 0; y < p.height; ++y)
    for (int32_t x = 0; x < p.width; ++x) {
      float base = 64.0f + 128.0f * float((x * 7 + y * 3) % 256) / 255.0f;
      float v = base + rng.uniform(-40.0f, 40.0f);
      p.image[size_t(y) * p.width + x] = std::round(v < 0     ? 0
                                                    : v > 255 ? 255
                                                              : v);
    }
  return p;
}

void cpuReference(const Problem &p, const std::vector<size_t> &blocks,
                  std::vector<double> &coeff, std::vector<double> &magnitude) {
  coeff.assign(64 * blocks.size(), 0.0);
  magnitude.assign(64 * blocks.size(), 0.0);
  size_t perRow = size_t(p.width / 8);
  for (size_t b = 0; b < blocks.size(); ++b) {
    size_t x0 = (blocks[b] % perRow) * 8, y0 = (blocks[b] / perRow) * 8;
    double rows[8][8], rowsAbs[8][8];
    for (int y = 0; y < 8; ++y)
      for (int u = 0; u < 8; ++u) {
        double s = 0, a = 0;
        for (int x = 0; x < 8; ++x) {
          double term = double(p.dctMatrix[u * 8 + x]) *
                        p.image[(y0 + y) * p.width + x0 + x];
          s += term;
          a += std::fabs(term);
        }
        rows[y][u] = s;
        rowsAbs[y][u] = a;
      }
    for (int v = 0; v < 8; ++v)
      for (int u = 0; u < 8; ++u) {
        double s = 0, a = 0;
        for (int y = 0; y < 8; ++y) {
          s += double(p.dctMatrix[v * 8 + y]) * rows[y][u];
          a += std::fabs(double(p.dctMatrix[v * 8 + y])) * rowsAbs[y][u];
        }
        coeff[64 * b + v * 8 + u] = s;
        magnitude[64 * b + v * 8 + u] = a;
      }
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<size_t> all(p.blocks());
  for (size_t b = 0; b < all.size(); ++b)
    all[b] = b;
  std::vector<double> coeff, magnitude;
  cpuReference(p, all, coeff, magnitude);
  // Independent formulation: the 2-D DCT-II by its definition with exact
  // cosines (the reference uses the fp32 matrix: differences ~1e-7).
  size_t perRow = size_t(p.width / 8);
  double worst = 0, energyIn = 0, energyOut = 0;
  for (size_t b = 0; b < all.size(); ++b) {
    size_t x0 = (b % perRow) * 8, y0 = (b / perRow) * 8;
    for (int v = 0; v < 8; ++v)
      for (int u = 0; u < 8; ++u) {
        double s = 0;
        for (int y = 0; y < 8; ++y)
          for (int x = 0; x < 8; ++x)
            s += dctEntry(v, y) * dctEntry(u, x) *
                 p.image[(y0 + y) * p.width + x0 + x];
        worst = std::max(worst, std::fabs(s - coeff[64 * b + v * 8 + u]) /
                                    magnitude[64 * b + v * 8 + u]);
        energyOut += s * s;
      }
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) {
        double pixel = p.image[(y0 + y) * p.width + x0 + x];
        energyIn += pixel * pixel;
      }
  }
  if (!(worst < 1e-6))
    return failure("definition", "differs from the DCT-II definition by " +
                                     std::to_string(worst));
  if (std::fabs(energyIn - energyOut) > 1e-9 * energyIn)
    return failure("Parseval", "energy not preserved");
  CheckResult r = success("vs definition (1e-6 of sum|terms|)", coeff.size());
  r.maxError = worst;
  r.detail = "separable fp32-matrix reference vs DCT-II definition; "
             "Parseval";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "dct8x8",
      "8x8 block DCT, 64-thread blocks with two shared-memory stages and "
      "barriers (CUDA SDK dct8x8)",
      2,
      Regularity::Regular,
      Locality::AlgorithmRelated,
      PaperCtaClustering,
      FeatureSharedMemory | FeatureBarriers,
      {"dct8x8_forward"},
      {{"width", 256, 16384, 32768, "image width (multiple of 8)"},
       {"height", 256, 12288, 16384, "image height (multiple of 8)"}},
      &create,
      &cpuSelfCheck,
      "coefficients: |gpu-ref| <= 1e-5 * sum|terms|; Default/Large: 16384 "
      "sampled blocks, all finite",
  };
  return entry;
}

} // namespace smc::workloads::dct8x8
