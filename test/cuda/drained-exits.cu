// -mllvm -smc-drained-exits on CUDA source: the common early return before
// __syncthreads() (a 1-D stencil) and hotspot's shape (per-thread returns at
// the grid's edges, a loop of barrier pairs left by a break) get persistent
// workers with drained exits at -O0, -O2 and -O3.  The variants' barriers
// are calls of the funnel, which holds the module's one barrier.red.popc
// (not .aligned); the kernels hold none, the worker's own hand-off barriers
// aside.  ptxas assembles it and keeps the funnel a subroutine of each
// kernel that calls it (one barrier instruction that every lane of a warp
// waits at, wherever it comes from): the cubin's symbols show it.
//
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=smc -mllvm -smc-drained-exits -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s --check-prefix=PTX < %t.O0.ptx
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin
// RUN: llvm-readelf -s %t.O0.cubin | FileCheck %s --check-prefix=CUBIN
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc -mllvm -smc-drained-exits -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: llvm-readelf -s %t.O2.cubin | FileCheck %s --check-prefix=CUBIN
// RUN: %clang_smc -O3 --cuda-device-only -S -mllvm -smc-transforms=smc -mllvm -smc-drained-exits -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O3.ptx 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s --check-prefix=PTX < %t.O3.ptx
// RUN: %ptxas %t.O3.ptx -o %t.O3.cubin
// RUN: llvm-readelf -s %t.O3.cubin | FileCheck %s --check-prefix=CUBIN

#define BLOCK 256

// PTX-NOT: barrier.red
// PTX-LABEL: .visible .entry _Z7stencilPKfPfi__smc(
// PTX-NOT: barrier.red
// PTX: call.uni (retval0), __smc_funnel_barrier,
// PTX-NOT: barrier.red
// PTX-LABEL: .weak .func  (.param .b32 func_retval0) __smc_funnel_barrier(
// PTX: barrier.red.popc.u32 {{%r[0-9]+}}, 0, {{%p[0-9]+}};
// PTX-NOT: barrier.red
// PTX-LABEL: .visible .entry _Z7pyramidPKfPfiii__smc(
// PTX: call.uni (retval0), __smc_funnel_barrier,
// PTX-NOT: barrier.red

// CUBIN-DAG: FUNC {{.*}} $_Z7stencilPKfPfi__smc$__smc_funnel_barrier
// CUBIN-DAG: FUNC {{.*}} $_Z7pyramidPKfPfiii__smc$__smc_funnel_barrier

// REMARK-DAG: drained-exits.cu:[[@LINE+1]]:1: remark: kernel 'stencil': built _Z7stencilPKfPfi__smc (persistent workers, drained exits: threads may end a chunk before a barrier other threads of the CTA still reach at {{.*}}drained-exits.cu:[[@LINE+4]]; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 1];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[threadIdx.x] + tile[(threadIdx.x + 1) % BLOCK];
}

// REMARK-DAG: drained-exits.cu:[[@LINE+2]]:1: remark: kernel 'pyramid': built _Z7pyramidPKfPfiii__smc (persistent workers, drained exits: threads may end a chunk before a barrier other threads of the CTA still reach at {{.*}}; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void pyramid(const float *in, float *out, int cols, int rows,
                        int steps) {
  __shared__ float cur[16][16], next[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int small = 16 - 2 * steps;
  int y = small * blockIdx.y - steps + ty, x = small * blockIdx.x - steps + tx;
  if (y < 0 || y >= rows || x < 0 || x >= cols)
    return;
  cur[ty][tx] = in[y * cols + x];
  __syncthreads();
  bool computed = false;
  for (int i = 0; i < steps; ++i) {
    computed = tx > i && tx < 15 - i && ty > i && ty < 15 - i;
    if (computed)
      next[ty][tx] = 0.5f * cur[ty][tx] + 0.125f * (cur[ty - 1][tx] + cur[ty + 1][tx]);
    __syncthreads();
    if (i == steps - 1)
      break;
    if (computed)
      cur[ty][tx] = next[ty][tx];
    __syncthreads();
  }
  if (computed)
    out[y * cols + x] = next[ty][tx];
}
