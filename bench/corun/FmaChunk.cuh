//===- FmaChunk.cuh - A compute-bound CTA of calibrated length --*- CUDA
//-*-===//
//
// The body of the compute-bound kernels of smc_qos_bench (QosModes.cu),
// smc_tail_bench's urgent kernel (TailBench.cu) and the beside-workers probe
// (bench/probes/beside_workers.cu): two chains of Iterations
// dependent FMAs per thread, whose length the benchmarks calibrate.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_FMACHUNK_CUH
#define SMC_BENCH_CORUN_FMACHUNK_CUH

__device__ __forceinline__ void fmaChunk(int Iterations, float *Sink) {
  float X = threadIdx.x * 1e-3f, Y = X + 1.0f;
#pragma unroll 4
  for (int I = 0; I < Iterations; ++I) {
    X = fmaf(X, 0.9999f, 0.5f);
    Y = fmaf(Y, 0.9998f, 0.25f);
  }
  __syncthreads();
  if (X + Y == 12345.0f) // never true; keeps the chains
    Sink[blockIdx.x] = X;
}

#endif // SMC_BENCH_CORUN_FMACHUNK_CUH
