// A kernel calling a __noinline__ __device__ function that reads blockIdx:
// the variants inline it (so that its read becomes the chunk's blockIdx)
// while the kernel keeps calling it; a __noinline__ function that reads no
// grid register stays a call in the variants too.  At -O0 and -O2.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s --check-prefix=PTX < %t.O0.ptx
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin

__device__ __noinline__ int blockBase(int width) { return blockIdx.x * width; }
__device__ __noinline__ float twice(float v) { return 2.0f * v; }

// REMARK-DAG: noinline-device-function.cu:[[@LINE+2]]:1: remark: kernel 'useHelpers': built _Z10useHelpersPf__smc (persistent workers; 1 blockIdx/gridDim reads replaced)
// REMARK-DAG: noinline-device-function.cu:[[@LINE+1]]:1: remark: kernel 'useHelpers': built _Z10useHelpersPf__slice (index rectification; 1 blockIdx/gridDim reads replaced)
__global__ void useHelpers(float *x) {
  int i = blockBase(blockDim.x) + threadIdx.x;
  x[i] = twice(x[i]);
}

// PTX-LABEL: .visible .func (.param .b32 func_retval0) _Z9blockBasei(
// PTX:       %ctaid.x
// PTX-LABEL: .visible .entry _Z10useHelpersPf(
// PTX:       call.uni (retval0), _Z9blockBasei,
// PTX:       call.uni (retval0), _Z5twicef,
// PTX-LABEL: .visible .entry _Z10useHelpersPf__smc(
// PTX-NOT:   _Z9blockBasei
// PTX-NOT:   %ctaid
// PTX:       call.uni (retval0), _Z5twicef,
// PTX-NOT:   _Z9blockBasei
// PTX-NOT:   %ctaid
// PTX-LABEL: .visible .entry _Z10useHelpersPf__slice(
// PTX-NOT:   _Z9blockBasei
// PTX:       %ctaid.x
// PTX:       call.uni (retval0), _Z5twicef,
// PTX-NOT:   _Z9blockBasei
