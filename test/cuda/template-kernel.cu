// A template kernel with two instantiations (implicit, through host code
// that launches them, as in real programs): both instantiations get their
// own __smc and __slice variants and info record, named from the mangled
// instantiation; the remarks use the readable names scale<float> and
// scale<double>.  (Template kernels under -fgpu-rdc: gpu-rdc.cu.)
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.ptx 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=Rpass-missed
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.ptx
// RUN: %ptxas %t.ptx -o %t.cubin

// REMARK-DAG: remark: kernel 'scale<float>': built _Z5scaleIfEvPT_S0_i__smc (persistent workers; 1 blockIdx/gridDim reads replaced)
// REMARK-DAG: remark: kernel 'scale<float>': built _Z5scaleIfEvPT_S0_i__slice (index rectification; 1 blockIdx/gridDim reads replaced)
// REMARK-DAG: remark: kernel 'scale<double>': built _Z5scaleIdEvPT_S0_i__smc (persistent workers; 1 blockIdx/gridDim reads replaced)
// REMARK-DAG: remark: kernel 'scale<double>': built _Z5scaleIdEvPT_S0_i__slice (index rectification; 1 blockIdx/gridDim reads replaced)

// PTX-DAG: .global .align 4 .b8 _Z5scaleIfEvPT_S0_i__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .global .align 4 .b8 _Z5scaleIdEvPT_S0_i__smc_info[32] = {[[ABI]], 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .entry _Z5scaleIfEvPT_S0_i__smc(
// PTX-DAG: .entry _Z5scaleIfEvPT_S0_i__slice(
// PTX-DAG: .entry _Z5scaleIdEvPT_S0_i__smc(
// PTX-DAG: .entry _Z5scaleIdEvPT_S0_i__slice(

template <typename T> __global__ void scale(T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

void scaleBoth(float *f, double *d, int n) {
  scale<<<(n + 127) / 128, 128>>>(f, 2.0f, n);
  scale<<<(n + 127) / 128, 128>>>(d, 2.0, n);
}
