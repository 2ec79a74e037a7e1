//===- ChunkClustersTest.cpp - Tests of the cluster chunk order -----------===//
//
// Plans with order=cluster(x|y|tile[,N]) hold every chunk exactly once, in
// queues of the SM set only; each queue is whole clusters of neighbouring
// chunks, one after the other, each in linear order; clusters are dealt
// round robin while whole and keep the SMs' chunk counts within one
// cluster; the default size is the per-SM target; tile shapes are chosen
// as documented; contradictory shapes are refused with a reason.
//===----------------------------------------------------------------------===//
#include "plan/ChunkClusters.h"
#include "PlanTestSupport.h"
#include "plan/QueuePlan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

using namespace smc;
using smc::test::device;
using smc::test::grid;

namespace {

KernelFacts smcKernel() {
  KernelFacts K;
  K.HasSmc = true;
  return K;
}

QueuePlan planOk(const Policy &Policy, const DeviceFacts &Dev, GridSize G,
                 const KernelFacts &Kernel = smcKernel()) {
  QueuePlan Plan;
  std::string Reason;
  EXPECT_TRUE(makeQueuePlan(Policy, Kernel, Dev, G, Plan, Reason)) << Reason;
  return Plan;
}

std::string planError(const Policy &Policy, const DeviceFacts &Dev,
                      GridSize G) {
  QueuePlan Plan;
  std::string Reason;
  EXPECT_FALSE(makeQueuePlan(Policy, smcKernel(), Dev, G, Plan, Reason));
  EXPECT_EQ(Plan.Variant, Variant::Original);
  return Reason;
}

// Queue `Slot` of the plan.
std::vector<uint32_t> queueOf(const QueuePlan &Plan, uint32_t Slot) {
  return std::vector<uint32_t>(Plan.QueueChunks.begin() + Plan.QueueStart[Slot],
                               Plan.QueueChunks.begin() +
                                   Plan.QueueStart[Slot + 1]);
}

// Checks, independently of ChunkClusters.cpp, every property the cluster
// order promises for a plan of grid `G` with clusters of `Extent` over the
// SMs `Set` (in set order).
void expectClusterPlan(const QueuePlan &Plan, GridSize G, ClusterExtent Extent,
                       const std::vector<uint32_t> &Set) {
  uint32_t N = G.X * G.Y * G.Z;
  ASSERT_EQ(Plan.Variant, Variant::SMCentric);
  ASSERT_EQ(Plan.NumChunks, N);
  ASSERT_EQ(Plan.QueueStart.size(), Plan.NumSlots + 1u);
  ASSERT_EQ(Plan.QueueChunks.size(), N);
  EXPECT_EQ(Plan.QueueStart.front(), 0u);
  EXPECT_EQ(Plan.QueueStart.back(), N);
  EXPECT_EQ(Plan.QueueStride, 0u); // queues are read from the table

  // The cluster of every chunk, from its coordinates.
  uint64_t ClustersX = (G.X + uint64_t(Extent.X) - 1) / Extent.X;
  uint64_t ClustersY = (G.Y + uint64_t(Extent.Y) - 1) / Extent.Y;
  auto ClusterOf = [&](uint32_t C) -> uint64_t {
    uint32_t X = C % G.X, Y = (C / G.X) % G.Y, Z = C / (G.X * G.Y);
    return X / Extent.X + ClustersX * (Y / Extent.Y + ClustersY * Z);
  };
  std::map<uint64_t, uint32_t> ClusterChunks; // cluster -> its chunks
  for (uint32_t C = 0; C < N; ++C)
    ++ClusterChunks[ClusterOf(C)];
  uint32_t Largest = 0;
  for (const auto &[Cluster, Chunks] : ClusterChunks)
    Largest = std::max(Largest, Chunks);

  std::vector<int> Seen(N, 0);
  std::map<uint64_t, uint32_t> QueueOfCluster;
  std::vector<uint64_t> DealOrder; // clusters in the order dealt per queue
  uint32_t Busy = 0;
  uint32_t Lo = UINT32_MAX, Hi = 0;
  for (uint32_t S = 0; S < Plan.NumSlots; ++S) {
    std::vector<uint32_t> Queue = queueOf(Plan, S);
    bool InSet = std::find(Set.begin(), Set.end(), S) != Set.end();
    if (!InSet)
      EXPECT_TRUE(Queue.empty()) << "SM " << S << " is not in the set";
    if (InSet) {
      Lo = std::min<uint32_t>(Lo, Queue.size());
      Hi = std::max<uint32_t>(Hi, Queue.size());
    }
    Busy += !Queue.empty();
    // Runs of one cluster: each run is the whole cluster in linear order,
    // and no cluster appears in two runs.
    for (size_t I = 0; I < Queue.size();) {
      uint64_t Cluster = ClusterOf(Queue[I]);
      EXPECT_TRUE(QueueOfCluster.emplace(Cluster, S).second)
          << "cluster " << Cluster << " is split (queue " << S << ")";
      size_t Begin = I;
      while (I < Queue.size() && ClusterOf(Queue[I]) == Cluster) {
        ASSERT_LT(Queue[I], N);
        ++Seen[Queue[I]];
        if (I > Begin)
          EXPECT_LT(Queue[I - 1], Queue[I]) << "queue " << S;
        ++I;
      }
      EXPECT_EQ(I - Begin, ClusterChunks[Cluster])
          << "cluster " << Cluster << " is not whole in queue " << S;
    }
  }
  for (uint32_t C = 0; C < N; ++C)
    EXPECT_EQ(Seen[C], 1) << "chunk " << C << " is queued " << Seen[C]
                          << " times";
  // Balanced within one cluster; every SM busy that can be.
  EXPECT_LE(Hi - Lo, Largest);
  EXPECT_EQ(Busy, std::min<uint64_t>(Set.size(), ClusterChunks.size()));
  EXPECT_EQ(Plan.BusyQueues, Busy);
  // Whole clusters only (the grid divides into them): round robin.
  if (G.X % Extent.X == 0 && G.Y % Extent.Y == 0)
    for (const auto &[Cluster, Queue] : QueueOfCluster)
      EXPECT_EQ(Queue, Set[Cluster % Set.size()]) << "cluster " << Cluster;
}

} // namespace

