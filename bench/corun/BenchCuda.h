//===- BenchCuda.h - CUDA helpers of the co-run benchmarks ------*- C++ -*-===//
//
// Shared by smc_qos_bench (qos.cu) and smc_corun_bench (corun.cu): the time
// between two recorded events and the streams of the device's lowest and
// highest priority.  CUDA errors throw std::runtime_error naming the call
// (SMC_CUDA_CHECK of the workload suite, CudaSupport.cuh).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_BENCHCUDA_H
#define SMC_BENCH_CORUN_BENCHCUDA_H

#include "CudaSupport.cuh"

#include <cuda_runtime.h>

namespace smc::corun {

// Milliseconds from Begin to End, both recorded and complete.
inline double elapsedMs(cudaEvent_t Begin, cudaEvent_t End) {
  float Ms = 0;
  SMC_CUDA_CHECK(cudaEventElapsedTime(&Ms, Begin, End));
  return Ms;
}

// Non-blocking streams at the device's lowest (the default) and highest
// stream priority.
struct PriorityStreams {
  cudaStream_t Low = nullptr, High = nullptr;
};
inline PriorityStreams createPriorityStreams() {
  int Least = 0, Greatest = 0;
  SMC_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&Least, &Greatest));
  PriorityStreams S;
  SMC_CUDA_CHECK(
      cudaStreamCreateWithPriority(&S.Low, cudaStreamNonBlocking, Least));
  SMC_CUDA_CHECK(
      cudaStreamCreateWithPriority(&S.High, cudaStreamNonBlocking, Greatest));
  return S;
}

} // namespace smc::corun

#endif // SMC_BENCH_CORUN_BENCHCUDA_H
