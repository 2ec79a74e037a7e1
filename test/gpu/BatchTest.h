//===- BatchTest.h - The fixture of the smc::Batch tests --------*- C++ -*-===//
//
// What the smc::Batch tests (BatchTest.cu, BatchModesTest.cu,
// BatchPlacementTest.cu) share: the program they record - three streams of
// chains of kernels, 1-D and 2-D grids, with work queued on a stream before
// the batch that its first launch depends on - its outputs as the launches
// give them one by one, and the Kernelet model's plan of a recorded batch
// (bench/kernelet; only where smc_gpu_tests is built with the benchmarks,
// SMC_KERNELET_MODEL).  The fixture's methods and the program's kernels are
// in BatchTest.cu.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_GPU_BATCHTEST_H
#define SMC_TEST_GPU_BATCHTEST_H

#include "GpuTest.h"
#include "measure/KernelProfile.h"

#include <string>
#include <vector>

namespace smctest {

constexpr unsigned kN = 1u << 20; // elements of the 1-D chains
constexpr unsigned kScaleBlock = 256;
constexpr unsigned kWidth = 1024, kHeight = 512; // the 2-D chain
const dim3 kHashBlock(32, 8);
const dim3 kHashGrid(kWidth / 32, kHeight / 8);
constexpr unsigned kRounds = 2000;

constexpr const char *kNoModel =
    "built without the benchmarks: no Kernelet model (bench/kernelet)";

class BatchTest : public SmcGpuTest {
protected:
  void SetUp() override;
  void TearDown() override;
  static dim3 scaleGrid() { return dim3(kN / kScaleBlock); }

  // The program: stream 0 scales twice (A1, then A2 from A1); stream 1
  // hashes twice (H1, then H2 from H1); stream 2 adds a word that a kernel
  // queued before the batch writes late.
  void launchProgram();
  void launchRecorded();
  // Every output buffer, read through the streams (not a device-wide
  // synchronization), after clearing them.
  std::vector<Bytes> outputs();
  void clearOutputs();
  // The outputs of the program run one launch at a time, originals.
  std::vector<Bytes> expected();
  void record(smc::Batch &B);
  // What Batch::Mode::Kernelet ran before the Kernelet model left the
  // runtime: the model's greedy plan of B's recorded launches
  // (bench/kernelet; the issue profiles of Set, for the launches the
  // runtime found profiles of), to run as B.run(Runs), and its predicted
  // makespan.  False where smc_gpu_tests is built without the benchmarks,
  // which build the model.
  bool kerneletPlan(const smc::Batch &B,
                    std::vector<smc::Batch::SliceRun> &Runs,
                    double *Predicted = nullptr);
  void expectOutputs(const std::vector<Bytes> &Expected);

  cudaStream_t Streams[3] = {};
  DeviceArray<uint32_t> In, A1, A2, H1, H2, W1, Word;
  smc::ProfileSet Set; // the issue profiles, written to Profiles
  TempFile Profiles;
};

} // namespace smctest

#endif // SMC_TEST_GPU_BATCHTEST_H
