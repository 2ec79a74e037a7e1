// A vector add, the simplest kernel: at -O0, -O2 and -O3 the device module
// gets vecAdd unchanged plus vecAdd__smc and vecAdd__slice, each with the
// original parameters, the descriptor (SmcDescriptor, by value) as last parameter and the
// same .maxntid; vecAdd__smc reads no %ctaid (blockIdx comes from the chunk
// id) and vecAdd__slice reads %ctaid.x (its slice CTA) and no %nctaid (one
// formula for every launch shape, no shape test); the info record
// says: ABI 1, flags HAS_SMC|HAS_SLICE, 4 parameters.  ptxas assembles it.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O0.ptx
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin
// RUN: %clang_smc -O3 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O3.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O3.ptx
// RUN: %ptxas %t.O3.ptx -o %t.O3.cubin

// PTX: .visible .global .align 4 .b8 _Z6vecAddPKfS0_Pfi__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-LABEL: .visible .entry _Z6vecAddPKfS0_Pfi(
// PTX: .maxntid 256
// PTX: %ctaid.x

// REMARK-DAG: vector-add.cu:[[@LINE+2]]:1: remark: kernel 'vecAdd': built _Z6vecAddPKfS0_Pfi__smc (persistent workers; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: vector-add.cu:[[@LINE+1]]:1: remark: kernel 'vecAdd': built _Z6vecAddPKfS0_Pfi__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void __launch_bounds__(256) vecAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// PTX-LABEL: .visible .entry _Z6vecAddPKfS0_Pfi__smc(
// PTX-NEXT:  .param .u64 .ptr .align 1 _Z6vecAddPKfS0_Pfi__smc_param_0,
// PTX-NEXT:  .param .u64 .ptr .align 1 _Z6vecAddPKfS0_Pfi__smc_param_1,
// PTX-NEXT:  .param .u64 .ptr .align 1 _Z6vecAddPKfS0_Pfi__smc_param_2,
// PTX-NEXT:  .param .u32 _Z6vecAddPKfS0_Pfi__smc_param_3,
// PTX-NEXT:  .param .align 8 .b8 _Z6vecAddPKfS0_Pfi__smc_param_4[{{[0-9]+}}]
// PTX-NEXT:  )
// PTX-NEXT:  .maxntid 256
// PTX-NOT:   %ctaid
// PTX:       %smid
// PTX-NOT:   %ctaid
// PTX:       bar.sync
// PTX-NOT:   %ctaid

// PTX-LABEL: .visible .entry _Z6vecAddPKfS0_Pfi__slice(
// PTX-NEXT:  .param .u64 .ptr .align 1 _Z6vecAddPKfS0_Pfi__slice_param_0,
// PTX-NEXT:  .param .u64 .ptr .align 1 _Z6vecAddPKfS0_Pfi__slice_param_1,
// PTX-NEXT:  .param .u64 .ptr .align 1 _Z6vecAddPKfS0_Pfi__slice_param_2,
// PTX-NEXT:  .param .u32 _Z6vecAddPKfS0_Pfi__slice_param_3,
// PTX-NEXT:  .param .align 8 .b8 _Z6vecAddPKfS0_Pfi__slice_param_4[{{[0-9]+}}]
// PTX-NEXT:  )
// PTX-NEXT:  .maxntid 256
// PTX-NOT:   %smid
// PTX-NOT:   %nctaid
// PTX:       %ctaid.x
// PTX-NOT:   %nctaid
// PTX-NOT:   bar.sync
// PTX:       ret;
