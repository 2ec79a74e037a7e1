// `if (threadIdx.x >= n) { if (blockIdx.x > 0) return; }  __syncthreads();`
// The inner condition is CTA-uniform but only the threads with
// threadIdx.x >= n evaluate it, so in CTAs other than 0 they leave while the
// others reach the barrier: one-chunk mode, at every optimization level
// (at -O2 clang merges the two conditions into one divergent branch; at -O0
// the uniform inner branch is on its own).
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc -Rpass=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=smc -Rpass=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O0.ptx

// PTX: .visible .global .align 4 .b8 _Z6nestedPfi__smc_info[32] = {[[ABI]], 0, 0, 0, 5, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1};

// CHECK: nested-divergent-exit.cu:[[@LINE+1]]:1: remark: kernel 'nested': built _Z6nestedPfi__smc (one chunk per worker: threads may exit before a barrier other threads of the CTA still reach at {{.*}}nested-divergent-exit.cu:{{[0-9]+}};
__global__ void nested(float *out, int n) {
  __shared__ float s[256];
  if (threadIdx.x >= n) {
    if (blockIdx.x > 0)
      return;
  }
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[255 - threadIdx.x];
}
