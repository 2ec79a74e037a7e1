//===- CorpusTimings.h - Timings of the library-code corpus -----*- C++ -*-===//
//
// The timings smc_corpus_tests measures for each program under each policy
// (the library call alone and while a co-running kernel holds half of the
// SMs), collected while the tests run and written as JSON at exit when
// SMC_CORPUS_JSON=<file> is set.  Plain C++, so that the JSON writer
// (CorpusJson.cpp) is compiled without CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_GPU_CORPUS_CORPUSTIMINGS_H
#define SMC_TEST_GPU_CORPUS_CORPUSTIMINGS_H

#include <string>
#include <vector>

namespace corpus {

/// One program under one policy.  Times are in milliseconds (CUDA events).
struct TimingRecord {
  std::string Program;
  std::string Policy;
  std::vector<double> AloneSamplesMs; ///< The timed runs after the warm-up.
  double AloneMs = 0;                 ///< Median of AloneSamplesMs.
  double CorunMs = 0; ///< The call while the co-runner held half the SMs.
  bool CorunFinishedFirst = false; ///< The call ended before the co-runner.
};

/// Adds \p Record to the process-wide list (thread-safe).
void recordTiming(const TimingRecord &Record);

/// Writes every recorded timing to \p Path as JSON:
///   {"device": ..., "results": [{"program", "policy", "alone_ms",
///    "alone_samples_ms", "corun_ms", "ratio", "corun_finished_first"}]}
/// Returns false and sets \p Error when the file cannot be written.
bool writeTimingsJson(const std::string &Path, const std::string &Device,
                      std::string &Error);

} // namespace corpus

#endif // SMC_TEST_GPU_CORPUS_CORPUSTIMINGS_H
