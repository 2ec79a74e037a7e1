// A 1-D stencil with the common divergent early return before
// __syncthreads(): K__smc is built in one-chunk mode, the remark says so and
// names the line of the early return, and the info record carries
// SMC_INFO_ONE_CHUNK (flags 1|2|4 = 7).  The same at -O0, -O2 and -O3.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O0.ptx
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin
// RUN: %clang_smc -O3 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O3.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O3.ptx
// RUN: %ptxas %t.O3.ptx -o %t.O3.cubin

#define RADIUS 3
#define BLOCK 256

// PTX: .visible .global .align 4 .b8 _Z7stencilPKfPfi__smc_info[32] = {[[ABI]], 0, 0, 0, 7, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1};
// PTX: .visible .entry _Z7stencilPKfPfi__smc(
// PTX: .visible .entry _Z7stencilPKfPfi__slice(

// REMARK-DAG: stencil-divergent-exit.cu:[[@LINE+2]]:1: remark: kernel 'stencil': built _Z7stencilPKfPfi__smc (one chunk per worker: threads may exit before a barrier other threads of the CTA still reach at {{.*}}stencil-divergent-exit.cu:[[@LINE+5]]; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: stencil-divergent-exit.cu:[[@LINE+1]]:1: remark: kernel 'stencil': built _Z7stencilPKfPfi__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 2 * RADIUS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int t = threadIdx.x + RADIUS;
  tile[t] = in[i];
  if (threadIdx.x < RADIUS) {
    tile[t - RADIUS] = i >= RADIUS ? in[i - RADIUS] : 0.0f;
    tile[t + BLOCK] = i + BLOCK < n ? in[i + BLOCK] : 0.0f;
  }
  __syncthreads();
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += tile[t + k];
  out[i] = sum;
}
