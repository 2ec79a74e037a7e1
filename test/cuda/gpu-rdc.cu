// Relocatable device code (-fgpu-rdc -c, device compile): a kernel calling a
// __device__ function of another translation unit is refused (its body is
// not in this module; it might read blockIdx), with the remark naming kernel,
// reason and line; a kernel calling a local device function gets both
// variants.  A template kernel instantiated in both translation units has
// weak variants and a weak info record in each, so the device link (nvlink)
// of the two objects succeeds.
//
// RUN: %clang_smc -O2 --cuda-device-only -fgpu-rdc -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.ptx
// RUN: %ptxas -c %t.ptx -o %t.ptx.o
// RUN: %clang_smc -O2 --cuda-device-only -fgpu-rdc -c -mllvm -smc-transforms=smc,slice %s -o %t.main.o
// RUN: %clang_smc -O2 --cuda-device-only -fgpu-rdc -c -mllvm -smc-transforms=smc,slice %S/Inputs/gpu-rdc-other.cu -o %t.other.o
// RUN: %nvlink %t.main.o %t.other.o -o %t.linked.cubin

extern __device__ int otherTU(int);
__device__ int local(int x) { return x + blockIdx.x; }

// REMARK-DAG: gpu-rdc.cu:[[@LINE+3]]:{{[0-9]+}}: remark: kernel 'callsExtern': no __smc variant: calls a function whose body is not in this module (call of _Z7otherTUi, defined in another module at {{.*}}gpu-rdc.cu:[[@LINE+3]]) [-Rpass-missed=smc]
// REMARK-DAG: gpu-rdc.cu:[[@LINE+2]]:{{[0-9]+}}: remark: kernel 'callsExtern': no __slice variant: calls a function whose body is not in this module
__global__ void callsExtern(int *o) {
  o[threadIdx.x] = otherTU(threadIdx.x);
}

// REMARK-DAG: gpu-rdc.cu:[[@LINE+2]]:1: remark: kernel 'callsLocal': built _Z10callsLocalPi__smc (persistent workers; 1 blockIdx/gridDim reads replaced)
// REMARK-DAG: gpu-rdc.cu:[[@LINE+1]]:1: remark: kernel 'callsLocal': built _Z10callsLocalPi__slice (index rectification; 1 blockIdx/gridDim reads replaced)
__global__ void callsLocal(int *o) { o[threadIdx.x] = local(threadIdx.x); }

// REMARK-DAG: remark: kernel 'scale<float>': built _Z5scaleIfEvPT_S0_i__smc
// REMARK-DAG: remark: kernel 'scale<float>': built _Z5scaleIfEvPT_S0_i__slice
template <typename T> __global__ void scale(T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

void scaleFromMain(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, 2.0f, n); }

// PTX-DAG: .visible .global .align 4 .b8 _Z11callsExternPi__smc_info[32] = {[[ABI]], 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .visible .global .align 4 .b8 _Z10callsLocalPi__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .weak .global .align 4 .b8 _Z5scaleIfEvPT_S0_i__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .visible .entry _Z10callsLocalPi__smc(
// PTX-DAG: .visible .entry _Z10callsLocalPi__slice(
// PTX-DAG: .weak .entry _Z5scaleIfEvPT_S0_i__smc(
// PTX-DAG: .weak .entry _Z5scaleIfEvPT_S0_i__slice(
// PTX-NOT: _Z11callsExternPi__{{smc|slice}}(
