//===- ChunksOnAnSm.cuh - Chunks that count who runs beside them -*- CUDA
//-*-===//
//
// The body of the best-effort kernels of ReserveTest, TenantsTest and
// LatencyTargetTest, which measure room by the most chunks that ran at once
// on one SM: each chunk counts itself (Counts, and Started when not null)
// and the chunks running on its SM with it, records the most it saw in
// MostRunning, and spins for Nanoseconds of %globaltimer.  Each test keeps a
// kernel of its own (its policies are set per kernel).  chunksBeside says
// how many such chunks leave room for a reserved CTA.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_GPU_CHUNKSONANSM_CUH
#define SMC_TEST_GPU_CHUNKSONANSM_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

__device__ inline void countChunksOnAnSm(uint32_t *Counts, uint32_t *Running,
                                         uint32_t *MostRunning,
                                         uint32_t *Started,
                                         unsigned long long Nanoseconds) {
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  uint32_t Sm = __nvvm_read_ptx_sreg_smid();
  if (threadIdx.x == 0) {
    atomicAdd(&Counts[blockIdx.x], 1u);
    if (Started)
      atomicAdd(Started, 1u);
    atomicMax(&MostRunning[Sm], atomicAdd(&Running[Sm], 1u) + 1u);
  }
  while (__nvvm_read_ptx_sreg_globaltimer() - Begin < Nanoseconds) {
  }
  __syncthreads();
  if (threadIdx.x == 0)
    atomicSub(&Running[Sm], 1u);
}

// The most 128-thread chunks, of `Fit` to an SM, that share an SM with a
// reserved CTA of `ReservedThreads` threads (threads bind in these tests);
// -1 when CUDA cannot say.
inline int chunksBeside(int Fit, int ReservedThreads) {
  int MaxThreads = 0;
  if (cudaDeviceGetAttribute(&MaxThreads,
                             cudaDevAttrMaxThreadsPerMultiProcessor,
                             0) != cudaSuccess)
    return -1;
  return std::min(Fit, (MaxThreads - ReservedThreads) / 128);
}

#endif // SMC_TEST_GPU_CHUNKSONANSM_CUH
