//===- divergent_barrier.cu - One barrier instruction, lanes from two calls
//===//
//
// A probe, compiled without the plugin, of what drained exits rely on
// (passes/DrainedExits.cpp): the lanes of one warp may reach the same
// non-.aligned barrier.red.popc (PTX: allowed in divergent code on sm_70
// and later) from two call sites of one noinline function, and every
// barrier instance still waits for every thread of the CTA.  Each of 264
// CTAs of 256 threads passes values around a ring in shared memory through
// 1000 pairs of barrier instances; an instance that let a thread through
// early would show as wrong values.  Runs the exchange with every lane
// calling from one site, then with the lanes of each warp split between two
// sites, and checks both against the CPU.  Exit status 1 if a value is
// wrong.  Under `compute-sanitizer --tool synccheck` the split run is
// reported ("Barrier error detected. Divergent thread(s) in block") and
// aborted, although it is right without the tool
// (docs/results/drained-exits.md).
// Build target smc_divergent_barrier; run build/bench/smc_divergent_barrier.
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

__device__ __noinline__ unsigned barrierCount(unsigned inBody) {
  unsigned count;
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; "
               "barrier.red.popc.u32 %0, 0, p; }"
               : "=r"(count)
               : "r"(inBody)
               : "memory");
  return count;
}

constexpr int Threads = 256;

__global__ void ring(int *out, int rounds, int split) {
  __shared__ int slot[Threads];
  int t = threadIdx.x, v = t;
  for (int i = 0; i < rounds; ++i) {
    slot[t] = v;
    if (split && (t & 1)) // odd and even lanes at two call sites
      barrierCount(1);
    else
      barrierCount(1);
    v = slot[(t + 1 + i) % Threads] + 1;
    if (split && (t & 2))
      barrierCount(1);
    else
      barrierCount(1);
  }
  out[blockIdx.x * Threads + t] = v;
}

int main() {
  const int rounds = 1000, blocks = 264;
  std::vector<int> want(Threads), before(Threads);
  for (int t = 0; t < Threads; ++t)
    want[t] = t;
  for (int i = 0; i < rounds; ++i) {
    before = want;
    for (int t = 0; t < Threads; ++t)
      want[t] = before[(t + 1 + i) % Threads] + 1;
  }
  int *d = nullptr;
  if (cudaMalloc(&d, blocks * Threads * sizeof(int)) != cudaSuccess) {
    std::printf("no GPU memory\n");
    return 2;
  }
  int status = 0;
  for (int split = 0; split < 2; ++split) {
    ring<<<blocks, Threads>>>(d, rounds, split);
    cudaError_t err = cudaDeviceSynchronize();
    std::vector<int> got(blocks * Threads, -1);
    cudaMemcpy(got.data(), d, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < Threads; ++t)
        wrong += got[b * Threads + t] != want[t];
    std::printf("%s: %s, %d of %d values wrong\n",
                split ? "lanes of each warp at two call sites"
                      : "every lane at one call site",
                cudaGetErrorString(err), wrong, blocks * Threads);
    if (err != cudaSuccess || wrong)
      status = 1;
  }
  cudaFree(d);
  return status;
}
