//===- QueuePlanSliceTest.cpp - Tests of slice launch plans ---------------===//
//
// Slice plans cover the grid exactly once; slices of whole rows launch in
// the grid's shape, and every slice launch runs each chunk once.
//===----------------------------------------------------------------------===//
#include "PlanTestSupport.h"
#include "QueuePlanChecks.h"
#include "plan/QueuePlan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

using namespace smc;
using namespace smc::test;

TEST(QueuePlan, SlicesCoverTheGridOnce) {
  for (uint32_t N : {1u, 9u, 10u, 64u, 1001u}) {
    for (unsigned Size : {0u, 1u, 3u, 10u, 64u, 5000u}) {
      SCOPED_TRACE("n=" + std::to_string(N) + " size=" + std::to_string(Size));
      QueuePlan Plan =
          planOk(Policy::slice(Size), bothVariants(), device(4), grid(N));
      EXPECT_EQ(Plan.Variant, Variant::Slice);
      uint32_t ExpectedSize = Size == 0 ? N : std::min<uint32_t>(Size, N);
      EXPECT_EQ(Plan.SliceSize, ExpectedSize);
      std::vector<int> Covered(N, 0);
      uint32_t Next = 0;
      for (uint32_t I = 0; I < Plan.numSlices(); ++I) {
        uint32_t Off = Plan.sliceOffset(I), Count = Plan.sliceCount(I);
        EXPECT_EQ(Off, Next);
        EXPECT_GE(Count, 1u);
        EXPECT_LE(Count, ExpectedSize);
        for (uint32_t C = Off; C < Off + Count && C < N; ++C)
          ++Covered[C];
        Next = Off + Count;
      }
      EXPECT_EQ(Next, N);
      for (uint32_t C = 0; C < N; ++C)
        EXPECT_EQ(Covered[C], 1) << "chunk " << C;
    }
  }
  QueuePlan Plan =
      planOk(Policy::slice(3), bothVariants(), device(4), grid(5, 2));
  EXPECT_EQ(Plan.numSlices(), 4u);
  EXPECT_EQ(Plan.sliceCount(3), 1u);
}

// The chunks a slice launch runs, as the variant computes them from its
// launch grid (SliceVariant.cpp): with c = slice_offset + ctaid.x, blockIdx
// (c, ctaid.y + slice_first_y, ctaid.z + slice_first_z) while c is in the
// first row, else c decomposed with the original grid.
std::vector<uint32_t> sliceChunks(const QueuePlan &Plan, uint32_t I) {
  SliceLaunch L = Plan.sliceLaunch(I);
  std::vector<uint32_t> Chunks;
  uint32_t X = Plan.Grid.X, Y = Plan.Grid.Y;
  for (uint32_t Z = 0; Z < L.Z; ++Z)
    for (uint32_t Yi = 0; Yi < L.Y; ++Yi)
      for (uint32_t Xi = 0; Xi < L.X; ++Xi) {
        uint32_t C = L.Offset + Xi;
        uint32_t Bx = C, By = Yi + L.FirstY, Bz = Z + L.FirstZ;
        if (C >= X)
          Bx = C % X, By = C / X % Y, Bz = C / X / Y;
        Chunks.push_back(Bx + By * X + Bz * X * Y);
      }
  return Chunks;
}

TEST(QueuePlan, SlicesOfWholeRowsLaunchAsTheGridsShape) {
  // 2-D, 10 x 8: the whole grid; two rows from row 2; one row (1-D: a
  // row-shaped launch needs gridDim.y above 1); the last slice's two rows.
  QueuePlan Plan =
      planOk(Policy::slice(0), bothVariants(), device(4), grid(10, 8));
  SliceLaunch L = Plan.sliceLaunch(0);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.FirstY, L.FirstZ),
            std::make_tuple(10u, 8u, 1u, 0u, 0u));
  Plan = planOk(Policy::slice(20), bothVariants(), device(4), grid(10, 8));
  L = Plan.sliceLaunch(1);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.FirstY, L.FirstZ),
            std::make_tuple(10u, 2u, 1u, 2u, 0u));
  Plan = planOk(Policy::slice(10), bothVariants(), device(4), grid(10, 8));
  L = Plan.sliceLaunch(3);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.Offset),
            std::make_tuple(10u, 1u, 1u, 30u));
  Plan = planOk(Policy::slice(30), bothVariants(), device(4), grid(10, 8));
  L = Plan.sliceLaunch(2);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.FirstY),
            std::make_tuple(10u, 2u, 1u, 6u));
  // 3-D, 4 x 3 x 5: the whole grid as whole planes; two planes from plane 2;
  // two rows that would cross a plane run 1-D.
  Plan = planOk(Policy::slice(0), bothVariants(), device(4), grid(4, 3, 5));
  L = Plan.sliceLaunch(0);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.FirstY, L.FirstZ),
            std::make_tuple(4u, 3u, 5u, 0u, 0u));
  Plan = planOk(Policy::slice(24), bothVariants(), device(4), grid(4, 3, 5));
  L = Plan.sliceLaunch(1);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.FirstY, L.FirstZ),
            std::make_tuple(4u, 3u, 2u, 0u, 2u));
  Plan = planOk(Policy::slice(8), bothVariants(), device(4), grid(4, 3, 5));
  L = Plan.sliceLaunch(1); // rows 2 and 3: y = 2 of plane 0, y = 0 of plane 1
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.Offset), std::make_tuple(8u, 1u, 1u, 8u));
  // 1-D grids: always 1-D.
  Plan = planOk(Policy::slice(0), bothVariants(), device(4), grid(1000));
  L = Plan.sliceLaunch(0);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z), std::make_tuple(1000u, 1u, 1u));
}

TEST(QueuePlan, SliceLaunchesRunEveryChunkOnce) {
  for (GridSize G : {grid(7), grid(10, 8), grid(1, 9), grid(4, 3, 5),
                     grid(5, 1, 6), grid(3, 4, 1), grid(2, 2, 7)}) {
    uint32_t N = G.X * G.Y * G.Z;
    for (unsigned Size = 0; Size <= N + 1; ++Size) {
      SCOPED_TRACE("grid " + std::to_string(G.X) + "x" + std::to_string(G.Y) +
                   "x" + std::to_string(G.Z) + " size " + std::to_string(Size));
      QueuePlan Plan =
          planOk(Policy::slice(Size), bothVariants(), device(4), G);
      std::vector<int> Covered(N, 0);
      for (uint32_t I = 0; I < Plan.numSlices(); ++I) {
        SliceLaunch L = Plan.sliceLaunch(I);
        EXPECT_LE(L.Y, G.Y);
        EXPECT_LE(L.Z, G.Z);
        // The variant adds both: whole rows have no offset, a 1-D slice no
        // first row or plane.
        if (L.Y != 1 || L.Z != 1)
          EXPECT_EQ(L.Offset, 0u);
        else
          EXPECT_EQ(L.FirstY + L.FirstZ, 0u);
        for (uint32_t C : sliceChunks(Plan, I)) {
          ASSERT_LT(C, N);
          ++Covered[C];
        }
      }
      for (uint32_t C = 0; C < N; ++C)
        ASSERT_EQ(Covered[C], 1) << "chunk " << C;
    }
  }
}
