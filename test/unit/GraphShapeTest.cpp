//===- GraphShapeTest.cpp - Chains and co-run sets of graphs --------------===//
//
// graphs/GraphShape.h on the shapes graph layouts meet: independent
// branches (the Kernelet mixes captured as a graph), fork-join steps,
// branches broken by barriers, nested forks, and the lane edges of a
// layout with the cycle check.
//===----------------------------------------------------------------------===//
#include "graphs/GraphShape.h"
#include "graphs/TrialBudget.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace smc::graphs;
using smc::batch::Layout;

namespace {

// Adds a chain of N nodes of Kind after From (none: a root); its nodes.
std::vector<unsigned> chain(GraphShape &G, int From, unsigned N,
                            NodeKind Kind = NodeKind::Kernel) {
  std::vector<unsigned> Nodes;
  for (unsigned I = 0; I < N; ++I) {
    unsigned Node = G.addNode(Kind);
    if (!Nodes.empty())
      G.addEdge(Nodes.back(), Node);
    else if (From >= 0)
      G.addEdge(unsigned(From), Node);
    Nodes.push_back(Node);
  }
  return Nodes;
}

} // namespace

TEST(GraphShape, IndependentBranchesAreOneSet) {
  GraphShape G;
  std::vector<std::vector<unsigned>> Branches;
  for (unsigned B = 0; B < 4; ++B)
    Branches.push_back(chain(G, -1, 2 + B));
  std::string Why;
  std::vector<CoRunSet> Sets = coRunSets(G, Why);
  ASSERT_EQ(Sets.size(), 1u) << Why;
  EXPECT_EQ(Sets[0].Chains, Branches);
}

TEST(GraphShape, ForkJoinBranchesStopAtTheJoin) {
  // A memset root, three branches (one with a memcpy inside), a join kernel.
  GraphShape G;
  unsigned Root = G.addNode(NodeKind::Memset);
  unsigned Join = G.addNode(NodeKind::Kernel);
  std::vector<std::vector<unsigned>> Branches;
  for (unsigned B = 0; B < 3; ++B) {
    std::vector<unsigned> Branch = chain(G, int(Root), 2);
    if (B == 1) {
      unsigned Copy = G.addNode(NodeKind::Memcpy);
      G.addEdge(Branch.back(), Copy);
      Branch.push_back(Copy);
    }
    G.addEdge(Branch.back(), Join);
    Branches.push_back(Branch);
  }
  std::string Why;
  std::vector<CoRunSet> Sets = coRunSets(G, Why);
  ASSERT_EQ(Sets.size(), 1u);
  EXPECT_EQ(Sets[0].Chains, Branches);
}

TEST(GraphShape, BarriersBreakChainsAndAreNeverInOne) {
  // Branch 0: kernel, host node, kernel; branch 1: one kernel; all from a
  // root event node.
  GraphShape G;
  unsigned Event = G.addNode(NodeKind::Barrier);
  std::vector<unsigned> A = chain(G, int(Event), 1);
  unsigned Host = G.addNode(NodeKind::Barrier);
  G.addEdge(A[0], Host);
  std::vector<unsigned> B = chain(G, int(Host), 1);
  std::vector<unsigned> C = chain(G, int(Event), 1);
  std::string Why;
  std::vector<CoRunSet> Sets = coRunSets(G, Why);
  // A and C may run side by side; B comes after A, but may run beside C:
  // the greedy grouping puts B in the set of A and C only if it may run
  // beside both, so B is alone and dropped.
  ASSERT_EQ(Sets.size(), 1u);
  EXPECT_EQ(Sets[0].Chains, (std::vector<std::vector<unsigned>>{A, C}));
  for (const auto &Chain : Sets[0].Chains)
    for (unsigned Node : Chain)
      EXPECT_NE(G.Kinds[Node], NodeKind::Barrier);
}

TEST(GraphShape, ChainsWithoutKernelsAndLoneChainsMakeNoSet) {
  GraphShape G;
  chain(G, -1, 2, NodeKind::Memset);
  chain(G, -1, 3);
  std::string Why;
  EXPECT_TRUE(coRunSets(G, Why).empty());
  EXPECT_NE(Why.find("no two branches"), std::string::npos);
}

TEST(GraphShape, TwoStagesAreTwoSets) {
  // Two fork-join stages one after the other.
  GraphShape G;
  unsigned Fork = G.addNode(NodeKind::Barrier);
  unsigned Mid = G.addNode(NodeKind::Barrier);
  unsigned End = G.addNode(NodeKind::Barrier);
  for (unsigned Stage = 0; Stage < 2; ++Stage)
    for (unsigned B = 0; B < 3; ++B) {
      std::vector<unsigned> Branch = chain(G, int(Stage ? Mid : Fork), 2);
      G.addEdge(Branch.back(), Stage ? End : Mid);
    }
  std::string Why;
  std::vector<CoRunSet> Sets = coRunSets(G, Why);
  ASSERT_EQ(Sets.size(), 2u);
  EXPECT_EQ(Sets[0].Chains.size(), 3u);
  EXPECT_EQ(Sets[1].Chains.size(), 3u);
}

