//===- GraphShape.h - What of a CUDA graph may run side by side -*- C++ -*-===//
//
// A graph's nodes and edges as pure logic (no CUDA), and the sets of its
// branches that may run side by side.  A chain is a run of nodes that can
// only run one after the other: each node after the first has exactly one
// predecessor, the node before it, which has exactly one successor.  Only
// kernel, memset, memcpy and child-graph nodes form chains; every other
// node (host, event, empty, memory, conditional) is a barrier that no
// layout moves.  Two chains may run side by side when no path joins them.
// A co-run set is a group of such chains, each holding a kernel: the
// branches a layout places on smc::Batch's two lanes (batch/LayoutSearch.h:
// the chains are its streams).  A lane's chains run one after the other
// through an added edge from each chain's last node to the next one's
// first, so a layout never joins what the graph keeps apart the other way.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_GRAPHS_GRAPHSHAPE_H
#define SMC_RUNTIME_GRAPHS_GRAPHSHAPE_H

#include "batch/LayoutSearch.h"

#include <string>
#include <utility>
#include <vector>

namespace smc::graphs {

enum class NodeKind { Kernel, Memset, Memcpy, Child, Barrier };

struct GraphShape {
  std::vector<NodeKind> Kinds;
  std::vector<std::vector<unsigned>> Successors;

  unsigned size() const { return unsigned(Kinds.size()); }
  unsigned addNode(NodeKind Kind);
  void addEdge(unsigned From, unsigned To);
};

// The most nodes a graph may have for coRunSets (reachability is a bit
// matrix: 4096 nodes take 2 MiB).
constexpr unsigned MaxGraphNodes = 4096;
// The most chains in one co-run set (the layout search's streams).
constexpr unsigned MaxChainsPerSet = 8;

struct CoRunSet {
  std::vector<std::vector<unsigned>> Chains; // node indices, in run order
};

// The co-run sets of G, in the order of their first chains' first nodes in
// a topological order: chains taken in that order, each joining the first
// open set all of whose chains it may run beside (while the set has fewer
// than MaxChains), else opening one; sets of one chain are dropped.  Empty
// with Why set when G is cyclic or larger than MaxGraphNodes.
std::vector<CoRunSet> coRunSets(const GraphShape &G, std::string &Why,
                                unsigned MaxChains = MaxChainsPerSet);

// The edges that put S's chains on L's lanes (L's streams are S's chains):
// from each chain's last node to the first node of the next chain on its
// lane.
std::vector<std::pair<unsigned, unsigned>> laneEdges(const CoRunSet &S,
                                                     const batch::Layout &L);

// Whether G with Extra edges added has no cycle.
bool acyclicWith(const GraphShape &G,
                 const std::vector<std::pair<unsigned, unsigned>> &Extra);

} // namespace smc::graphs

#endif // SMC_RUNTIME_GRAPHS_GRAPHSHAPE_H
