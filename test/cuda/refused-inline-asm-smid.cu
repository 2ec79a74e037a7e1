// Invariant 5, no silent refusal: a kernel whose inline assembly reads %smid
// is refused for both variants, with a -Rpass-missed remark that names the
// kernel, the reason and the source line of the assembly; its info record
// carries SMC_REFUSAL_INLINE_ASM (5) twice and no variant is in the PTX.  The
// kernel next to it is transformed as usual.  At -O0 and -O2.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O0.ptx
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin

__global__ void whereAmI(unsigned *out) {
  unsigned sm;
  // REMARK-DAG: refused-inline-asm-smid.cu:[[@LINE+2]]:3: remark: kernel 'whereAmI': no __smc variant: inline assembly reads %ctaid, %nctaid or %smid (inline assembly 'mov.u32 $0, %smid;' at {{.*}}refused-inline-asm-smid.cu:[[@LINE+2]]) [-Rpass-missed=smc]
  // REMARK-DAG: refused-inline-asm-smid.cu:[[@LINE+1]]:3: remark: kernel 'whereAmI': no __slice variant: inline assembly reads %ctaid, %nctaid or %smid (inline assembly 'mov.u32 $0, %smid;' at {{.*}}refused-inline-asm-smid.cu:[[@LINE+1]]) [-Rpass-missed=smc]
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  out[blockIdx.x] = sm;
}

// REMARK-DAG: refused-inline-asm-smid.cu:[[@LINE+2]]:1: remark: kernel 'fine': built _Z4finePj__smc
// REMARK-DAG: refused-inline-asm-smid.cu:[[@LINE+1]]:1: remark: kernel 'fine': built _Z4finePj__slice
__global__ void fine(unsigned *out) { out[blockIdx.x] = threadIdx.x; }

// PTX-DAG: .visible .global .align 4 .b8 _Z8whereAmIPj__smc_info[32] = {[[ABI]], 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .visible .global .align 4 .b8 _Z4finePj__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .visible .entry _Z8whereAmIPj(
// PTX-DAG: .visible .entry _Z4finePj__smc(
// PTX-NOT: _Z8whereAmIPj__{{smc|slice}}(