TEST(GraphShape, SetsHoldAtMostMaxChains) {
  GraphShape G;
  for (unsigned B = 0; B < 11; ++B)
    chain(G, -1, 1);
  std::string Why;
  std::vector<CoRunSet> Sets = coRunSets(G, Why, 4);
  ASSERT_EQ(Sets.size(), 3u); // 4 + 4 + 3
  EXPECT_EQ(Sets[0].Chains.size(), 4u);
  EXPECT_EQ(Sets[1].Chains.size(), 4u);
  EXPECT_EQ(Sets[2].Chains.size(), 3u);
  Sets = coRunSets(G, Why);
  ASSERT_EQ(Sets.size(), 2u); // 8 + 3
  EXPECT_EQ(Sets[1].Chains.size(), 3u);
}

TEST(GraphShape, CyclicGraphsAreRefused) {
  GraphShape G;
  std::vector<unsigned> A = chain(G, -1, 2);
  G.addEdge(A[1], A[0]);
  chain(G, -1, 1);
  std::string Why;
  EXPECT_TRUE(coRunSets(G, Why).empty());
  EXPECT_EQ(Why, "the graph has a cycle");
}

TEST(GraphShape, LaneEdgesChainEachLaneInOrder) {
  GraphShape G;
  for (unsigned B = 0; B < 4; ++B)
    chain(G, -1, 2);
  std::string Why;
  std::vector<CoRunSet> Sets = coRunSets(G, Why);
  ASSERT_EQ(Sets.size(), 1u);
  Layout L;
  L.Lanes[0] = {2, 0};
  L.Lanes[1] = {1, 3};
  L.Splits.assign(4, smc::batch::Split::Whole);
  auto Edges = laneEdges(Sets[0], L);
  const auto &C = Sets[0].Chains;
  EXPECT_EQ(Edges,
            (std::vector<std::pair<unsigned, unsigned>>{
                {C[2].back(), C[0].front()}, {C[1].back(), C[3].front()}}));
  EXPECT_TRUE(acyclicWith(G, Edges));
}

TEST(GraphShape, LayoutsOfTwoSetsCanCloseACycle) {
  // Chains A and B may run side by side, and so may C and D, but A
  // precedes D and C precedes B: B before A on a lane and D before C on
  // another close the cycle A -> D -> C -> B -> A.
  GraphShape G;
  std::vector<unsigned> A = chain(G, -1, 1), C = chain(G, -1, 1);
  std::vector<unsigned> D = chain(G, int(A[0]), 1);
  std::vector<unsigned> B = chain(G, int(C[0]), 1);
  EXPECT_TRUE(acyclicWith(G, {{B[0], A[0]}}));
  EXPECT_TRUE(acyclicWith(G, {{D[0], C[0]}}));
  EXPECT_FALSE(acyclicWith(G, {{B[0], A[0]}, {D[0], C[0]}}));
}

TEST(GraphShape, TooLargeGraphsAreRefused) {
  GraphShape G;
  for (unsigned I = 0; I <= MaxGraphNodes; ++I)
    G.addNode(NodeKind::Kernel);
  std::string Why;
  EXPECT_TRUE(coRunSets(G, Why).empty());
  EXPECT_NE(Why.find("nodes"), std::string::npos);
}

TEST(TrialBudget, FirstTrialAlwaysThenWithinTheShare) {
  TrialBudget B(0.05, 1000);
  EXPECT_TRUE(B.allows(0, 0));
  EXPECT_EQ(B.affordable(4.0), UINT32_MAX); // nothing measured yet
  // A 4 ms graph: 5% of 1,000 replays is 200 ms, so trials of 1.5 ms each
  // may all start at once (133 of them).
  B.spent(1.5);
  for (int I = 0; I < 128; ++I)
    B.spent(1.5);
  EXPECT_TRUE(B.allows(4.0, 2));
  for (int I = 0; I < 4; ++I)
    B.spent(1.5);
  EXPECT_FALSE(B.allows(4.0, 2)); // 133 spent: 199.5 ms, and 1.5 more
  // Past the first 1,000 replays, the share of all replays.
  EXPECT_TRUE(B.allows(4.0, 1000 + 8));
}

TEST(TrialBudget, ShortGraphsTrialSlowly) {
  // A 50 us graph whose trials cost 1 ms each (mostly the build): 2.5 ms
  // for the first 1,000 replays, so two trials, then one per 400 replays.
  TrialBudget B(0.05, 1000);
  B.spent(1.0);
  EXPECT_TRUE(B.allows(0.05, 10));
  B.spent(1.0);
  EXPECT_FALSE(B.allows(0.05, 10));
  EXPECT_FALSE(B.allows(0.05, 1199));
  EXPECT_TRUE(B.allows(0.05, 1200));
  EXPECT_EQ(B.trials(), 2u);
  EXPECT_DOUBLE_EQ(B.spentMs(), 2.0);
  // 5% of 1,000 replays of 50 us pays for two such trials: too short a
  // graph to search; a 4 ms graph pays for 200.
  EXPECT_EQ(B.affordable(0.05), 2u);
  EXPECT_EQ(B.affordable(4.0), 200u);
  // A trial that ran faster than the baseline costs nothing more.
  B.spent(-0.5);
  EXPECT_DOUBLE_EQ(B.spentMs(), 2.0);
}
