//===- CudaSupport.cuh - CUDA error checks and device buffers --*- CUDA -*-===//
//
// SMC_CUDA_CHECK wraps every CUDA runtime call of the workloads: on failure
// it throws std::runtime_error naming file, line, call and CUDA's message.
// DeviceBuffer<T> owns one device allocation; checkExactFloatOutput and
// checkSampledRowsOutput are the two common forms of a workload's check().
// Included by the .cu files only.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_CUDASUPPORT_CUH
#define SMC_BENCH_WORKLOADS_CUDASUPPORT_CUH

#include "Check.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace smc {
namespace workloads {

[[noreturn]] inline void throwCudaError(cudaError_t err, const char *call,
                                        const char *file, int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) +
                           ": " + call + ": " + cudaGetErrorName(err) + ": " +
                           cudaGetErrorString(err));
}

inline void cudaCheck(cudaError_t err, const char *call, const char *file,
                      int line) {
  if (err != cudaSuccess)
    throwCudaError(err, call, file, line);
}

#define SMC_CUDA_CHECK(call)                                                   \
  ::smc::workloads::cudaCheck((call), #call, __FILE__, __LINE__)
// After a <<<>>> launch: reports launch-configuration errors.
#define SMC_CUDA_CHECK_LAUNCH()                                                \
  ::smc::workloads::cudaCheck(cudaGetLastError(), "kernel launch", __FILE__,   \
                              __LINE__)

inline unsigned ceilDiv(size_t a, size_t b) {
  return static_cast<unsigned>((a + b - 1) / b);
}

template <typename T> class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { release(); }

  // Allocates `n` elements (contents undefined), freeing any earlier ones.
  void allocate(size_t n) {
    release();
    if (n)
      SMC_CUDA_CHECK(
          cudaMalloc(reinterpret_cast<void **>(&ptr), n * sizeof(T)));
    count = n;
  }
  // Allocates host.size() elements and copies `host` in.
  void upload(const std::vector<T> &host) {
    allocate(host.size());
    if (count)
      SMC_CUDA_CHECK(
          cudaMemcpy(ptr, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  // Copies the whole buffer out (synchronous).
  void download(std::vector<T> &host) const {
    host.resize(count);
    if (count)
      SMC_CUDA_CHECK(
          cudaMemcpy(host.data(), ptr, bytes(), cudaMemcpyDeviceToHost));
  }
  // 0xFF in every byte: NaN for floats, all ones for integers.
  void poison(cudaStream_t stream) {
    if (count)
      SMC_CUDA_CHECK(cudaMemsetAsync(ptr, 0xFF, bytes(), stream));
  }
  void zero(cudaStream_t stream) {
    if (count)
      SMC_CUDA_CHECK(cudaMemsetAsync(ptr, 0, bytes(), stream));
  }
  void release() {
    if (ptr)
      cudaFree(ptr); // never throws from a destructor
    ptr = nullptr;
    count = 0;
  }

  T *get() const { return ptr; }
  size_t size() const { return count; }
  size_t bytes() const { return count * sizeof(T); }

private:
  T *ptr = nullptr;
  size_t count = 0;
};

// check() starts with this: the outputs of work queued on any stream are
// complete before they are copied back.
inline void waitForDevice() { SMC_CUDA_CHECK(cudaDeviceSynchronize()); }

// The check() of a workload whose one float output `out` is compared in full
// with an exact reference (compareExactFloat); computeReference(reference)
// fills the reference on first use, and it is kept.
template <typename ComputeReference>
CheckResult checkExactFloatOutput(const DeviceBuffer<float> &out,
                                  std::vector<double> &reference,
                                  ComputeReference computeReference,
                                  const std::string &what) {
  waitForDevice();
  std::vector<float> got;
  out.download(got);
  if (reference.empty())
    computeReference(reference);
  return compareExactFloat(got.data(), reference.data(), got.size(), what);
}

// The check() of a workload whose one output `out` is a row-major float
// matrix of `numRows` rows of `rowLength`: on first use (either of `rows`
// and `reference` empty, as setup() leaves one of them) `rows` becomes
// sampleIndices(numRows, sampleCount, sampleSeed) and
// computeReference(rows, reference) fills their reference, both kept; then
// compareSampledRows.
template <typename ComputeReference>
CheckResult checkSampledRowsOutput(const DeviceBuffer<float> &out,
                                   size_t numRows, size_t rowLength,
                                   size_t sampleCount, uint64_t sampleSeed,
                                   std::vector<size_t> &rows,
                                   std::vector<double> &reference,
                                   ComputeReference computeReference,
                                   const std::string &what) {
  waitForDevice();
  std::vector<float> got;
  out.download(got);
  if (rows.empty() || reference.empty()) {
    rows = sampleIndices(numRows, sampleCount, sampleSeed);
    computeReference(rows, reference);
  }
  return compareSampledRows(got, rowLength, rows, reference, what);
}

} // namespace workloads
} // namespace smc

#endif // SMC_BENCH_WORKLOADS_CUDASUPPORT_CUH