TEST(ChunkClusters, TileExtentIsNearSquareAndWiderThanHigh) {
  struct Case {
    uint32_t Size, X, Y;
  };
  for (Case C : {Case{1, 1, 1}, Case{2, 2, 1}, Case{3, 3, 1}, Case{4, 2, 2},
                 Case{6, 3, 2}, Case{7, 7, 1}, Case{8, 4, 2}, Case{9, 3, 3},
                 Case{12, 4, 3}, Case{16, 4, 4}, Case{32, 8, 4},
                 Case{4294967295u, 65537, 65535}}) {
    ClusterExtent E = tileExtent(C.Size);
    EXPECT_EQ(E.X, C.X) << "size " << C.Size;
    EXPECT_EQ(E.Y, C.Y) << "size " << C.Size;
  }
}

TEST(ChunkClusters, RunsAlongXStayInTheirRow) {
  // Rows of 10: clusters 0-3, 4-7, 8-9 | 10-13, 14-17, 18-19.  The short
  // ones make the least loaded SM take the next cluster.
  QueuePlan Plan =
      planOk(Policy::clustered(ClusterDir::X, 4), device(2), grid(10, 2));
  EXPECT_EQ(queueOf(Plan, 0),
            (std::vector<uint32_t>{0, 1, 2, 3, 8, 9, 14, 15, 16, 17}));
  EXPECT_EQ(queueOf(Plan, 1),
            (std::vector<uint32_t>{4, 5, 6, 7, 10, 11, 12, 13, 18, 19}));
  EXPECT_EQ(Plan.QueueStride, 0u);
  EXPECT_TRUE(Plan.Note.empty());
}

