//===- Measured.h - The rule of every measured choice -----------*- C++ -*-===//
//
// The runtime chooses by measuring in three places: policy locality tries
// placements on a configuration's first launches (locality/), policy auto
// tries co-run decisions on co-runs that recur (corun/), and smc::Batch
// searches layouts of batches that recur (batch/).  Each times real
// launches with a Stopwatch (Stopwatch.h) and judges by the one rule here:
// a candidate replaces what it is measured against only when it is faster
// by more than a margin (2% unless the caller says otherwise), so that
// noise never flips a choice and the original stays unless something
// measurably beats it.  Pure C++: no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_MEASURE_MEASURED_H
#define SMC_RUNTIME_MEASURE_MEASURED_H

#include <algorithm>
#include <vector>

namespace smc {

// The margin a measured candidate must win by.
constexpr double DefaultMargin = 0.02;

// Whether a time of `Seconds` beats `BaselineSeconds` by more than `Margin`.
inline bool fasterBy(double Seconds, double BaselineSeconds,
                     double Margin = DefaultMargin) {
  return Seconds < BaselineSeconds * (1 - Margin);
}

// Whether a rate (work per second: throughput, STP) of `Rate` beats
// `BaselineRate` by more than `Margin`.
inline bool higherBy(double Rate, double BaselineRate,
                     double Margin = DefaultMargin) {
  return Rate > BaselineRate * (1 + Margin);
}

// The median of `Samples` (the mean of the middle two for an even count);
// 0 for none.
inline double median(std::vector<double> Samples) {
  if (Samples.empty())
    return 0;
  std::sort(Samples.begin(), Samples.end());
  size_t N = Samples.size();
  return N % 2 ? Samples[N / 2] : (Samples[N / 2 - 1] + Samples[N / 2]) / 2;
}

} // namespace smc

#endif // SMC_RUNTIME_MEASURE_MEASURED_H
