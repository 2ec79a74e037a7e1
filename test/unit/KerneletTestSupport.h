//===- KerneletTestSupport.h - Kernels of the Kernelet tests ----*- C++ -*-===//
//
// The device model and kernel traits the tests of the Kernelet model
// (KerneletIpcTest, KerneletScheduleTest) build from: an H100's SMs with
// slices that cost nothing to launch, and kernels of ten full waves bound by
// computation or by memory.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_UNIT_KERNELETTESTSUPPORT_H
#define SMC_TEST_UNIT_KERNELETTESTSUPPORT_H

#include "KerneletModel.h"

#include <string>

namespace smc::test {

using kernelet::DeviceModel;
using kernelet::KernelTraits;

constexpr unsigned H100Sms = 132;
constexpr unsigned FullGrid = H100Sms * 8 * 10; // ten full waves

// Slices cost nothing to launch here, so that the tests see the model's
// own choices; KerneletPlan.MinimumSlices tests the slicing-cost rule.
inline DeviceModel h100() {
  DeviceModel M;
  M.SliceLaunchSeconds = 0;
  return M;
}

inline KernelTraits kernel(const std::string &Name, double MemRatio,
                           unsigned Ctas = FullGrid, double Seconds = 1e-3) {
  KernelTraits T;
  T.Name = Name;
  T.Ctas = Ctas;
  T.WarpsPerCta = 8;
  T.CtasPerSm = 8;
  T.MemRatio = MemRatio;
  T.AloneSeconds = Seconds;
  return T;
}

inline KernelTraits compute(unsigned Ctas = FullGrid, double Seconds = 1e-3) {
  return kernel("compute", 0.01, Ctas, Seconds);
}
inline KernelTraits memory(unsigned Ctas = FullGrid, double Seconds = 1e-3) {
  return kernel("memory", 0.3, Ctas, Seconds);
}

} // namespace smc::test

#endif // SMC_TEST_UNIT_KERNELETTESTSUPPORT_H
