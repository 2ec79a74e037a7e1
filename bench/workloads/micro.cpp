//===- micro.cpp - SMC's own workloads: inputs, references, registry ------===//
#include "micro.h"

#include "Check.h"
#include "Random.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace smc::workloads {
namespace {

// n uniform floats in [-1, 1) from stream `stream` of `seed`.
std::vector<float> uniformFloats(size_t n, uint64_t seed, uint64_t stream) {
  Rng rng(seed, stream);
  std::vector<float> v(n);
  for (float &x : v)
    x = rng.uniform(-1.0f, 1.0f);
  return v;
}

size_t elements(const Params &params, int64_t max, const char *workload) {
  int64_t n = params.get("n");
  if (n < 1 || n > max)
    throw std::invalid_argument(std::string(workload) + ": n out of range");
  return size_t(n);
}

} // namespace

//===--- vecadd -----------------------------------------------------------===//

namespace vecadd {

Problem generate(const Params &params, uint64_t seed) {
  size_t n = elements(params, int64_t(1) << 30, "vecadd");
  return {uniformFloats(n, seed, 1), uniformFloats(n, seed, 2)};
}

std::vector<float> cpuReference(const Problem &p) {
  std::vector<float> c(p.a.size());
  for (size_t i = 0; i < c.size(); ++i)
    c[i] = p.a[i] + p.b[i];
  return c;
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<float> c = cpuReference(p);
  // The double sum of two 24-bit values is exact; rounded to fp32 it must
  // be the fp32 sum.
  std::vector<float> want(c.size());
  for (size_t i = 0; i < c.size(); ++i)
    want[i] = float(double(p.a[i]) + double(p.b[i]));
  CheckResult r = compareExact(c, want, "c");
  r.detail = "fp32 sum vs exact double sum rounded to fp32";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "vecadd",
      "1-D vector add, memory bound (smc_bench's vecAdd)",
      1,
      Regularity::Regular,
      Locality::Unclassified,
      0,
      0,
      {"benchVecAdd"},
      {{"n", 1 << 20, 1 << 28, 1 << 29, "elements"}},
      &create,
      &cpuSelfCheck,
      "c exact",
  };
  return entry;
}

} // namespace vecadd

//===--- matmul -----------------------------------------------------------===//

namespace matmul {

mm::Problem generate(const Params &params, uint64_t seed) {
  int64_t n = params.get("n");
  if (n < kTile || n % kTile || n > 1 << 15)
    throw std::invalid_argument("matmul: n must be a multiple of 32");
  Params square;
  for (const char *name : {"m", "n", "k"})
    square.set(name, n);
  return mm::generate(square, seed);
}

CheckResult cpuSelfCheck(uint64_t seed) {
  mm::Problem p = generate(info().params(Size::Small), seed);
  size_t n = size_t(p.n);
  std::vector<size_t> rows(n);
  for (size_t i = 0; i < n; ++i)
    rows[i] = i;
  std::vector<double> c;
  mm::cpuReferenceRows(p, rows, c);
  if (!allExactInFloat(c.data(), c.size()))
    return failure("exact", "reference not exact in fp32");
  // Independent formulation of the row sums: C 1 = A (B 1).
  std::vector<double> bRowSums(n, 0.0), got(n, 0.0), want(n, 0.0);
  for (size_t k = 0; k < n; ++k)
    for (size_t j = 0; j < n; ++j)
      bRowSums[k] += p.b[k * n + j];
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < n; ++k) {
      got[i] += c[i * n + k];
      want[i] += double(p.a[i * n + k]) * bRowSums[k];
    }
  CheckResult r = compareExact(got, want, "row sum of C");
  r.detail = "row sums of C vs A (B 1)";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "matmul",
      "Square fp32 matrix multiply, 32x32 shared-memory tiles with barriers "
      "(smc_bench's matMul)",
      2,
      Regularity::Regular,
      Locality::Unclassified,
      0,
      FeatureSharedMemory | FeatureBarriers,
      {"benchMatMul"},
      {{"n", 256, 2048, 4096, "rows = columns (multiple of 32)"}},
      &create,
      &cpuSelfCheck,
      "C exact (integer-valued fp32); Default/Large: 128 sampled rows, all "
      "entries finite",
  };
  return entry;
}

} // namespace matmul

//===--- treesum ----------------------------------------------------------===//

