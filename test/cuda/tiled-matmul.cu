// The classic shared-memory tiled matmul with bounds checks.  Its loop has
// barriers and a CTA-uniform trip count ((n + TILE - 1) / TILE, n a kernel
// argument); the bounds checks inside the loop are divergent but reconverge
// before each barrier, and no thread returns early.  So K__smc runs
// persistent workers (loop mode), and the info record has no
// SMC_INFO_ONE_CHUNK bit (flags 3).  Checked at -O0, -O2 and -O3.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O3 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O3.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O3.ptx
// RUN: %ptxas %t.O3.ptx -o %t.O3.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=smc,slice %s -o %t.O0.ptx
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin

#define TILE 16

// PTX: .visible .global .align 4 .b8 _Z6matmulPKfS0_Pfi__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 1};
// PTX: .visible .entry _Z6matmulPKfS0_Pfi__smc(
// PTX-NOT: %ctaid
// PTX: .visible .entry _Z6matmulPKfS0_Pfi__slice(

// REMARK-DAG: tiled-matmul.cu:[[@LINE+2]]:1: remark: kernel 'matmul': built _Z6matmulPKfS0_Pfi__smc (persistent workers; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: tiled-matmul.cu:[[@LINE+1]]:1: remark: kernel 'matmul': built _Z6matmulPKfS0_Pfi__slice (index rectification; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    As[ty][tx] = (row < n && t * TILE + tx < n) ? A[row * n + t * TILE + tx] : 0.0f;
    Bs[ty][tx] = (col < n && t * TILE + ty < n) ? B[(t * TILE + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}