TEST(ChunkClusters, RunsAlongYShareTheirColumn) {
  // A 3 x 5 grid in runs of 2 along y, dealt x fastest.
  QueuePlan Plan =
      planOk(Policy::clustered(ClusterDir::Y, 2), device(2), grid(3, 5));
  EXPECT_EQ(queueOf(Plan, 0),
            (std::vector<uint32_t>{0, 3, 2, 5, 7, 10, 12, 14}));
  EXPECT_EQ(queueOf(Plan, 1), (std::vector<uint32_t>{1, 4, 6, 9, 8, 11, 13}));
}

TEST(ChunkClusters, TilesOfFourAreTwoByTwo) {
  QueuePlan Plan =
      planOk(Policy::clustered(ClusterDir::Tile, 4), device(2), grid(4, 2, 2));
  EXPECT_EQ(queueOf(Plan, 0),
            (std::vector<uint32_t>{0, 1, 4, 5, 8, 9, 12, 13}));
  EXPECT_EQ(queueOf(Plan, 1),
            (std::vector<uint32_t>{2, 3, 6, 7, 10, 11, 14, 15}));
}

TEST(ChunkClusters, ExplicitTileShape) {
  // 3 x 1 tiles on a 7 x 2 grid, one SM of a set with a gap.
  QueuePlan Plan =
      planOk(Policy::clusteredTiles(3, 1, 0, {3}), device(4), grid(7, 2));
  EXPECT_EQ(queueOf(Plan, 3), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8,
                                                     9, 10, 11, 12, 13}));
  expectClusterPlan(Plan, grid(7, 2), ClusterExtent{3, 1}, {3});
  // A size equal to the tile's is allowed.
  Policy Same = Policy::clusteredTiles(4, 2);
  Same.clusterSize = 8;
  expectClusterPlan(planOk(Same, device(3), grid(9, 5)), grid(9, 5),
                    ClusterExtent{4, 2}, {0, 1, 2});
}

TEST(ChunkClusters, DefaultSizeIsThePerSmTarget) {
  // workers=3: clusters of 3.
  QueuePlan Plan =
      planOk(Policy::clustered(ClusterDir::X, 0, 3), device(2), grid(7));
  EXPECT_EQ(queueOf(Plan, 0), (std::vector<uint32_t>{0, 1, 2, 6}));
  EXPECT_EQ(queueOf(Plan, 1), (std::vector<uint32_t>{3, 4, 5}));
  // No workers=: the original's occupancy (4 here), so 2 x 2 tiles.
  Plan =
      planOk(Policy::clustered(ClusterDir::Tile), device(3, 8, 4), grid(6, 6));
  EXPECT_EQ(Plan.Target, 4u);
  expectClusterPlan(Plan, grid(6, 6), ClusterExtent{2, 2}, {0, 1, 2});
}

TEST(ChunkClusters, ContradictoryShapesRefused) {
  std::string Reason =
      planError(Policy::clusteredTiles(0, 2), device(2), grid(8, 8));
  EXPECT_NE(Reason.find("0x2"), std::string::npos) << Reason;
  Policy Sized = Policy::clusteredTiles(4, 2);
  Sized.clusterSize = 6;
  Reason = planError(Sized, device(2), grid(8, 8));
  EXPECT_NE(Reason.find("4x2"), std::string::npos) << Reason;
  EXPECT_NE(Reason.find("clusterSize=6"), std::string::npos) << Reason;
  Policy Along = Policy::clustered(ClusterDir::Y, 4);
  Along.clusterWidth = Along.clusterHeight = 2;
  Reason = planError(Along, device(2), grid(8, 8));
  EXPECT_NE(Reason.find("along y"), std::string::npos) << Reason;
}

