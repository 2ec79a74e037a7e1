//===- KerneletOptions.h - smc_kernelet_bench's mixes, options --*- C++ -*-===//
//
// The mixes of four workloads of the Kernelet paper's set that
// smc_kernelet_bench (kernelet.cu, which describes the run and its USAGE)
// measures, and its command line.  No CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_KERNELET_KERNELETOPTIONS_H
#define SMC_BENCH_KERNELET_KERNELETOPTIONS_H

#include <string>

namespace smc::kernelet {

inline constexpr const char *MixNames[][4] = {
    {"bs", "mm", "mriq", "pc"},    {"sad", "spmv", "st", "tea"},
    {"bs", "sad", "mm", "spmv"},   {"mriq", "st", "pc", "tea"},
    {"bs", "spmv", "mriq", "tea"}, {"mm", "st", "pc", "sad"},
    {"bs", "st", "mm", "tea"},     {"mriq", "spmv", "pc", "sad"}};
constexpr unsigned NumMixes = sizeof(MixNames) / sizeof(MixNames[0]);
constexpr unsigned NumStreams = 4;

struct Options {
  std::string Profile, Json;
  unsigned Rounds = 5;
  unsigned SearchRuns = 210;
  unsigned AutoRuns = 64;
  unsigned OracleSplits = 3;
  unsigned Mixes = NumMixes;
  unsigned FirstMix = 0;
  bool Oracle = true;
  bool Combined = false;
  bool ProfileRun = false;
  unsigned ProfileRepeats = 6;
};

// The options of Argv; throws std::runtime_error on an unknown option or a
// missing value.
Options parseOptions(int Argc, char **Argv);

} // namespace smc::kernelet

#endif // SMC_BENCH_KERNELET_KERNELETOPTIONS_H
