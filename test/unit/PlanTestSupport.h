//===- PlanTestSupport.h - Devices and grids for plan tests -----*- C++ -*-===//
//
// The device facts and grid sizes the launch-plan tests (QueuePlanTest,
// QueuePlanShapesTest, QueuePlanSliceTest, ChunkClustersTest) build their
// plans from.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_UNIT_PLANTESTSUPPORT_H
#define SMC_TEST_UNIT_PLANTESTSUPPORT_H

#include "plan/QueuePlan.h"

#include <cstdint>

namespace smc::test {

// A device of NumSMs SMs on which Fit CTAs of the variant and Occ of the
// original fit per SM.
inline DeviceFacts device(unsigned NumSMs, unsigned Fit = 8, unsigned Occ = 4) {
  DeviceFacts D;
  D.NumSMs = NumSMs;
  D.VariantFitPerSm = Fit;
  D.OriginalOccupancy = Occ;
  return D;
}

inline GridSize grid(uint32_t X, uint32_t Y = 1, uint32_t Z = 1) {
  GridSize G;
  G.X = X;
  G.Y = Y;
  G.Z = Z;
  return G;
}

} // namespace smc::test

#endif // SMC_TEST_UNIT_PLANTESTSUPPORT_H
