// A kernel using dynamic shared memory (extern __shared__) and a barrier,
// with no early return: both variants are built, K__smc in loop mode
// (flags 3); the variants address the same dynamic shared array as K
// (invariant 2: shared memory is the launch's, unchanged); K__smc adds only
// the worker's own 48 bytes (chunk-id slots, leader state) as static
// shared memory.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.ptx
// RUN: %ptxas %t.ptx -o %t.cubin

// REMARK-DAG: dynamic-shared-memory.cu:[[@LINE+2]]:1: remark: kernel 'reverse': built _Z7reversePfi__smc (persistent workers; 1 blockIdx/gridDim reads replaced)
// REMARK-DAG: dynamic-shared-memory.cu:[[@LINE+1]]:1: remark: kernel 'reverse': built _Z7reversePfi__slice (index rectification; 1 blockIdx/gridDim reads replaced)
__global__ void reverse(float *data, int n) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? data[i] : 0.0f;
  __syncthreads();
  if (i < n)
    data[i] = buf[blockDim.x - 1 - threadIdx.x];
}

// PTX: .extern .shared .align 4 .b8 buf[];
// PTX: .visible .global .align 4 .b8 _Z7reversePfi__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-LABEL: .visible .entry _Z7reversePfi(
// PTX-NOT:   .shared
// PTX:       mov.b64 %rd{{[0-9]+}}, buf;
// PTX-LABEL: .visible .entry _Z7reversePfi__smc(
// PTX:       .shared .align 4 .b8 __smc_dev_shared[48];
// PTX-NOT:   .shared .{{.*}}[
// PTX:       mov.b64 %rd{{[0-9]+}}, buf;
// PTX-LABEL: .visible .entry _Z7reversePfi__slice(
// PTX-NOT:   __smc_dev_shared
// PTX:       mov.b64 %rd{{[0-9]+}}, buf;
