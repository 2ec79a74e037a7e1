// Robustness over CUDA features: one kernel per feature (printf, assert,
// __trap, recursion with and without a blockIdx read in the cycle, an
// indirect call through a __device__ function-pointer table, an extended
// __device__ lambda, warp intrinsics after warps returned early, cooperative
// groups block and tile syncs, cuda::barrier + cuda::memcpy_async, a
// __cluster_dims__ kernel, a kernel using cluster barriers, a
// __grid_constant__ struct parameter whose address is taken, a 4 KB by-value
// parameter).  At -O0 and -O2 the compiler does not crash (exit status 0),
// every kernel gets, for both variants, either a "built" remark or a
// "no ... variant: <reason>" remark and there is no other remark (14 kernels,
// 28 remarks), the PTX assembles with ptxas and the module passes the IR
// verifier.  The variants of the __grid_constant__ kernel keep the
// parameter's nvvm.grid_constant attribute, those of the 4 KB kernel its
// byval struct.
//
// What the plugin does, the same at -O0 and -O2 (recursion and indirect
// calls are refused only when they can reach a grid register read):
//   printf                      built, persistent workers
//   assert                      built, persistent workers
//   __trap()                    built, persistent workers
//   recursion reading blockIdx  refused: recursive call graph (recursive call
//                               of _Z8fibBlockj, which reads blockIdx/gridDim)
//   recursion, no grid read     built, persistent workers
//   function-pointer table      built, persistent workers (the targets are
//                               known and read no grid register;
//                               robustness-indirect-call-module.cu has the
//                               other cases)
//   extended __device__ lambda  built, persistent workers
//   warp intrinsics after early return (no block barrier)
//                               built, persistent workers
//   cg block.sync / tile.sync   built, persistent workers
//   cuda::barrier + memcpy_async
//                               built, persistent workers (see below)
//   __cluster_dims__(2,1,1)     built: clang 22 accepts the attribute for CUDA
//                               but drops it (no nvvm.cluster_dim, no
//                               .reqnctapercluster in the original's PTX
//                               either), so the plugin sees no cluster
//   cluster barrier builtins    refused: thread block clusters (call of
//                               llvm.nvvm.barrier.cluster.arrive)
//   __grid_constant__ param     built, persistent workers; the variants keep
//                               "nvvm.grid_constant"
//   4 KB by-value param         built, persistent workers
//
// RUN: %clang_smc -O0 --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2> %t.O0.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.O0.remarks
// RUN: grep -c 'remark:' %t.O0.remarks | FileCheck %s --check-prefix=COUNT
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin
// RUN: %clang_smc -O0 --cuda-device-only -emit-llvm -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice %s -o %t.O0.ll
// RUN: %opt -passes=verify -disable-output %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR < %t.O0.ll
// RUN: %clang_smc -O2 --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2> %t.O2.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.O2.remarks
// RUN: grep -c 'remark:' %t.O2.remarks | FileCheck %s --check-prefix=COUNT
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O2 --cuda-device-only -emit-llvm -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice %s -o %t.O2.ll
// RUN: %opt -passes=verify -disable-output %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR < %t.O2.ll

// COUNT: {{^}}28{{$}}

#include <cassert>
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda/barrier>

namespace cg = cooperative_groups;

// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'usesPrintf': built _Z10usesPrintfPi__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'usesPrintf': built _Z10usesPrintfPi__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void usesPrintf(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0)
    printf("block %d thread %d\n", blockIdx.x, threadIdx.x);
  out[i] = i;
}

// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'usesAssert': built _Z10usesAssertPKiPii__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'usesAssert': built _Z10usesAssertPKiPii__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void usesAssert(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  out[i] = in[i] + 1;
}

// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'usesTrap': built _Z8usesTrapPKiPi__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'usesTrap': built _Z8usesTrapPKiPi__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void usesTrap(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] < 0)
    __trap();
  out[i] = in[i];
}

