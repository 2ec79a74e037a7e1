//===- bs.h - bs: Black-Scholes option pricing (Kernelet, CTA-Clustering) -===//
//
// The CUDA SDK BlackScholes: European call and put prices for every option
// (stock price S, strike X, years T; riskless rate 0.02, volatility 0.30),
// with the SDK's polynomial approximation of the normal CDF.  A fixed grid
// of 1024 blocks of 256 threads walks the options with a grid-stride loop.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_BS_H
#define SMC_BENCH_WORKLOADS_BS_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::bs {

constexpr float kRiskFree = 0.02f, kVolatility = 0.30f;

struct Problem {
  std::vector<float> stock, strike, years;
  size_t options() const { return stock.size(); }
};

Problem generate(const Params &params, uint64_t seed);
// Call and put prices of the options `options`, in double.
void cpuReference(const Problem &problem, const std::vector<size_t> &options,
                  std::vector<double> &call, std::vector<double> &put);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // bs.cu

} // namespace smc::workloads::bs

#endif // SMC_BENCH_WORKLOADS_BS_H
