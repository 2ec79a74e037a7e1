// 2-D and 3-D grids: the variants recompute blockIdx.x/y/z of each chunk from
// the original grid in the descriptor (grid_x/y/z at offsets 0/4/8, the
// slice offset at 24) and read gridDim from it (K__smc reads no %ctaid at
// all; the worker protocol's %nctaid.x read is its own worker count).  The
// divisions by the grid are mul.hi.u32 with the descriptor's constants
// (div_x_mul/add/shift at 40/44/48, div_y_* at 52/56/60): no div.u32 or
// rem.u32 in any variant.  K__slice adds %ctaid.y/z plus slice_first_y/z
// (76/80) to the decomposed chunk (whole rows have slice offset 0), and
// reads no %nctaid: no test of the launch's shape.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX --implicit-check-not=div.u32 --implicit-check-not=rem.u32 < %t.ptx
// RUN: %ptxas %t.ptx -o %t.cubin

// PTX-DAG: .visible .global .align 4 .b8 _Z11transpose2dPKfPfii__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .visible .global .align 4 .b8 _Z6fill3dPi__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};

// REMARK-DAG: grid-2d-3d.cu:[[@LINE+2]]:1: remark: kernel 'transpose2d': built _Z11transpose2dPKfPfii__smc (persistent workers; 2 blockIdx/gridDim reads replaced)
// REMARK-DAG: grid-2d-3d.cu:[[@LINE+1]]:1: remark: kernel 'transpose2d': built _Z11transpose2dPKfPfii__slice (index rectification; 2 blockIdx/gridDim reads replaced)
__global__ void transpose2d(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[x * h + y] = in[y * w + x];
}

// REMARK-DAG: grid-2d-3d.cu:[[@LINE+2]]:1: remark: kernel 'fill3d': built _Z6fill3dPi__smc (persistent workers; 6 blockIdx/gridDim reads replaced)
// REMARK-DAG: grid-2d-3d.cu:[[@LINE+1]]:1: remark: kernel 'fill3d': built _Z6fill3dPi__slice (index rectification; 6 blockIdx/gridDim reads replaced)
__global__ void fill3d(int *out) {
  unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  out[block * blockDim.x * blockDim.y * blockDim.z + t] = gridDim.x * gridDim.y * gridDim.z;
}

// PTX-LABEL: .visible .entry _Z11transpose2dPKfPfii(
// PTX-DAG:   %ctaid.x
// PTX-DAG:   %ctaid.y

// PTX-LABEL: .visible .entry _Z6fill3dPi(
// PTX-DAG:   %ctaid.z
// PTX-DAG:   %nctaid.y

// PTX-LABEL: .visible .entry _Z11transpose2dPKfPfii__smc(
// PTX-NOT:   %ctaid
// PTX-NOT:   %nctaid.y
// PTX:       [_Z11transpose2dPKfPfii__smc_param_4+4]
// PTX-NOT:   %ctaid
// PTX-NOT:   %nctaid.y

// PTX-LABEL: .visible .entry _Z6fill3dPi__smc(
// PTX-NOT:   %ctaid
// PTX-NOT:   %nctaid.{{y|z}}
// PTX:       [_Z6fill3dPi__smc_param_1+8]
// PTX-NOT:   %ctaid
// PTX-NOT:   %nctaid.{{y|z}}

// PTX-LABEL: .visible .entry _Z11transpose2dPKfPfii__slice(
// PTX-NOT:   %nctaid
// PTX-DAG:   %ctaid.y
// PTX-DAG:   +76]
// PTX-DAG:   +24]
// PTX-DAG:   %ctaid.x
// PTX-DAG:   [_Z11transpose2dPKfPfii__slice_param_4]
// PTX-DAG:   +4]
// PTX-DAG:   +40]
// PTX-DAG:   +44]
// PTX-DAG:   +48]
// PTX-DAG:   mul.hi.u32
// PTX-NOT:   %nctaid

// PTX-LABEL: .visible .entry _Z6fill3dPi__slice(
// PTX-NOT:   %nctaid
// PTX-DAG:   %ctaid.y
// PTX-DAG:   %ctaid.z
// PTX-DAG:   +76]
// PTX-DAG:   +80]
// PTX-DAG:   +24]
// PTX-DAG:   %ctaid.x
// PTX-DAG:   [_Z6fill3dPi__slice_param_1]
// PTX-DAG:   [_Z6fill3dPi__slice_param_1+4]
// PTX-DAG:   [_Z6fill3dPi__slice_param_1+8]
// PTX-DAG:   +40]
// PTX-DAG:   +52]
// PTX-DAG:   mul.hi.u32
// PTX-NOT:   %nctaid
