//===- KerneletPredictor.h - Memoized model evaluations ---------*- C++ -*-===//
//
// What the Kernelet model's pair co-schedules (KerneletModel.cpp) and its
// planner (KerneletPlanner.cpp) share: the model's evaluations for one
// device model, memoized for one planner call, and the feasible and the
// balanced splits of an SM between two kernels.  Internal to
// smc_kernelet_model.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_KERNELETPREDICTOR_H
#define SMC_BENCH_KERNELETPREDICTOR_H

#include "KerneletModel.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <tuple>

namespace smc::kernelet {

inline constexpr double Inf = std::numeric_limits<double>::infinity();

// Memoized model evaluations for one device model (one planner call).
class Predictor {
public:
  explicit Predictor(const DeviceModel &M) : M(M), ModelOk(checkModel(M)) {}

  const DeviceModel M;
  const bool ModelOk;

  double solo(double Rm, unsigned W) { return pair(Rm, W, 0, 0).First; }
  PairIpc pair(double RmA, unsigned WA, double RmB, unsigned WB) {
    auto Key = std::make_tuple(RmA, WA, RmB, WB);
    auto It = Pairs.find(Key);
    if (It == Pairs.end())
      It = Pairs.emplace(Key, pairIpc(M, RmA, WA, RmB, WB)).first;
    return It->second;
  }

  unsigned warps(const KernelTraits &T, unsigned CtasPerSm) const {
    uint64_t W = uint64_t(CtasPerSm) * T.WarpsPerCta;
    return warpsPerScheduler(M, unsigned(std::min<uint64_t>(W, UINT32_MAX)));
  }
  // CTAs per SM of the launch alone, and of a slice of Slice CTAs.
  unsigned aloneCtasPerSm(const KernelTraits &T) const {
    return sliceCtasPerSm(T, T.Ctas);
  }
  unsigned sliceCtasPerSm(const KernelTraits &T, unsigned Slice) const {
    unsigned Sms = std::max(M.NumSms, 1u);
    unsigned C = unsigned((uint64_t(Slice) + Sms - 1) / Sms);
    return std::max(1u, std::min(C, T.CtasPerSm));
  }
  double aloneIpc(const KernelTraits &T) {
    return solo(T.MemRatio, warps(T, aloneCtasPerSm(T)));
  }
  // CTAs per second of T alone in slices of Slice CTAs (Whole: the launch
  // as measured).
  double soloRate(const KernelTraits &T, unsigned Slice, bool Whole) {
    unsigned C = sliceCtasPerSm(T, Slice);
    if (Whole || C >= aloneCtasPerSm(T))
      return aloneRate(T);
    return aloneRate(T) * solo(T.MemRatio, warps(T, C)) / aloneIpc(T);
  }
  static double aloneRate(const KernelTraits &T) {
    return T.AloneSeconds > 0 && std::isfinite(T.AloneSeconds)
               ? T.Ctas / T.AloneSeconds
               : Inf;
  }

private:
  std::map<std::tuple<double, unsigned, double, unsigned>, PairIpc> Pairs;
};

// pairOptions() with P's memoized chains.
std::vector<PairChoice> options(Predictor &P, const KernelTraits &A,
                                const KernelTraits &B);

// choosePair() of Options: the one of least sliceImbalance; of those
// within 0.05 of the least, the one of highest profit.
std::optional<PairChoice> balanced(const DeviceModel &M,
                                   const std::vector<PairChoice> &Options);

} // namespace smc::kernelet

#endif // SMC_BENCH_KERNELETPREDICTOR_H
