// Invariant 5, no silent refusal: a kernel that synchronizes the whole grid
// with cooperative groups (grid.sync()) is refused for both variants, with a
// -Rpass-missed remark that names the kernel and the reason; its info record
// carries SMC_REFUSAL_GRID_SYNC (2) twice; no variant is in the PTX.  At -O0
// and -O2.  (Which line the remark names: remark-location-user-source.cu.)
// clang-22 with CUDA 13 needs <cuda>/include/cccl for cooperative_groups.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2> %t.O2.remarks
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=REASON < %t.O2.remarks
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2> %t.O0.remarks
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=REASON < %t.O0.remarks
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O0.ptx
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// REASON-DAG: remark: kernel 'twoPhase': no __smc variant: grid-wide synchronization ({{.*}}) [-Rpass-missed=smc]
// REASON-DAG: remark: kernel 'twoPhase': no __slice variant: grid-wide synchronization ({{.*}}) [-Rpass-missed=smc]

// PTX-DAG: .visible .global .align 4 .b8 _Z8twoPhasePi__smc_info[32] = {[[ABI]], 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 6, 0, 0, 0, 1};
// PTX-DAG: .visible .entry _Z8twoPhasePi(
// PTX-NOT: _Z8twoPhasePi__{{smc|slice}}(

__global__ void twoPhase(int *data) {
  cg::grid_group grid = cg::this_grid();
  data[blockIdx.x] = 1;
  grid.sync();
  data[blockIdx.x] += data[(blockIdx.x + 1) % gridDim.x];
}