// Tree recursion (two recursive calls: -O2 cannot turn it into a loop).
__device__ unsigned fibPure(unsigned n) { return n < 2 ? n : fibPure(n - 1) + fibPure(n - 2); }
// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:{{[0-9]+}}: remark: kernel 'recursionReadsBlockIdx': no __smc variant: recursive call graph (recursive call of _Z8fibBlockj, which reads blockIdx/gridDim at {{.*}}robustness-features.cu:[[@LINE+2]]) [-Rpass-missed=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:{{[0-9]+}}: remark: kernel 'recursionReadsBlockIdx': no __slice variant: recursive call graph (recursive call of _Z8fibBlockj, which reads blockIdx/gridDim at {{.*}}robustness-features.cu:[[@LINE+1]]) [-Rpass-missed=smc]
__device__ unsigned fibBlock(unsigned n) { return n < 2 ? blockIdx.x + n : fibBlock(n - 1) + fibBlock(n - 2); }

__global__ void recursionReadsBlockIdx(unsigned *out, unsigned n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = fibBlock(n + threadIdx.x % 4);
}

// fibPure reads no blockIdx/gridDim: its recursion stays a call.
// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'recursionPure': built _Z13recursionPurePjj__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'recursionPure': built _Z13recursionPurePjj__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void recursionPure(unsigned *out, unsigned n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = fibPure(n + threadIdx.x % 4);
}

__device__ int addOne(int x) { return x + 1; }
__device__ int twice(int x) { return 2 * x; }
__device__ int (*const opTable[2])(int) = {addOne, twice};

// No possible target (addOne, twice) reads blockIdx/gridDim.
// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'indirectCall': built _Z12indirectCallPKiPii__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'indirectCall': built _Z12indirectCallPKiPii__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void indirectCall(const int *in, int *out, int which) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = opTable[which & 1](in[i]);
}

// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:{{[0-9]+}}: remark: kernel 'applyLambda<launchLambda(int*, int, int)::'lambda'(int)>': built _Z11applyLambdaIZ12launchLambdaPiiiEUliE_EvS0_iT___smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:{{[0-9]+}}: remark: kernel 'applyLambda<launchLambda(int*, int, int)::'lambda'(int)>': built _Z11applyLambdaIZ12launchLambdaPiiiEUliE_EvS0_iT___slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
template <typename F> __global__ void applyLambda(int *out, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f(i);
}

void launchLambda(int *out, int n, int k) {
  applyLambda<<<(n + 127) / 128, 128>>>(out, n, [=] __device__(int i) { return i * k; });
}

// Whole warps (and, at the grid's end, single threads) return early; the
// others use warp intrinsics.  No block barrier: persistent workers.
// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'warpAfterEarlyExit': built _Z18warpAfterEarlyExitPKiPiii__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'warpAfterEarlyExit': built _Z18warpAfterEarlyExitPKiPiii__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void warpAfterEarlyExit(const int *in, int *out, int n, int activeWarps) {
  if (threadIdx.x / 32 >= activeWarps)
    return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned mask = __activemask();
  int v = __shfl_sync(mask, in[i], 0);
  unsigned ballot = __ballot_sync(mask, v > 0);
  out[i] = v + __popc(ballot);
}

// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'coopGroups': built _Z10coopGroupsPKiPi__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'coopGroups': built _Z10coopGroupsPKiPi__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void coopGroups(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = in[i];
  block.sync();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = buf[(threadIdx.x + 1) % blockDim.x];
  tile.sync();
  out[i] = v + tile.thread_rank();
}

