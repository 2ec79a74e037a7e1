//===- Random.h - Deterministic random numbers for workload inputs --------===//
//
// SplitMix64, with integer and float helpers whose results are the same on
// every platform and compiler (unlike std::uniform_*_distribution), so a
// (workload, size, seed) triple always means the same input.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_RANDOM_H
#define SMC_BENCH_WORKLOADS_RANDOM_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace smc {
namespace workloads {

class Rng {
public:
  // `stream` separates independent sequences drawn from one seed (e.g. one
  // per input array), so adding an array does not change the others.
  explicit Rng(uint64_t seed, uint64_t stream = 0)
      : state(mix(seed ^ mix(stream + 0x632BE59BD9B4E019ull))) {}

  uint64_t next() {
    state += 0x9E3779B97F4A7C15ull;
    return mix(state);
  }
  uint32_t nextU32() { return static_cast<uint32_t>(next() >> 32); }
  // Uniform in [0, bound) (bound > 0), by multiply-shift.
  uint32_t below(uint32_t bound) {
    return static_cast<uint32_t>((uint64_t(nextU32()) * bound) >> 32);
  }
  // Uniform integer in [lo, hi].
  int32_t intIn(int32_t lo, int32_t hi) {
    return lo + static_cast<int32_t>(below(static_cast<uint32_t>(hi - lo) + 1));
  }
  // Uniform in [0, 1) with 24 random bits: exact in float.
  float unit() { return static_cast<float>(next() >> 40) * 0x1.0p-24f; }
  // Uniform in [lo, hi).
  float uniform(float lo, float hi) { return lo + (hi - lo) * unit(); }
  // An integer-valued float in [lo, hi]: sums of such values are exact in
  // fp32 while they stay below 2^24, which makes float kernels checkable
  // exactly.
  float intFloat(int32_t lo, int32_t hi) {
    return static_cast<float>(intIn(lo, hi));
  }
  // `n` values of intFloat(lo, hi), drawn in order.
  std::vector<float> intFloats(size_t n, int32_t lo, int32_t hi) {
    std::vector<float> values(n);
    for (float &v : values)
      v = intFloat(lo, hi);
    return values;
  }

  // A random permutation of 0..n-1 (Fisher-Yates).
  std::vector<int32_t> permutation(size_t n) {
    std::vector<int32_t> perm(n);
    for (size_t i = 0; i < n; ++i)
      perm[i] = static_cast<int32_t>(i);
    for (size_t i = n; i > 1; --i)
      std::swap(perm[i - 1], perm[below(static_cast<uint32_t>(i))]);
    return perm;
  }

private:
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t state;
};

} // namespace workloads
} // namespace smc

#endif // SMC_BENCH_WORKLOADS_RANDOM_H
