// clang-22 compiles variadic __device__ functions.  One that reads blockIdx
// cannot be inlined into the variants (va_start needs its own frame): the
// variants must be refused (SMC_REFUSAL_NOT_INLINABLE, 10) with a remark,
// and the device module must stay valid IR -- not variants whose va_list
// silently points at the SMC descriptor.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -emit-llvm -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
// RUN: %opt -passes=verify -disable-output %t.ll
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice %s -o %t.ptx
// RUN: %ptxas %t.ptx -o %t.cubin
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.ptx

#include <cstdarg>

__device__ __noinline__ int sumArgs(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = blockIdx.x;
  for (int i = 0; i < n; ++i)
    s += va_arg(ap, int);
  va_end(ap);
  return s;
}

// REMARK-DAG: remark: kernel 'K': no __smc variant: a function reading blockIdx/gridDim could not be inlined (call of _Z7sumArgsiz
// REMARK-DAG: remark: kernel 'K': no __slice variant: a function reading blockIdx/gridDim could not be inlined (call of _Z7sumArgsiz
// PTX: .visible .global .align 4 .b8 _Z1KPi__smc_info[32] = {[[ABI]], 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-NOT: .entry _Z1KPi__{{smc|slice}}(
__global__ void K(int *out) { out[threadIdx.x] = sumArgs(2, 3, 4); }
