// A kernel that uses all 48 KiB of static shared memory a CTA may declare:
// the device module must still assemble.  K__smc must not push the kernel
// over the limit with the worker's own shared memory (the 8-byte chunk-id
// slot) -- either it needs none beyond K's, or __smc is refused with a
// remark -- and K and K__slice are built as usual.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ptxas %t.ptx -o %t.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// REMARK: remark: kernel 'fullShared': built _Z10fullSharedPf__slice
// PTX: .visible .entry _Z10fullSharedPf(
// PTX: .visible .entry _Z10fullSharedPf__slice(

__global__ void fullShared(float *out) {
  __shared__ float tile[12288]; // 48 KiB, the static limit
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}
