//===- Corpus.h - Library programs of the SMC corpus tests ------*- C++ -*-===//
//
// smc_corpus_tests runs kernels this project did not write (Thrust, CUB
// device-wide algorithms and CUB block primitives) through the SMC runtime.
// Each program of the corpus implements Program: it makes seeded integer
// inputs and their CPU reference, resets its buffers before each run, makes
// the library call on a given stream and compares the result with the
// reference exactly.  CorpusTest.cu runs every program under every policy,
// alone and next to a kernel that holds half of the SMs.
//
// Only .cu files of smc_corpus_tests include this header; they are compiled
// as CUDA with clang and the SMC plugin, so the library's launches go
// through the SMC runtime.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_GPU_CORPUS_CORPUS_H
#define SMC_TEST_GPU_CORPUS_CORPUS_H

#include "GpuTest.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace corpus {

using smctest::DeviceArray;

/// One library program.  The harness calls setUp() once, then for each run
/// prepare() and run() on the same stream, and check() after the stream is
/// idle.  prepare() must only enqueue work on the stream (the co-run starts
/// the co-runner in between); run() is the library call that is timed.
class Program {
public:
  virtual ~Program() = default;
  /// Makes the inputs and the CPU reference and allocates every device
  /// buffer (also the library's temporary storage), so that run() allocates
  /// nothing through cudaMalloc/cudaFree (cudaFree waits for the whole
  /// device, also for the co-runner).  Reports failures through gtest.
  virtual void setUp() = 0;
  /// Enqueues on \p S what puts the buffers into their pre-run state: the
  /// input of in-place algorithms copied back, outputs poisoned.
  virtual cudaError_t prepare(cudaStream_t S) = 0;
  /// The library call(s) on \p S.  Library calls that return a value to the
  /// host synchronize \p S (only \p S).
  virtual cudaError_t run(cudaStream_t S) = 0;
  /// Downloads the result and compares it with the CPU reference; \p When
  /// names the run in failure messages.
  virtual void check(const std::string &When) = 0;

  /// A message saying why the last run() failed beyond its CUDA status
  /// (e.g. the text of a Thrust exception); empty when there is none.
  std::string LastError;
};

struct ProgramEntry {
  std::string Name; ///< An identifier: letters, digits and '_'.
  std::function<std::unique_ptr<Program>()> Make;
};

/// The Thrust programs (ThrustPrograms.cu) and the CUB programs
/// (CubPrograms.cu).
std::vector<ProgramEntry> thrustPrograms();
std::vector<ProgramEntry> cubPrograms();

/// Byte written over every output before each run.
constexpr int kPoison = smctest::kPoison;

/// Enqueues a copy of \p Src into \p Dst (same size) on \p S.
template <typename T>
cudaError_t copyOnStream(const DeviceArray<T> &Dst, const DeviceArray<T> &Src,
                         cudaStream_t S) {
  return cudaMemcpyAsync(Dst.get(), Src.get(), Src.bytes(),
                         cudaMemcpyDeviceToDevice, S);
}

/// Enqueues poisoning \p Out on \p S.
template <typename T>
cudaError_t poisonOnStream(const DeviceArray<T> &Out, cudaStream_t S) {
  return cudaMemsetAsync(Out.get(), kPoison, Out.bytes(), S);
}

/// Downloads the first \p Count elements of \p Dev (synchronously).
template <typename T>
cudaError_t downloadPrefix(const DeviceArray<T> &Dev, size_t Count,
                           std::vector<T> &Host) {
  Host.resize(Count);
  if (Count == 0)
    return cudaSuccess;
  return cudaMemcpy(Host.data(), Dev.get(), Count * sizeof(T),
                    cudaMemcpyDeviceToHost);
}

/// Adds a failure naming \p What unless \p Actual equals \p Expected element
/// by element; the message gives the number of differing elements and the
/// first few of them.
template <typename T>
void expectEqualArrays(const std::vector<T> &Expected,
                       const std::vector<T> &Actual, const std::string &What) {
  if (Expected.size() != Actual.size()) {
    ADD_FAILURE() << What << ": " << Actual.size() << " elements, expected "
                  << Expected.size();
    return;
  }
  size_t Differing = 0;
  std::ostringstream Msg;
  for (size_t I = 0; I < Expected.size(); ++I) {
    if (Expected[I] == Actual[I])
      continue;
    if (Differing++ < 5)
      Msg << "\n  [" << I << "]: expected " << +Expected[I] << ", got "
          << +Actual[I];
  }
  if (Differing)
    ADD_FAILURE() << What << ": " << Differing << " of " << Expected.size()
                  << " elements differ from the CPU reference" << Msg.str();
}

/// A run with a CUDA status: fails (fatally) unless it is cudaSuccess, and
/// prints the program's LastError.
#define CORPUS_CUDA_ASSERT(Expr, Prog)                                         \
  do {                                                                         \
    cudaError_t CorpusErr_ = (Expr);                                           \
    ASSERT_EQ(CorpusErr_, cudaSuccess)                                         \
        << #Expr << ": " << cudaGetErrorName(CorpusErr_) << ": "               \
        << cudaGetErrorString(CorpusErr_) << " " << (Prog).LastError;          \
  } while (0)

} // namespace corpus

#endif // SMC_TEST_GPU_CORPUS_CORPUS_H