TEST(ChunkClusters, OrderedModeNotesThatClustersDoNotApply) {
  KernelFacts K = smcKernel();
  K.Ordered = true;
  QueuePlan Plan =
      planOk(Policy::clustered(ClusterDir::Tile, 4), device(4), grid(8, 8), K);
  EXPECT_TRUE(Plan.Ordered);
  EXPECT_EQ(Plan.BusyQueues, 1u);
  EXPECT_NE(Plan.Note.find("chunk order of the policy does not apply"),
            std::string::npos)
      << Plan.Note;
}

TEST(ChunkClusters, OneChunkModeKeepsTheClusters) {
  KernelFacts K = smcKernel();
  K.OneChunk = true;
  QueuePlan Plan =
      planOk(Policy::clustered(ClusterDir::Y, 3), device(4), grid(5, 7), K);
  EXPECT_EQ(Plan.Mode, SMC_MODE_ONE_CHUNK);
  EXPECT_EQ(Plan.Workers, 35u);
  expectClusterPlan(Plan, grid(5, 7), ClusterExtent{1, 3}, {0, 1, 2, 3});
}

// Exactly once, whole clusters, balance and round robin over many grids
// (1-D, 2-D, 3-D, not divisible by the cluster, smaller than one cluster),
// cluster sizes, directions and SM sets (all SMs, one, gaps in set order,
// more SMs than clusters).
TEST(ChunkClusters, ManyShapesHoldEveryChunkOnceInWholeClusters) {
  struct SmSet {
    unsigned NumSMs;
    std::vector<unsigned> Sms;
  };
  std::vector<SmSet> Sets = {
      {4, {}}, {13, {}}, {5, {0}}, {13, {12, 1, 5, 1}}, {132, {}}};
  for (GridSize G : {grid(1), grid(7), grid(1000), grid(5, 3), grid(3, 5),
                     grid(16, 16), grid(17, 9), grid(1, 300), grid(7, 5, 3),
                     grid(4, 4, 4), grid(2, 3, 64)}) {
    for (uint32_t Size : {1u, 2u, 3u, 4u, 8u, 9u, 13u, 1000u}) {
      for (int Dir = 0; Dir < 4; ++Dir) {
        for (const SmSet &S : Sets) {
          Policy P;
          ClusterExtent Extent;
          if (Dir == 0) {
            P = Policy::clustered(ClusterDir::X, Size, 0, S.Sms);
            Extent = ClusterExtent{Size, 1};
          } else if (Dir == 1) {
            P = Policy::clustered(ClusterDir::Y, Size, 0, S.Sms);
            Extent = ClusterExtent{1, Size};
          } else if (Dir == 2) {
            P = Policy::clustered(ClusterDir::Tile, Size, 0, S.Sms);
            Extent = tileExtent(Size);
          } else {
            // An explicit tile: Size wide, 2 high.
            P = Policy::clusteredTiles(Size, 2, 0, S.Sms);
            Extent = ClusterExtent{Size, 2};
          }
          std::vector<uint32_t> Set;
          for (unsigned Sm : S.Sms)
            if (std::find(Set.begin(), Set.end(), Sm) == Set.end())
              Set.push_back(Sm);
          if (Set.empty())
            for (unsigned Sm = 0; Sm < S.NumSMs; ++Sm)
              Set.push_back(Sm);
          SCOPED_TRACE(
              "grid " + std::to_string(G.X) + "x" + std::to_string(G.Y) + "x" +
              std::to_string(G.Z) + " size " + std::to_string(Size) + " dir " +
              std::to_string(Dir) + " SMs " + std::to_string(S.NumSMs) +
              " |set| " + std::to_string(Set.size()));
          QueuePlan Plan = planOk(P, device(S.NumSMs), G);
          expectClusterPlan(Plan, G, Extent, Set);
          if (HasFatalFailure())
            return;
        }
      }
    }
  }
}

