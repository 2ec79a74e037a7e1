//===- hotspot.cpp - hotspot: inputs, CPU reference, self-check, registry -===//
#include "hotspot.h"

#include "Check.h"
#include "Random.h"

#include <cmath>
#include <stdexcept>

namespace smc::workloads::hotspot {

namespace {

Coefficients rodiniaCoefficients() {
  // Rodinia hotspot.cu, for a 512 x 512 grid on a 16 mm x 16 mm chip.
  const double tChip = 0.0005, chipHeight = 0.016, chipWidth = 0.016;
  const double factorChip = 0.5, specHeatSi = 1.75e6, kSi = 100;
  const double maxPd = 3.0e6, precision = 0.001, ambTemp = 80.0;
  const double gridHeight = chipHeight / 512, gridWidth = chipWidth / 512;
  double cap = factorChip * specHeatSi * tChip * gridWidth * gridHeight;
  double rx = gridWidth / (2.0 * kSi * tChip * gridHeight);
  double ry = gridHeight / (2.0 * kSi * tChip * gridWidth);
  double rz = tChip / (kSi * gridHeight * gridWidth);
  double maxSlope = maxPd / (factorChip * tChip * specHeatSi);
  double step = precision / maxSlope;
  return {float(step / cap), float(1 / rx), float(1 / ry), float(1 / rz),
          float(ambTemp)};
}

} // namespace

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.rows = p.cols = int32_t(params.get("grid"));
  p.iterations = int32_t(params.get("iterations"));
  p.pyramid = int32_t(params.get("pyramid"));
  if (p.rows < 2 || p.iterations < 1 || p.pyramid < 1 || p.pyramid > 7)
    throw std::invalid_argument("hotspot: grid >= 2, iterations >= 1, "
                                "1 <= pyramid <= 7");
  p.coeff = rodiniaCoefficients();
  Rng temps(seed, 1), powers(seed, 2);
  size_t cells = size_t(p.rows) * p.cols;
  p.temp.resize(cells);
  p.power.resize(cells);
  for (float &t : p.temp)
    t = temps.uniform(320.0f, 340.0f);
  for (float &w : p.power)
    w = powers.uniform(0.0f, 0.01f);
  return p;
}

void cpuReference(const Problem &p, std::vector<double> &out,
                  int32_t iterations) {
  if (iterations < 0)
    iterations = p.iterations;
  size_t rows = size_t(p.rows), cols = size_t(p.cols);
  std::vector<double> in(p.temp.begin(), p.temp.end());
  out.resize(in.size());
  const Coefficients &c = p.coeff;
  for (int32_t it = 0; it < iterations; ++it) {
    for (size_t r = 0; r < rows; ++r)
      for (size_t q = 0; q < cols; ++q) {
        size_t at = r * cols + q;
        double t = in[at];
        double north = r > 0 ? in[at - cols] : t;
        double south = r + 1 < rows ? in[at + cols] : t;
        double west = q > 0 ? in[at - 1] : t;
        double east = q + 1 < cols ? in[at + 1] : t;
        out[at] = t + double(c.stepDivCap) * (double(p.power[at]) +
                                              (south + north - 2 * t) * c.ry1 +
                                              (east + west - 2 * t) * c.rx1 +
                                              (double(c.ambient) - t) * c.rz1);
      }
    in.swap(out);
  }
  out.swap(in);
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  // With no power and a uniform temperature T, only the ambient term acts:
  // T' = T + step/Cap (amb - T) / Rz everywhere, edges included.
  Problem uniform = p;
  for (float &t : uniform.temp)
    t = 330.0f;
  for (float &w : uniform.power)
    w = 0.0f;
  std::vector<double> out;
  cpuReference(uniform, out, 1);
  const Coefficients &c = p.coeff;
  double want =
      330.0 + double(c.stepDivCap) * (double(c.ambient) - 330.0) * c.rz1;
  for (double v : out)
    if (std::fabs(v - want) > 1e-9)
      return failure("uniform", "uniform chip does not cool uniformly");
  // The scheme is stable: the coefficient of T in the update is positive.
  double centre = 1 - double(c.stepDivCap) * (2 * c.rx1 + 2 * c.ry1 + c.rz1);
  if (centre <= 0)
    return failure("stability", "explicit scheme unstable");
  // Energy check: without power and ambient coupling the interior update
  // conserves the sum of temperatures (edges are insulated).
  Problem closed = p;
  for (float &w : closed.power)
    w = 0.0f;
  closed.coeff.rz1 = 0;
  cpuReference(closed, out, 3);
  double before = 0, after = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    before += closed.temp[i];
    after += out[i];
  }
  if (std::fabs(after - before) > 1e-9 * before)
    return failure("conservation", "heat not conserved on an insulated chip");
  CheckResult r = success("invariants", out.size());
  r.detail = "uniform chip cools uniformly; stable; insulated chip "
             "conserves heat";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "hotspot",
      "Chip temperature stencil, pyramid of steps per launch in 16x16 "
      "shared-memory tiles with barriers (Rodinia HotSpot)",
      2,
      Regularity::Regular,
      Locality::AlgorithmRelated,
      PaperCtaClustering,
      FeatureSharedMemory | FeatureBarriers | FeatureEarlyExitBeforeBarrier |
          FeatureMultiLaunch,
      {"hotspot_calculate_temp"},
      {{"grid", 500, 8192, 16384, "rows = columns"},
       {"iterations", 5, 4, 4, "time steps"},
       {"pyramid", 2, 2, 2, "time steps per launch (1..7)"}},
      &create,
      &cpuSelfCheck,
      "temperatures: |gpu-ref| <= 1e-5 * |ref| (~330 K)",
  };
  return entry;
}

} // namespace smc::workloads::hotspot
