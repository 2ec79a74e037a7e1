// A grid-stride loop reads gridDim.x: the variants replace it with the
// original grid's x size from the descriptor, so each chunk strides as in
// the original launch (not by the number of workers or slice CTAs).  Not a
// spin-wait, no barrier: both variants, loop mode (flags 3).
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.ptx
// RUN: %ptxas %t.ptx -o %t.cubin

// REMARK-DAG: grid-stride-loop.cu:[[@LINE+2]]:1: remark: kernel 'saxpy': built _Z5saxpyfPKfPfi__smc (persistent workers; 2 blockIdx/gridDim reads replaced)
// REMARK-DAG: grid-stride-loop.cu:[[@LINE+1]]:1: remark: kernel 'saxpy': built _Z5saxpyfPKfPfi__slice (index rectification; 2 blockIdx/gridDim reads replaced)
__global__ void saxpy(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

// PTX: .visible .global .align 4 .b8 _Z5saxpyfPKfPfi__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-LABEL: .visible .entry _Z5saxpyfPKfPfi(
// PTX:       %nctaid.x
// The slice variant reads no %nctaid.x: its stride comes from grid_x (it
// reads %nctaid.y/z, its own launch's shape).
// PTX-LABEL: .visible .entry _Z5saxpyfPKfPfi__slice(
// PTX-NOT:   %nctaid.x
// PTX:       ld.param.b32 {{%r[0-9]+}}, [_Z5saxpyfPKfPfi__slice_param_4];
// PTX-NOT:   %nctaid.x
