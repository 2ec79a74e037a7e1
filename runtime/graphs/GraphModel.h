//===- GraphModel.h - A program's graph, and its layouts built -*- C++ -*-===//
//
// What the runtime keeps of a graph the program instantiated: a copy of it
// (the program may change or destroy its own), its shape (GraphShape.h),
// and for each co-run set what smc::Batch's plans know of the set's nodes
// (batch/RecordedLaunches.h: each chain is a stream).  build() makes an
// executable graph of the copy with a layout applied to each set: a
// kernel node the layout runs in slices or as workers becomes a child-graph
// node holding those launches, captured through the runtime's launch path
// (batch's launchRun); a lane's chains get edges that chain them.  Kernel
// nodes of kernels whose policy is `original`, of kernels the runtime did
// not launch, or of other variants, and memset, memcpy and child-graph
// nodes stay as they are (a layout may order them on a lane).
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_GRAPHS_GRAPHMODEL_H
#define SMC_RUNTIME_GRAPHS_GRAPHMODEL_H

#include "batch/RecordedLaunches.h"
#include "graphs/GraphShape.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace smc::graphs {

// One co-run set and what the runtime knows of its chains' nodes.
struct SetFacts {
  CoRunSet Set;
  // One per chain node, chain by chain, each chain in run order; a node
  // that stays as it is has Kind OpKind::Memset (one whole unit).
  std::vector<RecordedLaunch> Launches;
  std::vector<unsigned> NodeOf; // Launches[i]'s node in the shape
  Facts F;                      // F.Pending[i].Stream: its chain
};

// A layout per co-run set; none: the set as instantiated.
using GraphLayout = std::vector<std::optional<batch::Layout>>;

class GraphModel {
public:
  // Reads Graph; null with Why when the runtime cannot lay it out.
  static std::unique_ptr<GraphModel> read(cudaGraph_t Graph, std::string &Why);
  ~GraphModel();
  GraphModel(const GraphModel &) = delete;
  GraphModel &operator=(const GraphModel &) = delete;

  const std::vector<SetFacts> &sets() const { return Sets; }
  unsigned branches() const;
  // Whether L's lane edges keep the graph acyclic.
  bool acyclic(const GraphLayout &L) const;
  // An executable graph of the copy with L applied, instantiated with
  // Flags; null with Error.
  cudaGraphExec_t build(const GraphLayout &L, unsigned long long Flags,
                        std::string &Error) const;
  // "set 0: lane 0: 0 2s | lane 1: 1w 3; set 1: as instantiated"
  static std::string text(const GraphLayout &L);

private:
  GraphModel() = default;
  // The nodes (Nodes: Graph's until read() maps them into the copy), their
  // kinds and edges; false with Why for a graph the runtime refuses.
  bool readNodes(CUgraph Graph, std::string &Why);
  bool readSet(SetFacts &S, std::string &Why);

  CUgraph Copy = nullptr;
  std::vector<CUgraphNode> Nodes; // by shape index
  GraphShape Shape;
  std::vector<SetFacts> Sets;
};

} // namespace smc::graphs

#endif // SMC_RUNTIME_GRAPHS_GRAPHMODEL_H