// cuda::barrier<thread_scope_block> tests __isClusterShared(&barrier) in
// init/arrive/wait (llvm.nvvm.isspacep.shared.cluster, at -O0 not folded
// away), and at -O0 libcu++ passes its atomic operators down as function
// arguments (indirect calls with known targets): neither is cluster use or
// an unknown call.
// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'barrierMemcpyAsync': built _Z18barrierMemcpyAsyncPKiPi__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'barrierMemcpyAsync': built _Z18barrierMemcpyAsyncPKiPi__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void barrierMemcpyAsync(const int *in, int *out) {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ int buf[256];
  // clang rejects a __shared__ variable with a constructor: raw storage.
  __shared__ alignas(Barrier) unsigned char barStorage[sizeof(Barrier)];
  Barrier &bar = *reinterpret_cast<Barrier *>(barStorage);
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  const int *src = in + blockIdx.x * blockDim.x;
  cuda::memcpy_async(buf + threadIdx.x, src + threadIdx.x, sizeof(int), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

// clang 22 drops __cluster_dims__ for CUDA (no nvvm.cluster_dim attribute,
// no .reqnctapercluster): the plugin sees an ordinary kernel.
// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'clusterDims': built _Z11clusterDimsPi__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'clusterDims': built _Z11clusterDimsPi__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void __cluster_dims__(2, 1, 1) clusterDims(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x;
}

__global__ void clusterBarrier(int *out) {
  // REMARK-DAG: robustness-features.cu:[[@LINE+2]]:{{[0-9]+}}: remark: kernel 'clusterBarrier': no __smc variant: thread block clusters (call of llvm.nvvm.barrier.cluster.arrive at {{.*}}robustness-features.cu:[[@LINE+2]]) [-Rpass-missed=smc]
  // REMARK-DAG: robustness-features.cu:[[@LINE+1]]:{{[0-9]+}}: remark: kernel 'clusterBarrier': no __slice variant: thread block clusters (call of llvm.nvvm.barrier.cluster.arrive at {{.*}}robustness-features.cu:[[@LINE+1]]) [-Rpass-missed=smc]
  __nvvm_barrier_cluster_arrive();
  __nvvm_barrier_cluster_wait();
  out[blockIdx.x * blockDim.x + threadIdx.x] = __nvvm_read_ptx_sreg_cluster_ctarank();
}

struct Params {
  const float *in;
  float *out;
  float scale;
  int n;
  int idx[8];
};

__device__ __noinline__ float at(const Params *p, int i) { return p->in[i] * p->scale + p->idx[i & 7]; }

// The parameter's address is taken: a variant without the grid_constant
// attribute would copy it to local memory.
// IR-DAG: define {{.*}}ptx_kernel void @_Z17gridConstantParam6Params(ptr {{.*}}"nvvm.grid_constant" %0)
// IR-DAG: define {{.*}}ptx_kernel void @_Z17gridConstantParam6Params__smc(ptr {{.*}}"nvvm.grid_constant" %0, ptr {{.*}}byval(%SmcDescriptor)
// IR-DAG: define {{.*}}ptx_kernel void @_Z17gridConstantParam6Params__slice(ptr {{.*}}"nvvm.grid_constant" %0, ptr {{.*}}byval(%SmcDescriptor)
// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'gridConstantParam': built _Z17gridConstantParam6Params__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'gridConstantParam': built _Z17gridConstantParam6Params__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void gridConstantParam(const __grid_constant__ Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    p.out[i] = at(&p, i);
}

struct Big {
  float coeff[1024]; // 4096 bytes
};

// IR-DAG: define {{.*}}ptx_kernel void @_Z8bigParam3BigPf__smc(ptr {{.*}}byval(%struct.Big) align 4 {{.*}}%0, ptr {{.*}}%1, ptr {{.*}}byval(%SmcDescriptor)
// IR-DAG: define {{.*}}ptx_kernel void @_Z8bigParam3BigPf__slice(ptr {{.*}}byval(%struct.Big) align 4 {{.*}}%0, ptr {{.*}}%1, ptr {{.*}}byval(%SmcDescriptor)
// REMARK-DAG: robustness-features.cu:[[@LINE+2]]:1: remark: kernel 'bigParam': built _Z8bigParam3BigPf__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-features.cu:[[@LINE+1]]:1: remark: kernel 'bigParam': built _Z8bigParam3BigPf__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void bigParam(Big b, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = b.coeff[i % 1024];
}
