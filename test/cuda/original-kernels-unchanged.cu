// Variants are ADDED: with the plugin, the PTX of every original kernel and
// device function (a divergent-exit stencil, a kernel calling a __noinline__
// function that reads blockIdx, a template instantiation, a kernel with a
// grid-stride loop) is exactly the PTX clang emits without the plugin, at
// -O0 and -O2.  So a launch of K itself behaves as without SMC.
//
// RUN: %clang_cuda -O2 --cuda-device-only -S %s -o - | awk -f %S/Inputs/original-entries.awk > %t.plain.O2
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice %s -o - | awk -f %S/Inputs/original-entries.awk > %t.smc.O2
// RUN: diff %t.plain.O2 %t.smc.O2
// RUN: FileCheck %s < %t.smc.O2
// RUN: %clang_cuda -O0 --cuda-device-only -S %s -o - | awk -f %S/Inputs/original-entries.awk > %t.plain.O0
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=smc,slice %s -o - | awk -f %S/Inputs/original-entries.awk > %t.smc.O0
// RUN: diff %t.plain.O0 %t.smc.O0
// RUN: FileCheck %s < %t.smc.O0

// What the comparison covers (so that an empty extraction cannot pass):
// CHECK-DAG: .visible .func (.param .b32 func_retval0) _Z9blockBasei(
// CHECK-DAG: .visible .entry _Z7stencilPKfPfi(
// CHECK-DAG: .visible .entry _Z9useHelperPi(
// CHECK-DAG: .visible .entry _Z5scaleIfEvPT_S0_i(
// CHECK-DAG: .visible .entry _Z10gridStridePfi(
// CHECK-NOT: __smc
// CHECK-NOT: __slice

__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[257];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[threadIdx.x] + tile[threadIdx.x + 1];
}

__device__ __noinline__ int blockBase(int w) { return blockIdx.x * w; }
__global__ void useHelper(int *o) { o[blockBase(blockDim.x) + threadIdx.x] = 1; }

template <typename T> __global__ void scale(T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}
template __global__ void scale<float>(float *, float, int);

__global__ void gridStride(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] = 2.0f * x[i];
}