namespace treesum {

Problem generate(const Params &params, uint64_t seed) {
  size_t n = elements(params, int64_t(1) << 30, "treesum");
  Rng rng(seed, 1);
  Problem p;
  p.values.resize(n);
  for (float &v : p.values)
    v = rng.intFloat(-1, 1);
  return p;
}

std::vector<double> cpuPartials(const Problem &p) {
  std::vector<double> partial(p.blocks(), 0.0);
  for (size_t i = 0; i < p.values.size(); ++i)
    partial[i / kPerBlock] += p.values[i];
  return partial;
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<double> partial = cpuPartials(p);
  if (!allExactInFloat(partial.data(), partial.size()))
    return failure("exact", "partials not exact in fp32");
  int64_t total = 0, fromPartials = 0;
  for (float v : p.values)
    total += int64_t(v);
  for (double v : partial)
    fromPartials += int64_t(v);
  CheckResult r = compareExact(&fromPartials, &total, 1, "sum of partials");
  r.detail = "partials integer, below 2^24, adding up to the int64 sum";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "treesum",
      "fp32 sum: 4 loads per thread, shared-memory tree with barriers per "
      "CTA, partials written and atomicAdd-ed (smc_bench's reduce)",
      1,
      Regularity::Regular,
      Locality::Unclassified,
      0,
      FeatureSharedMemory | FeatureBarriers | FeatureAtomics,
      {"benchReduce"},
      {{"n", (1 << 20) + 777, 1 << 29, 1 << 30, "elements"}},
      &create,
      &cpuSelfCheck,
      "partials exact (integer-valued fp32); total exact while the sum of "
      "|partials| < 2^24, else within the atomics' rounding",
  };
  return entry;
}

} // namespace treesum

//===--- stencil9 ---------------------------------------------------------===//

namespace stencil9 {

Problem generate(const Params &params, uint64_t seed) {
  size_t n = elements(params, (int64_t(1) << 31) - kBlock, "stencil9");
  if (n % kBlock != 0 && n % kBlock < kRadius)
    throw std::invalid_argument(
        "stencil9: the last CTA needs at least 4 threads");
  return {uniformFloats(n, seed, 1)};
}

std::vector<float> cpuReferenceAt(const Problem &p,
                                  const std::vector<size_t> &at) {
  const float weight = 1.0f / (2 * kRadius + 1);
  int64_t n = int64_t(p.in.size());
  std::vector<float> out(at.size());
  for (size_t s = 0; s < at.size(); ++s) {
    int64_t i = int64_t(at[s]);
    float acc = 0.0f;
    for (int k = -kRadius; k <= kRadius; ++k)
      if (i + k >= 0 && i + k < n)
        acc = std::fma(weight, p.in[size_t(i + k)], acc);
    out[s] = acc;
  }
  return out;
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  size_t n = p.in.size();
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<float> out = cpuReferenceAt(p, all);
  // Against the 9-point mean in double, within fp32's rounding of 9 steps.
  std::vector<double> want(n, 0.0), magnitude(n, 0.0);
  for (size_t i = 0; i < n; ++i)
    for (int64_t j = std::max<int64_t>(0, int64_t(i) - kRadius);
         j <= std::min<int64_t>(int64_t(n) - 1, int64_t(i) + kRadius); ++j) {
      want[i] += p.in[size_t(j)] / double(2 * kRadius + 1);
      magnitude[i] += std::fabs(p.in[size_t(j)]) / double(2 * kRadius + 1);
    }
  CheckResult r = compareScaled(out.data(), want.data(), magnitude.data(), n,
                                1e-6, 0, "|cpu-double|/sum|terms|", "out");
  r.detail = "fmaf chain vs double 9-point mean";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "stencil9",
      "1-D 9-point stencil in shared memory, divergent return before the "
      "barrier (smc_bench's stencil)",
      1,
      Regularity::Regular,
      Locality::Unclassified,
      0,
      FeatureSharedMemory | FeatureBarriers | FeatureEarlyExitBeforeBarrier,
      {"benchStencil"},
      {{"n", (1 << 20) - 100, (1 << 28) - 100, (1 << 29) - 100,
        "elements (not a multiple of 256)"}},
      &create,
      &cpuSelfCheck,
      "out exact (the kernel's fmaf chain); Default/Large: 2^20 sampled "
      "elements, all finite",
  };
  return entry;
}

} // namespace stencil9

//===--- gather -----------------------------------------------------------===//

namespace gather {

Problem generate(const Params &params, uint64_t seed) {
  size_t n = elements(params, int64_t(1) << 30, "gather");
  Problem p;
  p.in = uniformFloats(n, seed, 1);
  Rng rng(seed, 2);
  p.idx.resize(n);
  for (uint32_t &i : p.idx)
    i = rng.below(uint32_t(n));
  return p;
}

std::vector<float> cpuReference(const Problem &p) {
  std::vector<float> out(p.idx.size());
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = p.in[p.idx[i]];
  return out;
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  size_t n = p.in.size();
  std::vector<float> out = cpuReference(p);
  // Independent formulation of the sum of the output: each input times the
  // number of times it is gathered (exact in double: 24-bit values).
  std::vector<uint32_t> times(n, 0);
  for (uint32_t i : p.idx) {
    if (i >= n)
      return failure("in range", "index out of range");
    ++times[i];
  }
  double got = 0, want = 0;
  for (size_t i = 0; i < n; ++i) {
    got += out[i];
    want += double(p.in[i]) * times[i];
  }
  CheckResult r = compareExact(&got, &want, 1, "sum of out");
  r.detail = "sum of out vs inputs weighted by how often they are gathered";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "gather",
      "out[i] = in[idx[i]] with uniformly random idx (smc_bench's gather)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      0,
      FeatureIndexArrays,
      {"benchGather"},
      {{"n", 1 << 20, 1 << 26, 1 << 28, "elements"}},
      &create,
      &cpuSelfCheck,
      "out exact",
  };
  return entry;
}

} // namespace gather

} // namespace smc::workloads
