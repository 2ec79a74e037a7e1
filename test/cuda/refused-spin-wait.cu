// A spin lock on global memory (while (atomicCAS(lock, 0, 1) != 0);) makes
// a CTA wait for another one: refused for both variants at every
// optimization level, with a remark naming kernel and reason, the info
// record carrying SMC_REFUSAL_SPIN_WAIT (6) twice, no variant in the PTX.
// At -O0 the loop also stores to local variables (the inlined atomicCAS
// wrapper's parameters and result): those stores are no work that could let
// another CTA progress, so it is still a spin-wait.
// (Which line the remark names: remark-location-user-source.cu.)
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not='built _Z'
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not='built _Z'
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O0.ptx
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin

// REMARK-DAG: remark: kernel 'lockLoop': no __smc variant: inter-CTA spin-wait (loop waits on a value another CTA writes at {{.*}}) [-Rpass-missed=smc]
// REMARK-DAG: remark: kernel 'lockLoop': no __slice variant: inter-CTA spin-wait (loop waits on a value another CTA writes at {{.*}}) [-Rpass-missed=smc]

// PTX-DAG: .visible .global .align 4 .b8 _Z8lockLoopPiS___smc_info[20] = {[[ABI]], 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 6, 0, 0, 0, 6};
// PTX-NOT: _Z8lockLoopPiS___{{smc|slice}}(

__global__ void lockLoop(int *lock, int *counter) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *counter += 1;
    atomicExch(lock, 0);
  }
}
