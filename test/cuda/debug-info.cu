// With debug info (-g) at -O0 and -O2: the variants get their own debug
// subprograms (the IR verifies), the remarks carry file:line, and ptxas
// assembles the PTX with its line tables.
//
// RUN: %clang_smc -O0 -g --cuda-device-only -S -emit-llvm -mllvm -smc-transforms=smc,slice %s -o %t.O0.ll
// RUN: %opt -passes=verify -disable-output %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR < %t.O0.ll
// RUN: %clang_smc -O2 -g --cuda-device-only -S -emit-llvm -mllvm -smc-transforms=smc,slice %s -o %t.O2.ll
// RUN: %opt -passes=verify -disable-output %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR < %t.O2.ll
// RUN: %clang_smc -O0 -g --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin
// RUN: %clang_smc -O2 -g --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin

// Each kernel has its own distinct DISubprogram named after the source.
// IR-DAG: define {{.*}}ptx_kernel void @_Z7stencilPKfPfi({{.*}}) {{.*}}!dbg [[K:![0-9]+]]
// IR-DAG: define {{.*}}ptx_kernel void @_Z7stencilPKfPfi__smc({{.*}}) {{.*}}!dbg [[S:![0-9]+]]
// IR-DAG: define {{.*}}ptx_kernel void @_Z7stencilPKfPfi__slice({{.*}}) {{.*}}!dbg [[L:![0-9]+]]
// IR-DAG: [[K]] = distinct !DISubprogram(name: "stencil"
// IR-DAG: [[S]] = distinct !DISubprogram(name: "stencil"
// IR-DAG: [[L]] = distinct !DISubprogram(name: "stencil"

__device__ __noinline__ int base() { return blockIdx.x * blockDim.x; }

// REMARK-DAG: debug-info.cu:[[@LINE+2]]:1: remark: kernel 'stencil': built _Z7stencilPKfPfi__smc (one chunk per worker: threads may exit before a barrier other threads of the CTA still reach at {{.*}}debug-info.cu:[[@LINE+5]];
// REMARK-DAG: debug-info.cu:[[@LINE+1]]:1: remark: kernel 'stencil': built _Z7stencilPKfPfi__slice
__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[258];
  int i = base() + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x + 1] = in[i];
  __syncthreads();
  out[i] = tile[threadIdx.x] + tile[threadIdx.x + 1];
}
