//===- GraphCases.h - The graphs smc_graph_bench replays --------*- C++ -*-===//
//
// What smc_graph_bench (graph_bench.cu, which describes the run) replays:
// CUDA graphs of independent branches made by stream capture, each case
// with the checks of its results.  A case captures its work through a
// BranchCapture (every branch forked from an origin stream and joined back
// into it), puts its buffers in the state a checked replay starts from and
// says whether the results of its checked replays are right.  The cases:
// the Kernelet mixes (KerneletGraphs.cu), fork-join graphs shaped like an
// inference step (ForkJoinGraphs.cu) and an iterative solver's step
// (SolverGraph.cu).  The captures and the base class: GraphCases.cu.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_GRAPHS_GRAPHCASES_H
#define SMC_BENCH_GRAPHS_GRAPHCASES_H

#include <cuda_runtime.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace smc::graphbench {

// The most branches a case's graph has (a co-run set of the runtime holds
// at most 8 chains: runtime/graphs/GraphShape.h).
constexpr unsigned MaxBranches = 8;

// Work a branch (or the join) enqueues on the stream it is given.
using StreamWork = std::function<void(cudaStream_t)>;

// Streams and events for stream captures of graphs of up to MaxBranches
// independent branches.
class BranchCapture {
public:
  // With CaptureOriginals, every launch made during a capture is captured
  // as the original kernel (policy original for every kernel), as a CUDA
  // program without SMC would capture it; otherwise each kernel's policy
  // (the default: its SM-centric variant) decides what is captured.  The
  // policies set for the capture are forgotten when it ends
  // (smc::clearPolicies), before the graph is instantiated: graph layouts
  // split only kernels whose policy at instantiation is not original
  // (docs/graphs.md).
  explicit BranchCapture(bool CaptureOriginals);
  ~BranchCapture();
  BranchCapture(const BranchCapture &) = delete;
  BranchCapture &operator=(const BranchCapture &) = delete;

  // A graph of Branches.size() branches with no path between them: the
  // origin stream begins a capture and records an event, branch I's stream
  // waits on it and runs Branches[I], the origin waits on each branch's end
  // event, then runs Join (if any), and the capture ends.
  cudaGraph_t capture(const std::vector<StreamWork> &Branches,
                      const StreamWork &Join = nullptr);

private:
  bool CaptureOriginals;
  cudaStream_t Origin = nullptr;
  cudaStream_t Streams[MaxBranches] = {};
  cudaEvent_t Fork = nullptr;
  cudaEvent_t Ends[MaxBranches] = {};
};

// One graph the benchmark replays.  check() and keepReference() return ""
// when the results are right, else what is wrong.
class GraphCase {
public:
  GraphCase(std::string Name, std::string Kind)
      : Name(std::move(Name)), Kind(std::move(Kind)) {}
  virtual ~GraphCase();
  GraphCase(const GraphCase &) = delete;
  GraphCase &operator=(const GraphCase &) = delete;

  const std::string &name() const { return Name; }
  // "kernelet", "forkjoin" or "solver".
  const std::string &kind() const { return Kind; }

  // The case's work as a graph of independent branches (its buffers set
  // up on the first call).
  virtual cudaGraph_t capture(BranchCapture &Capture) = 0;
  // Queues on Stream what puts the buffers in the state a checked replay
  // starts from: outputs poisoned (0xFF bytes), a solver at its start.
  virtual void prepareCheck(cudaStream_t Stream) = 0;
  // Replays in one checked run: 1, or a solver's steps (Replays).
  virtual unsigned checkReplays(unsigned Replays) {
    (void)Replays;
    return 1;
  }
  // After the checked replays of the graph as instantiated (layouts off):
  // keeps their results as the reference of check() and says whether they
  // are plausible (every output written; a CPU reference where the case
  // has one).
  virtual std::string keepReference() = 0;
  // After the checked replays of another executable graph of the same
  // graph: whether its results are those of the reference.
  virtual std::string check() = 0;

  // --batch: whether the case's work can also run as an smc::Batch.
  virtual bool hasBatch() const { return false; }
  // Runs the case's work once as an smc::Batch in Mode::Search and returns
  // its makespan in ms; *Layout is Batch::describe(), *HostUs the host time
  // of Batch::run.
  virtual double runBatch(std::string *Layout, double *HostUs) {
    (void)Layout;
    (void)HostUs;
    return 0;
  }

private:
  std::string Name, Kind;
};

using GraphCaseList = std::vector<std::unique_ptr<GraphCase>>;

// The eight mixes of smc_kernelet_bench, one workload per branch.
GraphCaseList kerneletCases();
// Fork-join graphs of small GEMMs, elementwise maps and reductions.
GraphCaseList forkJoinCases();
// One step of an iterative solver of two independent halves.
GraphCaseList solverCases();

// "" if Got and Want hold the same bytes, else where they first differ
// (element size ElementBytes), named What.
std::string compareBits(const void *Got, const void *Want, size_t Bytes,
                        size_t ElementBytes, const std::string &What);
// "" if no element of Values is NaN (an element no kernel wrote keeps the
// 0xFF poison: NaN), else the first such element, named What.
std::string findNaN(const std::vector<float> &Values, const std::string &What);

} // namespace smc::graphbench

#endif // SMC_BENCH_GRAPHS_GRAPHCASES_H
