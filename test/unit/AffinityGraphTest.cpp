//===- AffinityGraphTest.cpp - Affinity graphs and their partition --------===//
//
// The footprint check, the Jaccard scores and threshold of the affinity
// graph (exact without sampling, estimated with it), METIS partitions that
// keep groups of chunks sharing data on one SM within the balance bound,
// and the chunk-to-SM table.
//===----------------------------------------------------------------------===//
#include "locality/AffinityGraph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace smc;
using namespace smc::affinity;

namespace {

ChunkFootprint footprintOf(const std::vector<std::vector<uint64_t>> &Sets) {
  ChunkFootprint F;
  F.begin.push_back(0);
  for (const std::vector<uint64_t> &S : Sets) {
    F.blocks.insert(F.blocks.end(), S.begin(), S.end());
    F.begin.push_back(F.blocks.size());
  }
  return F;
}

// Edge weight between C and D, or -1 without an edge.
int weightOf(const Graph &G, uint32_t C, uint32_t D) {
  for (int32_t E = G.Offsets[C]; E < G.Offsets[C + 1]; ++E)
    if (uint32_t(G.Neighbours[E]) == D)
      return G.Weights[E];
  return -1;
}

void expectSymmetric(const Graph &G) {
  for (uint32_t C = 0; C < G.chunks(); ++C)
    for (int32_t E = G.Offsets[C]; E < G.Offsets[C + 1]; ++E) {
      uint32_t D = uint32_t(G.Neighbours[E]);
      EXPECT_NE(C, D);
      EXPECT_EQ(weightOf(G, D, C), G.Weights[E]) << C << "-" << D;
    }
}

// `Groups` groups of `PerGroup` chunks; the chunks of a group read the
// group's `Shared` blocks and `Own` blocks of their own.  Chunks are
// numbered so that groups interleave (chunk c is in group c mod Groups),
// as the interleaved order would spread them.
ChunkFootprint groupedFootprint(unsigned Groups, unsigned PerGroup,
                                unsigned Shared, unsigned Own) {
  std::vector<std::vector<uint64_t>> Sets(size_t(Groups) * PerGroup);
  uint64_t NextOwn = 1u << 30;
  for (size_t C = 0; C < Sets.size(); ++C) {
    uint64_t Group = C % Groups;
    for (unsigned B = 0; B < Shared; ++B)
      Sets[C].push_back(Group * 1000000 + B);
    for (unsigned B = 0; B < Own; ++B)
      Sets[C].push_back(NextOwn++);
  }
  return footprintOf(Sets);
}

TEST(AffinityFootprint, RejectsMalformed) {
  std::string Error;
  ChunkFootprint Empty;
  EXPECT_FALSE(checkFootprint(Empty, Error));
  EXPECT_NE(Error.find("no chunk"), std::string::npos) << Error;

  ChunkFootprint F = footprintOf({{1, 2}, {3}});
  EXPECT_TRUE(checkFootprint(F, Error)) << Error;

  ChunkFootprint BadStart = F;
  BadStart.begin[0] = 1;
  EXPECT_FALSE(checkFootprint(BadStart, Error));
  EXPECT_NE(Error.find("begin[0] is 1"), std::string::npos) << Error;

  ChunkFootprint Decreasing = F;
  Decreasing.begin = {0, 2, 1, 3};
  Decreasing.blocks.push_back(4);
  EXPECT_FALSE(checkFootprint(Decreasing, Error));
  EXPECT_NE(Error.find("decreases at chunk 1"), std::string::npos) << Error;

  ChunkFootprint ShortEnd = F;
  ShortEnd.blocks.push_back(9);
  EXPECT_FALSE(checkFootprint(ShortEnd, Error));
  EXPECT_NE(Error.find("ends at 3 but there are 4 blocks"), std::string::npos)
      << Error;
}

TEST(AffinityGraph, JaccardScoresAndThreshold) {
  // 0 and 1 share {2, 3} of {1, 2, 3, 4}: 0.5.  1 and 2 share {4} of
  // {2, 3, 4, 5, 6, 7, 8, 9}: 0.125.  0 and 2 share nothing.  Duplicates
  // count once.
  ChunkFootprint F =
      footprintOf({{1, 2, 3, 2}, {2, 3, 4}, {4, 5, 6, 7, 8, 9, 4}, {}});
  Graph G = buildGraph(F, 0.05, 1u << 20);
  ASSERT_EQ(G.chunks(), 4u);
  EXPECT_EQ(G.SampleEvery, 1u);
  EXPECT_EQ(weightOf(G, 0, 1), 500);
  EXPECT_EQ(weightOf(G, 1, 2), 125);
  EXPECT_EQ(weightOf(G, 0, 2), -1);
  EXPECT_EQ(G.Offsets[4] - G.Offsets[3], 0); // a chunk reading nothing
  EXPECT_EQ(G.edges(), 2u);
  expectSymmetric(G);

  Graph Strict = buildGraph(F, 0.2, 1u << 20);
  EXPECT_EQ(weightOf(Strict, 0, 1), 500);
  EXPECT_EQ(weightOf(Strict, 1, 2), -1);
  EXPECT_EQ(Strict.edges(), 1u);
}

// Every edge of G joins chunks of one group (chunk c in group c mod
// Groups); returns how many of the in-group pairs have one.
size_t inGroupEdges(const Graph &G, unsigned Groups) {
  size_t Count = 0;
  for (uint32_t C = 0; C < G.chunks(); ++C)
    for (int32_t E = G.Offsets[C]; E < G.Offsets[C + 1]; ++E) {
      EXPECT_EQ(C % Groups, uint32_t(G.Neighbours[E]) % Groups)
          << "an edge across groups: " << C << "-" << G.Neighbours[E];
      Count += C < uint32_t(G.Neighbours[E]);
    }
  return Count;
}

TEST(AffinityGraph, SamplingBoundsWorkAndEstimatesScores) {
  // 8 groups of 8 chunks; a group's chunks read its 2000 blocks and 2000
  // of their own: every in-group score is 1/3.  The full pair work is
  // 8 * 2000 * 8^2 + 64 * 2000.
  ChunkFootprint F = groupedFootprint(8, 8, 2000, 2000);
  Graph Full = buildGraph(F, 0.05, 0);
  EXPECT_EQ(Full.SampleEvery, 1u);
  EXPECT_EQ(weightOf(Full, 3, 11), 333);
  EXPECT_EQ(inGroupEdges(Full, 8), 8u * 28);

  uint64_t Budget = (8ull * 2000 * 64 + 64 * 2000) / 10;
  Graph Sampled = buildGraph(F, 0.05, Budget);
  EXPECT_GE(Sampled.SampleEvery, 10u);
  EXPECT_LE(Sampled.SampleEvery, 11u);
  expectSymmetric(Sampled);
  EXPECT_EQ(inGroupEdges(Sampled, 8), 8u * 28);
  for (uint32_t C = 0; C < 64; ++C)
    for (int32_t E = Sampled.Offsets[C]; E < Sampled.Offsets[C + 1]; ++E)
      EXPECT_NEAR(Sampled.Weights[E], 333, 60) << C;
}

TEST(AffinityGraph, SamplingKeepsEnoughBlocksPerChunk) {
  // Chunks of 2200 blocks: however small the budget, the average chunk
  // keeps at least 16 sampled blocks (one in 2200 / 16 = 137).  Groups as
  // above share 2000 of them.
  ChunkFootprint F = groupedFootprint(8, 8, 2000, 200);
  Graph G = buildGraph(F, 0.05, 1);
  EXPECT_EQ(G.SampleEvery, 137u);
  EXPECT_GE(inGroupEdges(G, 8), 8u * 28 * 9 / 10);
}

TEST(AffinityGraph, SamplesAreNotEvidenceOfChance) {
  // Every chunk reads one common block and 200 of its own: the scores of
  // the full sets are 1/401.  Samples of about 16 blocks can share the
  // common one, or more by luck, but not more than chance explains: no
  // edge, even at a threshold that the sampled scores would pass.
  std::vector<std::vector<uint64_t>> Sets(64);
  for (uint64_t C = 0; C < 64; ++C) {
    Sets[C].push_back(7);
    for (uint64_t B = 0; B < 200; ++B)
      Sets[C].push_back(1000 + C * 200 + B);
  }
  Graph Sparse = buildGraph(footprintOf(Sets), 0.0001, 1);
  EXPECT_GT(Sparse.SampleEvery, 1u);
  EXPECT_EQ(Sparse.edges(), 0u);
  // Random reads of a common pool: no chunk pair shares more than chance.
  std::mt19937_64 Rng(9);
  std::vector<std::vector<uint64_t>> Random(2000);
  for (auto &Set : Random)
    for (int K = 0; K < 400; ++K)
      Set.push_back(Rng() % 20000);
  Graph Noise = buildGraph(footprintOf(Random), 0.05, 1u << 16);
  EXPECT_GT(Noise.SampleEvery, 1u);
  EXPECT_LT(Noise.edges(), 20u) << "edges from sampling noise";
}

TEST(AffinityGraph, StrongestNeighboursOnly) {
  // Chunk k reads blocks [0, 100 - 5k): chunk 0 shares most with chunk 1,
  // then 2, ...; each chunk's strongest neighbours are the adjacent ones.
  std::vector<std::vector<uint64_t>> Sets(11);
  for (unsigned K = 0; K < 11; ++K)
    for (uint64_t B = 0; B < 100 - 5 * K; ++B)
      Sets[K].push_back(B);
  ChunkFootprint F = footprintOf(Sets);
  Graph All = buildGraph(F, 0.05, 0, 0);
  EXPECT_EQ(All.edges(), 11u * 10 / 2);
  Graph Top = buildGraph(F, 0.05, 0, 3);
  expectSymmetric(Top);
  std::vector<uint32_t> OfZero(Top.Neighbours.begin() + Top.Offsets[0],
                               Top.Neighbours.begin() + Top.Offsets[1]);
  EXPECT_EQ(OfZero, (std::vector<uint32_t>{1, 2, 3}));
  for (uint32_t C = 0; C < 11; ++C)
    EXPECT_LE(Top.Offsets[C + 1] - Top.Offsets[C], 6) << C;
  EXPECT_EQ(weightOf(Top, 0, 1), weightOf(All, 0, 1));
}

TEST(AffinityPartition, KeepsGroupsOnOneSm) {
  // 16 groups of 8 chunks, interleaved in chunk order; 16 parts: each
  // group must end up whole in one part.
  ChunkFootprint F = groupedFootprint(16, 8, 20, 4);
  Graph G = buildGraph(F, 0.05, 1u << 24);
  std::vector<uint32_t> PartOf;
  std::string Error;
  ASSERT_TRUE(partitionGraph(G, 16, PartOf, Error)) << Error;
  ASSERT_EQ(PartOf.size(), 128u);
  std::map<uint32_t, std::set<uint32_t>> PartsOfGroup;
  for (uint32_t C = 0; C < 128; ++C) {
    ASSERT_LT(PartOf[C], 16u);
    PartsOfGroup[C % 16].insert(PartOf[C]);
  }
  for (auto &[Group, Parts] : PartsOfGroup)
    EXPECT_EQ(Parts.size(), 1u) << "group " << Group;
  EXPECT_DOUBLE_EQ(keptAffinity(G, PartOf), 1.0);
  // Contiguous ranges of chunks keep none of it.
  std::vector<uint32_t> Contiguous(128);
  for (uint32_t C = 0; C < 128; ++C)
    Contiguous[C] = C / 8;
  EXPECT_DOUBLE_EQ(keptAffinity(G, Contiguous), 0.0);
}

TEST(AffinityPartition, BalancedOnRandomGraph) {
  // Chunks read random blocks of a band around their own position: many
  // overlapping neighbourhoods, no clean groups.  The best a partition can
  // do is about what contiguous ranges of chunks keep.
  std::mt19937_64 Rng(7);
  std::vector<std::vector<uint64_t>> Sets(5000);
  for (size_t C = 0; C < Sets.size(); ++C)
    for (int K = 0; K < 30; ++K)
      Sets[C].push_back(C / 4 + Rng() % 16);
  ChunkFootprint F = footprintOf(Sets);
  Graph G = buildGraph(F, 0.05, 1u << 24);
  expectSymmetric(G);
  std::vector<uint32_t> PartOf;
  std::string Error;
  ASSERT_TRUE(partitionGraph(G, 132, PartOf, Error)) << Error;
  std::vector<unsigned> Count(132, 0);
  for (uint32_t P : PartOf) {
    ASSERT_LT(P, 132u);
    ++Count[P];
  }
  double Share = 5000.0 / 132;
  for (unsigned P = 0; P < 132; ++P) {
    EXPECT_GT(Count[P], 0u) << P;
    EXPECT_LE(Count[P], unsigned(Share * 1.03) + 1) << P;
  }
  std::vector<uint32_t> Interleaved(5000), Contiguous(5000);
  for (uint32_t C = 0; C < 5000; ++C) {
    Interleaved[C] = C % 132;
    Contiguous[C] = C * 132 / 5000;
  }
  double Kept = keptAffinity(G, PartOf);
  EXPECT_GT(Kept, 0.9 * keptAffinity(G, Contiguous));
  EXPECT_LT(keptAffinity(G, Interleaved), 0.02);
  // The same graph gives the same partition.
  std::vector<uint32_t> Again;
  ASSERT_TRUE(partitionGraph(G, 132, Again, Error)) << Error;
  EXPECT_EQ(Again, PartOf);
}

TEST(AffinityPartition, WithoutEdgesOrPartsToSpare) {
  std::string Error;
  std::vector<uint32_t> PartOf;
  // No block shared: interleaved.
  Graph Disjoint = buildGraph(footprintOf({{1}, {2}, {3}, {4}, {5}}), 0.05, 0);
  EXPECT_EQ(Disjoint.edges(), 0u);
  ASSERT_TRUE(partitionGraph(Disjoint, 2, PartOf, Error)) << Error;
  EXPECT_EQ(PartOf, (std::vector<uint32_t>{0, 1, 0, 1, 0}));
  EXPECT_DOUBLE_EQ(keptAffinity(Disjoint, PartOf), 0.0);
  // Fewer chunks than parts: one each.
  Graph Small = buildGraph(footprintOf({{1, 2}, {1, 2}}), 0.05, 0);
  ASSERT_TRUE(partitionGraph(Small, 8, PartOf, Error)) << Error;
  EXPECT_EQ(PartOf, (std::vector<uint32_t>{0, 1}));
  // One part.
  ASSERT_TRUE(partitionGraph(Small, 1, PartOf, Error)) << Error;
  EXPECT_EQ(PartOf, (std::vector<uint32_t>{0, 0}));
  EXPECT_FALSE(partitionGraph(Small, 0, PartOf, Error));
  EXPECT_NE(Error.find("no SM"), std::string::npos);
}

TEST(AffinityPlacement, ChoosesTheCheapestOrderThatKeepsTheAffinity) {
  std::string Error;
  std::vector<uint32_t> PartOf;
  auto choose = [&](const ChunkFootprint &F, uint32_t Parts) {
    Graph G = buildGraph(F, 0.05, 1u << 24, 32);
    EXPECT_TRUE(partitionGraph(G, Parts, PartOf, Error)) << Error;
    return choosePlacement(G, PartOf, Parts);
  };
  // Groups that are chunk c mod 16: the interleaved order keeps them.
  PlacementChoice Interleaved = choose(groupedFootprint(16, 8, 20, 4), 16);
  EXPECT_DOUBLE_EQ(Interleaved.Interleaved, 1.0);
  EXPECT_EQ(Interleaved.Order, ChunkOrder::Interleaved);
  // Chunks that share nothing: nothing to keep.
  PlacementChoice None = choose(footprintOf({{1}, {2}, {3}, {4}, {5}, {6}}), 2);
  EXPECT_EQ(None.Order, ChunkOrder::Interleaved);
  // A few pairs that share everything among many chunks that share
  // nothing: the partition keeps every edge, but the average chunk gains
  // too little for a table.
  std::vector<std::vector<uint64_t>> Few(1000);
  for (uint64_t C = 0; C < 1000; ++C)
    for (uint64_t B = 0; B < 10; ++B)
      Few[C].push_back((C < 20 ? C / 2 + 1000000 : C * 100) + B);
  PlacementChoice Little = choose(footprintOf(Few), 16);
  EXPECT_DOUBLE_EQ(Little.Table, 1.0);
  EXPECT_LT(Little.PerChunk, MinGain);
  EXPECT_EQ(Little.Order, ChunkOrder::Interleaved);
  // A band (chunk c reads blocks c/4 .. c/4 + 7, as the rows of a banded
  // matrix read a vector): ranges of chunks keep most of it.
  std::vector<std::vector<uint64_t>> Band(4096);
  for (size_t C = 0; C < Band.size(); ++C)
    for (uint64_t B = 0; B < 8; ++B)
      Band[C].push_back(C / 4 + B);
  PlacementChoice Ranges = choose(footprintOf(Band), 32);
  EXPECT_LT(Ranges.Interleaved, 0.05);
  EXPECT_GE(Ranges.Contiguous, ContiguousShare * Ranges.Table);
  EXPECT_EQ(Ranges.Order, ChunkOrder::Contiguous);
  // Groups scattered over the chunk ids: only the table keeps them.
  std::vector<uint64_t> Order(256);
  for (uint64_t C = 0; C < 256; ++C)
    Order[C] = C;
  std::shuffle(Order.begin(), Order.end(), std::mt19937_64(3));
  std::vector<std::vector<uint64_t>> Scattered(256);
  for (uint64_t I = 0; I < 256; ++I)
    for (uint64_t B = 0; B < 20; ++B)
      Scattered[Order[I]].push_back(I % 16 * 1000 + B);
  PlacementChoice Table = choose(footprintOf(Scattered), 16);
  EXPECT_GT(Table.Table, 0.9);
  EXPECT_LT(Table.Interleaved, 0.5);
  EXPECT_LT(Table.Contiguous, 0.5);
  EXPECT_EQ(Table.Order, ChunkOrder::Table);
}

TEST(AffinityPartition, TableNamesTheSmsOfTheSet) {
  EXPECT_EQ(chunkTable({0, 2, 1, 2}, {7, 40, 3}),
            (std::vector<unsigned>{7, 3, 40, 3}));
}

} // namespace
