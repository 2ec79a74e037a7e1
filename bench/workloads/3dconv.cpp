//===- 3dconv.cpp - 3dconv: inputs, CPU reference, self-check, registry ---===//
#include "3dconv.h"

#include "Check.h"
#include "Random.h"

#include <stdexcept>

namespace smc::workloads::conv3d {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.ni = int32_t(params.get("ni"));
  p.nj = int32_t(params.get("nj"));
  p.nk = int32_t(params.get("nk"));
  if (p.ni < 3 || p.nj < 3 || p.nk < 3 || p.ni > 65535)
    throw std::invalid_argument("3dconv: 3 <= ni <= 65535, nj, nk >= 3");
  Rng rng(seed, 1);
  p.a.resize(size_t(p.ni) * p.nj * p.nk);
  for (float &v : p.a)
    v = rng.intFloat(-8, 8);
  return p;
}

void cpuReferenceRows(const Problem &p, const std::vector<size_t> &rows,
                      std::vector<double> &out) {
  size_t nj = size_t(p.nj), nk = size_t(p.nk);
  size_t plane = nj * nk;
  out.assign(rows.size() * nk, 0.0);
  for (size_t r = 0; r < rows.size(); ++r) {
    size_t i = rows[r] / nj, j = rows[r] % nj;
    if (i == 0 || j == 0 || i + 1 == size_t(p.ni) || j + 1 == nj)
      continue;
    for (size_t k = 1; k + 1 < nk; ++k) {
      size_t at = i * plane + j * nk + k;
      double sum = 0;
      for (int di = -1; di <= 1; ++di)
        for (int dj = -1; dj <= 1; ++dj)
          for (int dk = -1; dk <= 1; ++dk)
            sum += double(kCoeff[(dj + 1) * 3 + dk + 1] + di) *
                   p.a[at + di * ptrdiff_t(plane) + dj * ptrdiff_t(nk) + dk];
      out[r * nk + k] = sum;
    }
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  size_t ni = size_t(p.ni), nj = size_t(p.nj), nk = size_t(p.nk);
  std::vector<size_t> rows(ni * nj);
  for (size_t r = 0; r < rows.size(); ++r)
    rows[r] = r;
  std::vector<double> out;
  cpuReferenceRows(p, rows, out);
  if (!allExactInFloat(out.data(), out.size()))
    return failure("exact", "reference not exact in fp32");
  // Independent formulation: accumulate the 27 shifted copies of the volume,
  // offset-outer.
  std::vector<double> want(out.size(), 0.0);
  for (int di = -1; di <= 1; ++di)
    for (int dj = -1; dj <= 1; ++dj)
      for (int dk = -1; dk <= 1; ++dk) {
        double w = kCoeff[(dj + 1) * 3 + dk + 1] + di;
        for (size_t i = 1; i + 1 < ni; ++i)
          for (size_t j = 1; j + 1 < nj; ++j)
            for (size_t k = 1; k + 1 < nk; ++k)
              want[(i * nj + j) * nk + k] +=
                  w * p.a[((i + di) * nj + (j + dj)) * nk + (k + dk)];
      }
  CheckResult r = compareExact(out, want, "B");
  r.detail = "point-wise reference vs sum of 27 shifted volumes";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "3dconv",
      "3x3x3 convolution, one thread per point on a 3-D grid (PolyBench/GPU "
      "3DCONV)",
      3,
      Regularity::Regular,
      Locality::CacheLineRelated,
      PaperCtaClustering,
      0,
      {"conv3d_kernel"},
      {{"ni", 20, 640, 1024, "planes (grid z, <= 65535)"},
       {"nj", 40, 512, 768, "rows per plane"},
       {"nk", 70, 512, 512, "points per row"}},
      &create,
      &cpuSelfCheck,
      "output exact (integer-valued fp32); Default/Large: 4096 sampled rows, "
      "all finite",
  };
  return entry;
}

} // namespace smc::workloads::conv3d
