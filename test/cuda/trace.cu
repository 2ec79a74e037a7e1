// -smc-trace: the __smc variant's workers write SMC_TRACE records (they read
// %globaltimer and %warpid, never %ctaid, and keep the descriptor in
// parameter space: no local copy of it), and the info record says so (flags
// HAS_SMC|HAS_SLICE|TRACED = 19).  Without the option the variant has no
// trace code at all and the flag is clear (3).  ptxas assembles both.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -mllvm -smc-trace %s -o %t.trace.ptx
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=TRACE < %t.trace.ptx
// RUN: %ptxas %t.trace.ptx -o %t.trace.cubin
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice %s -o %t.plain.ptx
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PLAIN --implicit-check-not=globaltimer --implicit-check-not=warpid < %t.plain.ptx
// RUN: %ptxas %t.plain.ptx -o %t.plain.cubin

// TRACE: .visible .global .align 4 .b8 _Z5scalePfi__smc_info[32] = {[[ABI]], 0, 0, 0, 19, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PLAIN: .visible .global .align 4 .b8 _Z5scalePfi__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

// TRACE-LABEL: .visible .entry _Z5scalePfi__smc(
// TRACE-NOT:   __local_depot
// TRACE-NOT:   %ctaid
// TRACE:       %warpid
// TRACE-NOT:   %ctaid
// TRACE:       %globaltimer
// TRACE-NOT:   %ctaid
// TRACE:       ret;

// PLAIN-LABEL: .visible .entry _Z5scalePfi__smc(
// PLAIN:       %smid
