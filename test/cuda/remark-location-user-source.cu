// No silent refusal: a refusal remark names the source line in the user's file,
// also when the instruction that causes the refusal comes from code inlined
// from a header (atomicAdd from clang's CUDA headers, the %envreg read of
// cooperative groups' this_grid()/sync()): the remark's location and the
// "at file:line" in its text are the kernel's line that leads there (the
// outermost inlined-at location, or the call in the kernel), not a line of
// __clang_cuda_device_functions.h or cooperative_groups/details/*.h.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s --implicit-check-not=.h:
// RUN: %clang_smc -O0 --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s --implicit-check-not=.h:

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void handBarrier(unsigned *count, int *data) {
  if (threadIdx.x == 0) {
    atomicAdd(count, 1u);
    // CHECK-DAG: remark-location-user-source.cu:[[@LINE+1]]:{{[0-9]+}}: remark: kernel 'handBarrier': no __smc variant: grid-wide barrier built by hand (waits for later CTAs) (the loop waits for a count that depends on gridDim at {{.*}}remark-location-user-source.cu:[[@LINE+1]]) [-Rpass-missed=smc]
    while (atomicAdd(count, 0u) < gridDim.x) {
    }
  }
  __syncthreads();
  data[blockIdx.x] = 1;
}

// The first %envreg read is this_grid()'s (line 30) or, if the optimizer
// moved things, sync()'s (line 32).
// CHECK-DAG: remark-location-user-source.cu:{{30|32}}:{{[0-9]+}}: remark: kernel 'twoPhase': no __smc variant: grid-wide synchronization ({{.*}} at {{.*}}remark-location-user-source.cu:{{30|32}}) [-Rpass-missed=smc]
__global__ void twoPhase(int *data) {
  cg::grid_group grid = cg::this_grid();
  data[blockIdx.x] = 1;
  grid.sync();
  data[blockIdx.x] += data[(blockIdx.x + 1) % gridDim.x];
}
