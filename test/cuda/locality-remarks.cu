// The locality class of CUDA kernels compiled by clang with the plugin,
// shown by -Rpass-analysis=smc with the source line of the read that decides
// it, and the same at -O0 (analysed on a simplified copy: locals promoted,
// calls inlined) as at -O2; also through a __noinline__ device function.
// Device code has line tables only, so parameters are named by position.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -gline-tables-only -mllvm -smc-transforms=smc,slice -Rpass-analysis=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s --implicit-check-not=remark
// RUN: %clang_smc -O0 --cuda-device-only -S -gline-tables-only -mllvm -smc-transforms=smc,slice -Rpass-analysis=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s --implicit-check-not=remark
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin

#define TILE 16

// CHECK-DAG: locality-remarks.cu:[[@LINE+1]]:1: remark: kernel 'vecAdd': CTA locality none (x: disjoint) [-Rpass-analysis=smc]
__global__ void vecAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// CHECK-DAG: locality-remarks.cu:[[@LINE+1]]:1: remark: kernel 'stencil': CTA locality x (x: reads of parameter 1 by neighbours along x overlap at {{.*}}locality-remarks.cu:[[@LINE+4]]) [-Rpass-analysis=smc]
__global__ void stencil(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = in[i - 1] + in[i] + in[i + 1];
}

// CHECK-DAG: locality-remarks.cu:[[@LINE+1]]:1: remark: kernel 'matmul': CTA locality tile (x: parameter 1 is the same for all CTAs along x at {{.*}}locality-remarks.cu:[[@LINE+8]]; y: parameter 2 is the same for all CTAs along y at {{.*}}locality-remarks.cu:[[@LINE+9]]) [-Rpass-analysis=smc]
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k = 0; k < n; k += TILE) {
    As[ty][tx] = A[row * n + k + tx];
    Bs[ty][tx] = B[(k + ty) * n + col];
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += As[ty][j] * Bs[j][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__device__ __noinline__ int globalIndex() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

// CHECK-DAG: locality-remarks.cu:[[@LINE+1]]:1: remark: kernel 'gather': CTA locality irregular (read of parameter 1 at {{.*}}locality-remarks.cu:[[@LINE+3]]: its index is loaded from memory at {{.*}}locality-remarks.cu:[[@LINE+3]]) [-Rpass-analysis=smc]
__global__ void gather(const float *in, const int *idx, float *out) {
  int i = globalIndex();
  out[i] = in[idx[i]];
}
