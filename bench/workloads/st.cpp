//===- st.cpp - st: inputs, CPU reference, self-check, registry -----------===//
#include "st.h"

#include "Check.h"
#include "Random.h"

#include <stdexcept>

namespace smc::workloads::st {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.nx = int32_t(params.get("nx"));
  p.ny = int32_t(params.get("ny"));
  p.nz = int32_t(params.get("nz"));
  p.steps = int32_t(params.get("steps"));
  if (p.nx < 3 || p.ny < 3 || p.nz < 3 || p.steps < 1 || p.steps > 4)
    throw std::invalid_argument(
        "st: nx, ny, nz >= 3 and 1 <= steps <= 4 (exactness bound)");
  Rng rng(seed, 1);
  p.grid.resize(size_t(p.nx) * p.ny * p.nz);
  for (float &v : p.grid)
    v = rng.intFloat(-64, 64);
  return p;
}

void cpuReference(const Problem &p, std::vector<double> &out, int32_t steps) {
  if (steps < 0)
    steps = p.steps;
  size_t nx = size_t(p.nx), ny = size_t(p.ny), nz = size_t(p.nz);
  size_t plane = nx * ny;
  std::vector<double> in(p.grid.begin(), p.grid.end());
  out = in;
  for (int32_t s = 0; s < steps; ++s) {
    for (size_t k = 1; k + 1 < nz; ++k)
      for (size_t j = 1; j + 1 < ny; ++j)
        for (size_t i = 1; i + 1 < nx; ++i) {
          size_t at = k * plane + j * nx + i;
          out[at] =
              double(kC0) * in[at] +
              double(kC1) * (in[at - 1] + in[at + 1] + in[at - nx] +
                             in[at + nx] + in[at - plane] + in[at + plane]);
        }
    in.swap(out);
  }
  out.swap(in);
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<double> out;
  cpuReference(p, out, 4);
  // After 4 steps every value is a multiple of 2^-16 of magnitude <= 64 and
  // so exact in fp32; the sweep is linear: the grid of all ones maps to
  // c0 + 6 c1 inside.
  for (double v : out) {
    double scaled = v * 65536.0;
    if (scaled != double(int64_t(scaled)) || v > 64 || v < -64)
      return failure("exact", "value not a short dyadic fraction");
  }
  Problem ones = p;
  for (float &v : ones.grid)
    v = 1.0f;
  std::vector<double> flat;
  cpuReference(ones, flat, 1);
  size_t nx = size_t(p.nx), plane = nx * size_t(p.ny);
  size_t inside = plane * 2 + nx * 2 + 2; // (2, 2, 2)
  if (flat[inside] != double(kC0) + 6 * double(kC1) || flat[0] != 1.0)
    return failure("linear", "constant grid not mapped to c0 + 6 c1");
  CheckResult r = success("invariants", out.size());
  r.detail = "4 sweeps stay exact dyadic fractions in [-64, 64]; constant "
             "grid maps to c0 + 6 c1, boundary kept";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "st",
      "7-point 3-D stencil, 2-D grid of tiles sweeping z with shared-memory "
      "planes and barriers, one launch per step (Parboil stencil)",
      2,
      Regularity::Regular,
      Locality::Unclassified,
      PaperKernelet,
      FeatureSharedMemory | FeatureBarriers | FeatureEarlyExitBeforeBarrier |
          FeatureMultiLaunch,
      {"stencil7_sweep"},
      {{"nx", 70, 512, 768, "grid x"},
       {"ny", 45, 512, 768, "grid y"},
       {"nz", 20, 384, 512, "grid z"},
       {"steps", 2, 2, 2, "sweeps (1..4)"}},
      &create,
      &cpuSelfCheck,
      "grid after the sweeps exact (dyadic fp32 values)",
  };
  return entry;
}

} // namespace smc::workloads::st
