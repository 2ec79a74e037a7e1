//===- GraphShape.cpp - Chains and co-run sets of a graph -----------------===//
//
// Topological order (Kahn), reachability as one bit row per node, chains,
// and the greedy grouping of chains into co-run sets (GraphShape.h).
//===----------------------------------------------------------------------===//
#include "graphs/GraphShape.h"

#include <algorithm>
#include <cstdint>

namespace smc::graphs {

unsigned GraphShape::addNode(NodeKind Kind) {
  Kinds.push_back(Kind);
  Successors.emplace_back();
  return size() - 1;
}

void GraphShape::addEdge(unsigned From, unsigned To) {
  Successors[From].push_back(To);
}

namespace {

// The nodes in a topological order; false when there is a cycle.
bool topologicalOrder(const std::vector<std::vector<unsigned>> &Successors,
                      std::vector<unsigned> &Order) {
  size_t N = Successors.size();
  std::vector<unsigned> InDegree(N, 0);
  for (const auto &Next : Successors)
    for (unsigned To : Next)
      ++InDegree[To];
  Order.clear();
  for (unsigned I = 0; I < N; ++I)
    if (!InDegree[I])
      Order.push_back(I);
  for (size_t At = 0; At < Order.size(); ++At)
    for (unsigned To : Successors[Order[At]])
      if (--InDegree[To] == 0)
        Order.push_back(To);
  return Order.size() == N;
}

bool inChain(NodeKind K) { return K != NodeKind::Barrier; }

// Which nodes each node reaches (itself excluded), one bit row per node.
class Reach {
public:
  Reach(const GraphShape &G, const std::vector<unsigned> &Order)
      : Words((G.size() + 63) / 64), Bits(size_t(G.size()) * Words, 0) {
    for (auto It = Order.rbegin(); It != Order.rend(); ++It)
      for (unsigned To : G.Successors[*It]) {
        set(*It, To);
        for (size_t W = 0; W < Words; ++W)
          Bits[*It * Words + W] |= Bits[To * Words + W];
      }
  }
  bool reaches(unsigned From, unsigned To) const {
    return Bits[From * Words + To / 64] >> (To % 64) & 1;
  }

private:
  void set(unsigned From, unsigned To) {
    Bits[From * Words + To / 64] |= uint64_t(1) << (To % 64);
  }
  size_t Words;
  std::vector<uint64_t> Bits;
};

} // namespace

std::vector<CoRunSet> coRunSets(const GraphShape &G, std::string &Why,
                                unsigned MaxChains) {
  if (G.size() > MaxGraphNodes) {
    Why = "more than " + std::to_string(MaxGraphNodes) + " nodes";
    return {};
  }
  std::vector<unsigned> Order;
  if (!topologicalOrder(G.Successors, Order)) {
    Why = "the graph has a cycle";
    return {};
  }
  std::vector<unsigned> InDegree(G.size(), 0);
  for (const auto &Next : G.Successors)
    for (unsigned To : Next)
      ++InDegree[To];
  std::vector<unsigned> Predecessor(G.size(), 0);
  for (unsigned From = 0; From < G.size(); ++From)
    for (unsigned To : G.Successors[From])
      Predecessor[To] = From;
  // Whether To continues the chain that ends in From.
  auto Continues = [&](unsigned From, unsigned To) {
    return inChain(G.Kinds[From]) && inChain(G.Kinds[To]) &&
           G.Successors[From].size() == 1 && InDegree[To] == 1;
  };

  // Chains, each started at a node that continues none, in topological
  // order of their first nodes; only those holding a kernel are kept.
  std::vector<std::vector<unsigned>> Chains;
  for (unsigned First : Order) {
    if (!inChain(G.Kinds[First]) ||
        (InDegree[First] == 1 && Continues(Predecessor[First], First)))
      continue;
    std::vector<unsigned> Chain{First};
    while (G.Successors[Chain.back()].size() == 1 &&
           Continues(Chain.back(), G.Successors[Chain.back()][0]))
      Chain.push_back(G.Successors[Chain.back()][0]);
    bool HasKernel = std::any_of(Chain.begin(), Chain.end(), [&](unsigned N) {
      return G.Kinds[N] == NodeKind::Kernel;
    });
    if (HasKernel)
      Chains.push_back(std::move(Chain));
  }

  // A node inside a chain is reached only through the chain's first node,
  // so two chains may run side by side iff neither first node reaches the
  // other.
  Reach R(G, Order);
  std::vector<CoRunSet> Open;
  for (auto &Chain : Chains) {
    auto Beside = [&](const CoRunSet &S) {
      if (S.Chains.size() >= MaxChains)
        return false;
      return std::all_of(S.Chains.begin(), S.Chains.end(), [&](const auto &C) {
        return !R.reaches(C[0], Chain[0]) && !R.reaches(Chain[0], C[0]);
      });
    };
    auto Set = std::find_if(Open.begin(), Open.end(), Beside);
    if (Set == Open.end())
      Open.push_back(CoRunSet{{std::move(Chain)}});
    else
      Set->Chains.push_back(std::move(Chain));
  }
  std::vector<CoRunSet> Sets;
  for (CoRunSet &S : Open)
    if (S.Chains.size() >= 2)
      Sets.push_back(std::move(S));
  if (Sets.empty())
    Why = "no two branches with kernels may run side by side";
  return Sets;
}

std::vector<std::pair<unsigned, unsigned>> laneEdges(const CoRunSet &S,
                                                     const batch::Layout &L) {
  std::vector<std::pair<unsigned, unsigned>> Edges;
  for (const auto &Lane : L.Lanes)
    for (size_t I = 1; I < Lane.size(); ++I)
      Edges.emplace_back(S.Chains[Lane[I - 1]].back(),
                         S.Chains[Lane[I]].front());
  return Edges;
}

bool acyclicWith(const GraphShape &G,
                 const std::vector<std::pair<unsigned, unsigned>> &Extra) {
  std::vector<std::vector<unsigned>> Successors = G.Successors;
  for (auto [From, To] : Extra)
    Successors[From].push_back(To);
  std::vector<unsigned> Order;
  return topologicalOrder(Successors, Order);
}

} // namespace smc::graphs
