//===- smc/graphs.h - Graph layouts: co-scheduling of CUDA graphs ---------===//
//
// Part of the public API of the SMC runtime (smc/smc.h includes it).  A
// CUDA graph states what may run side by side: kernel nodes with no path
// between them.  When a program instantiates a graph through code compiled
// with the SMC plugin, the runtime finds those sets of independent
// branches and, as the program replays the executable graph, measures
// layouts of them (which branches share one of two lanes and in which
// order, which kernels run in slices or as persistent workers at a share of
// every SM: the layouts of smc::Batch) against the graph as instantiated,
// and keeps the fastest only if it beats the original by 2%.  A layout is
// an executable graph of the runtime's, built from a copy of the program's
// graph with nodes replaced and edges added; the program's graph and
// executable graph are left unchanged.  docs/graphs.md is its manual.
//===----------------------------------------------------------------------===//
#ifndef SMC_GRAPHS_H
#define SMC_GRAPHS_H

#include <string>

// As the CUDA runtime declares it, so that code without CUDA headers can
// include smc/smc.h.
typedef struct CUgraphExec_st *cudaGraphExec_t;

namespace smc {

enum class GraphLayouts {
  // Replays run the executable graph as instantiated
  // (SMC_GRAPH_LAYOUTS=off).
  Off,
  // The first replays measure layouts; the fastest is kept if it beats the
  // graph as instantiated by 2% (SMC_GRAPH_LAYOUTS=search).
  Search,
  // Every replay runs a layout chosen at random, or the graph as
  // instantiated: a check that a program's results do not depend on the
  // layout (SMC_GRAPH_LAYOUTS=random).
  Random,
};

// Overrides SMC_GRAPH_LAYOUTS for graphs instantiated from now on.
void setGraphLayouts(GraphLayouts mode);

// What the runtime does with one executable graph's replays.
struct GraphLayoutReport {
  // The runtime lays out this graph's replays; else `reason` says why not.
  bool laidOut = false;
  std::string reason;
  // Sets of branches that may run side by side, and the branches in them.
  unsigned coRunSets = 0;
  unsigned branches = 0;
  // Replays through cudaGraphLaunch so far, and how many ran a layout
  // being measured.
  unsigned long long replays = 0;
  unsigned trials = 0;
  // The search is over: `layout` runs from now on ("original": the graph
  // as instantiated).
  bool settled = false;
  std::string layout;
  // Median replay times (ms, CUDA events around the graph launch) of the
  // graph as instantiated and of the layout kept (0 until measured).
  double originalMs = 0;
  double layoutMs = 0;
  // Executable graphs the runtime holds for this one now.
  unsigned executables = 0;
  // Times the settled search re-measured what it kept (every 2,048
  // replays: a kept layout that no longer wins is dropped; the graph as
  // instantiated, kept, whose replays drift by 10% is searched again).
  unsigned rechecks = 0;
};

// What the runtime knows of `exec`; false if the program did not
// instantiate it through the runtime (or has destroyed it).
bool graphLayoutReport(cudaGraphExec_t exec, GraphLayoutReport &report);

} // namespace smc

#endif // SMC_GRAPHS_H
