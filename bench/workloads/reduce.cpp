//===- reduce.cpp - reduce: inputs, CPU reference, self-check, registry ---===//
#include "reduce.h"

#include "Check.h"
#include "Random.h"

#include <numeric>
#include <stdexcept>

namespace smc::workloads::reduce {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  int64_t n = params.get("n");
  if (n < 1 || n > (int64_t(1) << 29))
    throw std::invalid_argument("reduce: need 1 <= n <= 2^29");
  Rng rng(seed, 1);
  p.values.resize(size_t(n));
  for (int32_t &v : p.values)
    v = rng.intIn(-3, 3);
  return p;
}

int64_t cpuReference(const Problem &p) {
  int64_t sum = 0;
  for (int32_t v : p.values)
    sum += v;
  return sum;
}

std::vector<int64_t> blockPartials(const Problem &p, int blocks) {
  std::vector<int64_t> partial(size_t(blocks), 0);
  size_t n = p.values.size();
  size_t gridSize = size_t(2) * kBlock * blocks;
  for (int b = 0; b < blocks; ++b)
    for (size_t base = size_t(b) * 2 * kBlock; base < n; base += gridSize)
      for (size_t t = 0; t < 2 * size_t(kBlock) && base + t < n; ++t)
        partial[b] += p.values[base + t];
  return partial;
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  int64_t sum = cpuReference(p);
  double asDouble = std::accumulate(p.values.begin(), p.values.end(), 0.0);
  if (double(sum) != asDouble)
    return failure("sum", "int64 and double sums differ");
  // The kernel's index mapping covers every element once: its block sums
  // add up to the total.
  std::vector<int64_t> partial = blockPartials(p, kPartialBlocks);
  int64_t fromPartials =
      std::accumulate(partial.begin(), partial.end(), int64_t(0));
  CheckResult r = compareExact(&fromPartials, &sum, 1, "sum of block sums");
  r.detail = "int64 vs double accumulate; block sums add up to the total";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "reduce",
      "Integer sum: grid-stride loads, shared-memory tree with barriers, "
      "warp shuffles, two launches (CUDA SDK reduction)",
      1,
      Regularity::Regular,
      Locality::Unclassified,
      PaperSmCentric,
      FeatureSharedMemory | FeatureBarriers | FeatureGridStride |
          FeatureMultiLaunch | FeatureWarpShuffle,
      {"reduce_sum"},
      {{"n", (1 << 20) + 12345, 3 << 27, 1 << 29, "elements"}},
      &create,
      &cpuSelfCheck,
      "sum exact (int32)",
  };
  return entry;
}

} // namespace smc::workloads::reduce
