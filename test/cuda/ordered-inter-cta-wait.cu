// Kernels whose CTAs wait on each other get ordered mode (info flag 8: their
// __smc claims chunks in blockIdx order), at every optimization level: a
// spin lock (atomicCAS), and a chained scan whose CTAs wait for their
// predecessor's flag through cuda::atomic_ref with __nanosleep back-off (the
// shape of CUB's decoupled look-back).  A grid-wide barrier built by hand
// waits for later CTAs, which no order makes safe: refused for both
// variants with the reason and the line (SMC_REFUSAL_GRID_BARRIER, 6).
// The variants of the ordered kernels assemble with ptxas.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O0.ptx
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin

#include <cuda/atomic>

// REMARK-DAG: remark: kernel 'lockLoop': built _Z8lockLoopPiS___smc (persistent workers; chunks in blockIdx order: loop waits on a value another CTA writes at {{.*}}ordered-inter-cta-wait.cu:[[@LINE+6]];
// REMARK-DAG: remark: kernel 'lockLoop': built _Z8lockLoopPiS___slice (index rectification;
// PTX-DAG: .visible .global .align 4 .b8 _Z8lockLoopPiS___smc_info[32] = {[[ABI]], 0, 0, 0, 11, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .entry _Z8lockLoopPiS___smc(
__global__ void lockLoop(int *lock, int *counter) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *counter += 1;
    atomicExch(lock, 0);
  }
}

// Each CTA waits until its predecessor published its running total.
// REMARK-DAG: remark: kernel 'chainedSum': built _Z10chainedSumPKiPiS1_i__smc (persistent workers; chunks in blockIdx order: loop waits on a value another CTA writes at {{.*}}ordered-inter-cta-wait.cu:{{[0-9]+}};
// PTX-DAG: .visible .global .align 4 .b8 _Z10chainedSumPKiPiS1_i__smc_info[32] = {[[ABI]], 0, 0, 0, 11, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .entry _Z10chainedSumPKiPiS1_i__smc(
__global__ void chainedSum(const int *in, int *totals, int *ready, int n) {
  if (threadIdx.x != 0)
    return;
  int b = blockIdx.x;
  int prefix = 0;
  if (b > 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(ready[b - 1]);
    while (flag.load(cuda::memory_order_acquire) == 0)
      __nanosleep(32);
    prefix = totals[b - 1];
  }
  totals[b] = prefix + (b < n ? in[b] : 0);
  cuda::atomic_ref<int, cuda::thread_scope_device> mine(ready[b]);
  mine.store(1, cuda::memory_order_release);
}

// REMARK-DAG: remark: kernel 'handBarrier': no __smc variant: grid-wide barrier built by hand (waits for later CTAs) (the loop waits for a count that depends on gridDim at {{.*}}ordered-inter-cta-wait.cu:[[@LINE+7]])
// REMARK-DAG: remark: kernel 'handBarrier': no __slice variant: grid-wide barrier built by hand (waits for later CTAs)
// PTX-DAG: .visible .global .align 4 .b8 _Z11handBarrierPjPi__smc_info[32] = {[[ABI]], 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 6, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-NOT: .entry _Z11handBarrierPjPi__{{smc|slice}}(
__global__ void handBarrier(unsigned *count, int *data) {
  if (threadIdx.x == 0) {
    atomicAdd(count, 1u);
    while (atomicAdd(count, 0u) < gridDim.x) {
    }
  }
  __syncthreads();
  data[blockIdx.x] = 1;
}
