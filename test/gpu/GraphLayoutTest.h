//===- GraphLayoutTest.h - Fixture of the graph layout tests ----*- C++ -*-===//
//
// What the graph layout tests (GraphLayoutTest.cu, GraphLayoutOrderTest.cu,
// GraphLayoutFallbackTest.cu) share: four streams to capture on, the
// program they capture - four independent branches of 1-D and 2-D kernels,
// with a memset at the head of one and a device-to-device copy inside
// another - and its outputs; executable graphs instantiated under a mode
// of smc::setGraphLayouts and destroyed with the test; and the check that
// replays of an executable graph leave the outputs that a replay of one
// instantiated in Off mode leaves, bit for bit.  The fixture's methods and
// the program's kernels are in GraphLayoutTest.cu.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_GPU_GRAPHLAYOUTTEST_H
#define SMC_TEST_GPU_GRAPHLAYOUTTEST_H

#include "GpuTest.h"

#include <cudaTypedefs.h>

#include <string>
#include <vector>

namespace smctest {

constexpr unsigned kLayoutN = 1u << 19; // elements of every buffer
constexpr unsigned kLayoutWidth = 2048; // the 2-D kernels' rows
const dim3 kLayoutHashBlock(32, 8);
const dim3 kLayoutHashGrid(kLayoutWidth / 32, kLayoutN / kLayoutWidth / 8);

/// An output buffer of a graph, with the name failures give it.
struct LayoutOutput {
  std::string Name;
  const DeviceArray<uint32_t> *Array;
};
using LayoutOutputs = std::vector<LayoutOutput>;

/// The buffers the program's branches write: three per branch.
struct LayoutProgram {
  DeviceArray<uint32_t> Out[4][3];
  /// The outputs of the branches in \p Mask (bit b: branch b).
  LayoutOutputs outputs(unsigned Mask = 0xF) const;
};

/// One line of \p R, for failure messages.
std::string reportLine(const smc::GraphLayoutReport &R);

class GraphLayoutTest : public SmcGpuTest {
protected:
  static constexpr unsigned kStreams = 4;

  void SetUp() override;
  void TearDown() override;

  void allocate(LayoutProgram &P);
  /// Begins a global-mode capture on Streams[0] and forks Streams[1] to
  /// Streams[Count - 1] from it.
  void beginCapture(unsigned Count);
  /// Makes Streams[1..Count-1] wait for what Streams[0] captured so far.
  void fork(unsigned Count);
  /// Makes Streams[0] wait for what Streams[1..Count-1] captured so far.
  void join(unsigned Count);
  /// Joins Streams[1..Count-1] and ends the capture into \p Graph, which
  /// the fixture destroys.
  void endCapture(unsigned Count, cudaGraph_t &Graph);
  /// Inside a capture begun with 4 streams: branch b of the program on
  /// Streams[b], for the bits b of \p Mask, writing \p P.
  void launchBranches(const LayoutProgram &P, unsigned Mask = 0xF);
  /// The program's branches of \p Mask, captured.
  void captureProgram(cudaGraph_t &Graph, const LayoutProgram &P,
                      unsigned Mask = 0xF);
  /// A graph the fixture destroys.
  void own(cudaGraph_t Graph) { Graphs.push_back(Graph); }

  /// Instantiates \p Graph under \p Mode; the fixture destroys it.
  void instantiate(cudaGraphExec_t &Exec, cudaGraph_t Graph,
                   smc::GraphLayouts Mode);
  void destroy(cudaGraphExec_t Exec);
  /// smc::graphLayoutReport, which must know \p Exec.
  void report(cudaGraphExec_t Exec, smc::GraphLayoutReport &R);

  /// Writes kPoison over the outputs and waits for it.
  void poison(const LayoutOutputs &Outs);
  void download(const LayoutOutputs &Outs, std::vector<Bytes> &Results);
  /// Fails unless every byte of the outputs is still kPoison.
  void expectUntouched(const LayoutOutputs &Outs, const std::string &When);
  /// The outputs after one replay of \p Graph instantiated in Off mode,
  /// poisoned before.  That executable graph is destroyed before this
  /// returns: a graph of memory nodes may have one at a time.  Fails if it
  /// left an output entirely poisoned (the comparison would prove nothing).
  void referenceReplay(cudaGraph_t Graph, const LayoutOutputs &Outs,
                       std::vector<Bytes> &Reference);
  /// Replays \p Exec \p Replays times on Streams[0], each on poisoned
  /// outputs, and requires the outputs equal to \p Reference after each;
  /// stops at the first replay that differs.
  void expectReplaysMatch(cudaGraphExec_t Exec, const LayoutOutputs &Outs,
                          const std::vector<Bytes> &Reference,
                          unsigned Replays);

  cudaStream_t Streams[kStreams] = {};
  cudaEvent_t Joins[kStreams] = {};
  DeviceArray<uint32_t> In;
  std::vector<uint32_t> InHost;
  std::vector<cudaGraphExec_t> Execs;
  std::vector<cudaGraph_t> Graphs;
};

} // namespace smctest

#endif // SMC_TEST_GPU_GRAPHLAYOUTTEST_H