// In a 3-D grid each z plane is cut on its own: a cluster larger than a
// plane is the plane, and runs along y stop at its edge.
TEST(ChunkClusters, ClustersNeverSpanZPlanes) {
  QueuePlan Plan =
      planOk(Policy::clustered(ClusterDir::Tile, 4), device(3), grid(2, 2, 3));
  EXPECT_EQ(queueOf(Plan, 0), (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(queueOf(Plan, 1), (std::vector<uint32_t>{4, 5, 6, 7}));
  EXPECT_EQ(queueOf(Plan, 2), (std::vector<uint32_t>{8, 9, 10, 11}));
  Plan = planOk(Policy::clustered(ClusterDir::Y, 5), device(2), grid(2, 3, 2));
  EXPECT_EQ(queueOf(Plan, 0), (std::vector<uint32_t>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(queueOf(Plan, 1), (std::vector<uint32_t>{1, 3, 5, 7, 9, 11}));
  Plan = planOk(Policy::clusteredTiles(100, 100), device(4), grid(3, 2, 5));
  for (uint32_t Sm = 0; Sm < 4; ++Sm) {
    std::vector<uint32_t> Queue = queueOf(Plan, Sm);
    for (size_t I = 0; I < Queue.size(); ++I) // whole planes of 6 chunks
      EXPECT_EQ(Queue[I], Queue[I - I % 6] + I % 6) << "SM " << Sm;
  }
  EXPECT_EQ(queueOf(Plan, 0).size(), 12u); // planes 0 and 4
  EXPECT_EQ(queueOf(Plan, 3).size(), 6u);  // plane 3
}

// Refusals that are not about clusters still come with a reason.
TEST(ChunkClusters, OtherRefusalsKeepTheirReasons) {
  std::string Reason = planError(Policy::clustered(ClusterDir::X, 4, 0, {9}),
                                 device(4), grid(16));
  EXPECT_NE(Reason.find("SM 9 in sms is out of range"), std::string::npos)
      << Reason;
  Reason =
      planError(Policy::clustered(ClusterDir::Tile, 4, 9), device(4), grid(16));
  EXPECT_NE(Reason.find("workers=9"), std::string::npos) << Reason;
  Reason = planError(Policy::clustered(ClusterDir::Y), device(4), grid(0, 4));
  EXPECT_EQ(Reason, "the grid is empty");
}

// The round-robin shortcut for grids the extent divides and the heap for
// the others deal alike: a grid one chunk wider than a multiple of the
// cluster has the same queues as the divisible grid on its first rows.
TEST(ChunkClusters, WholeClustersDealRoundRobin) {
  QueuePlan Plan =
      planOk(Policy::clustered(ClusterDir::X, 2), device(3), grid(12, 2));
  EXPECT_EQ(queueOf(Plan, 0),
            (std::vector<uint32_t>{0, 1, 6, 7, 12, 13, 18, 19}));
  EXPECT_EQ(queueOf(Plan, 1),
            (std::vector<uint32_t>{2, 3, 8, 9, 14, 15, 20, 21}));
  EXPECT_EQ(queueOf(Plan, 2),
            (std::vector<uint32_t>{4, 5, 10, 11, 16, 17, 22, 23}));
  // 13 wide: clusters 0-1 ... 10-11 and {12} per row; the short one goes to
  // the SM with the fewest chunks.
  Plan = planOk(Policy::clustered(ClusterDir::X, 2), device(3), grid(13, 1));
  EXPECT_EQ(queueOf(Plan, 0), (std::vector<uint32_t>{0, 1, 6, 7, 12}));
  EXPECT_EQ(queueOf(Plan, 1), (std::vector<uint32_t>{2, 3, 8, 9}));
  EXPECT_EQ(queueOf(Plan, 2), (std::vector<uint32_t>{4, 5, 10, 11}));
}
