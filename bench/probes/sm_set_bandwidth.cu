//===- sm_set_bandwidth.cu - Copy bandwidth of 32 workers on different SMs ===//
//
// A probe, compiled without the plugin: does it matter WHICH SMs a
// bandwidth-bound kernel's few workers run on?  The question came from mvt
// and atax, whose 32 chunks the interleaved chunk order puts on SMs 0-31
// while the hardware spreads 32 CTAs differently.  Prints the %smid the
// hardware gives each CTA of a 32-CTA launch, then the best of 5 times of a
// 1 GiB copy by one persistent 1024-thread worker on each SM of a set (SMs
// 0-31, every 4th, the last 32, the hardware's 32, 16 SMs, ...), twice.
// Then the same for the access pattern of mvt_kernel2 (colSum).
// Build target smc_sm_set_bandwidth; run build/bench/smc_sm_set_bandwidth.
// docs/results/hardware.md has an H100 result.
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>
__device__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
__global__ void where(unsigned *out) {
  if (threadIdx.x == 0)
    out[blockIdx.x] = smid();
}
// Persistent copy: CTAs whose SM is in the mask and which are the first on
// their SM take row blocks from a counter.
__global__ void copyRows(const float4 *in, float4 *out, size_t rows,
                         size_t rowLen, const unsigned char *mask,
                         unsigned *claimSM, unsigned *next) {
  __shared__ unsigned row, ok;
  if (threadIdx.x == 0) {
    unsigned s = smid();
    ok = mask[s] && atomicAdd(&claimSM[s], 1u) == 0;
  }
  __syncthreads();
  if (!ok)
    return;
  for (;;) {
    if (threadIdx.x == 0)
      row = atomicAdd(next, 1u);
    __syncthreads();
    unsigned r = row;
    __syncthreads();
    if (r >= rows)
      return;
    for (size_t i = threadIdx.x; i < rowLen; i += blockDim.x)
      out[r * rowLen + i] = in[r * rowLen + i];
  }
}
// The access pattern of mvt_kernel2: each of 32 CTAs of 256 threads sums one
// 256-column stripe of an n x n matrix over all rows (coalesced rows, one
// row of 32 KB per iteration across the CTAs).  colSumPlain is launched with
// 32 CTAs where the hardware puts them; colSumOnSet runs the 32 stripes on
// the first CTA of each SM of a set, one stripe per CTA, as __smc's
// interleaved queues do.
__device__ void colSum(const float *a, const float *y, float *out, int n,
                       unsigned stripe) {
  unsigned i = stripe * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int j = 0; j < n; ++j)
    sum += a[size_t(j) * n + i] * y[j];
  out[i] = sum;
}
__global__ void colSumPlain(const float *a, const float *y, float *out, int n) {
  colSum(a, y, out, n, blockIdx.x);
}
__global__ void colSumOnSet(const float *a, const float *y, float *out, int n,
                            const unsigned char *mask, unsigned *claimSM,
                            unsigned *next, unsigned stripes, unsigned delay) {
  __shared__ unsigned stripe;
  if (threadIdx.x == 0) {
    unsigned s = smid();
    stripe =
        mask[s] && atomicAdd(&claimSM[s], 1u) == 0 ? atomicAdd(next, 1u) : ~0u;
    // Start stripe k k * delay cycles late: do staggered starts cost?
    if (stripe < stripes && delay) {
      long long until = clock64() + (long long)stripe * delay;
      while (clock64() < until)
        ;
    }
  }
  __syncthreads();
  if (stripe < stripes)
    colSum(a, y, out, n, stripe);
}

int main() {
  int n;
  cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0);
  unsigned *o;
  cudaMallocManaged(&o, 4 * 64);
  where<<<32, 64>>>(o);
  cudaDeviceSynchronize();
  printf("32-CTA launch smids:");
  for (int i = 0; i < 32; i++)
    printf(" %u", o[i]);
  printf("\n");
  size_t rows = 4096, rowLen = 16384; // 1 GiB of float4
  float4 *in, *out;
  cudaMalloc(&in, rows * rowLen * 16);
  cudaMalloc(&out, rows * rowLen * 16);
  cudaMemset(in, 1, rows * rowLen * 16);
  unsigned char *mask;
  unsigned *claim, *next;
  cudaMallocManaged(&mask, n);
  cudaMalloc(&claim, 4 * n);
  cudaMalloc(&next, 4);
  // The SMs the hardware gave the 32-CTA launch.
  auto hardwareSet = [o](int s) {
    for (int i = 0; i < 32; i++)
      if (o[i] == (unsigned)s)
        return 1;
    return 0;
  };
  // The best of 5 times of launch(), with the mask set to inSet and the
  // claim counters cleared before each.
  auto bestOf5 = [&](auto inSet, auto launch) {
    for (int s = 0; s < n; s++)
      mask[s] = inSet(s);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    float best = 1e9;
    for (int r = 0; r < 5; r++) {
      cudaMemset(claim, 0, 4 * n);
      cudaMemset(next, 0, 4);
      cudaEventRecord(a);
      launch();
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms;
      cudaEventElapsedTime(&ms, a, b);
      if (ms < best)
        best = ms;
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return best;
  };
  auto run = [&](const char *name, auto inSet) {
    float best = bestOf5(inSet, [&] {
      copyRows<<<n * 8, 1024>>>(in, out, rows, rowLen, mask, claim, next);
    });
    printf("%-28s %8.3f ms  %7.1f GB/s\n", name, best,
           2.0 * rows * rowLen * 16 / best / 1e6);
  };
  for (int round = 0; round < 2; round++) {
    run("all SMs", [](int) { return 1; });
    run("SMs 0-31", [](int s) { return s < 32; });
    run("SMs 0,4,..,124", [](int s) { return s % 4 == 0 && s < 128; });
    run("SMs 100-131", [n](int s) { return s >= n - 32; });
    run("SMs 0,2,..,62", [](int s) { return s % 2 == 0 && s < 64; });
    run("SMs 0-15", [](int s) { return s < 16; });
    run("SMs 0,8,..,120", [](int s) { return s % 8 == 0; });
    run("hw 32-CTA smids", hardwareSet);
  }
  // mvt_kernel2's pattern, n = 8192 (256 MiB), the same sets.
  int n2 = 8192;
  float *a2 = reinterpret_cast<float *>(in),
        *y2 = reinterpret_cast<float *>(out);
  float *out2;
  cudaMalloc(&out2, 4 * n2);
  auto runCol = [&](const char *name, auto inSet, unsigned delay = 0) {
    float best = bestOf5(inSet, [&] {
      if (inSet(-1))
        colSumPlain<<<n2 / 256, 256>>>(a2, y2, out2, n2);
      else
        colSumOnSet<<<n * 8, 256>>>(a2, y2, out2, n2, mask, claim, next,
                                    n2 / 256, delay);
    });
    printf("colsum %-21s %8.3f ms\n", name, best);
  };
  for (int round = 0; round < 2; round++) {
    runCol("hardware (plain)", [](int s) { return s < 0; });
    runCol("SMs 0-31", [](int s) { return s >= 0 && s < 32; });
    runCol("SMs 0,4,..,124",
           [](int s) { return s >= 0 && s % 4 == 0 && s < 128; });
    for (unsigned delay : {100u, 1000u, 4000u, 16000u}) {
      char name[64];
      snprintf(name, sizeof name, "SMs 0-31, +%u cyc/stripe", delay);
      runCol(name, [](int s) { return s >= 0 && s < 32; }, delay);
    }
    runCol("SMs 0,16,32,2,..", hardwareSet);
  }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
}
