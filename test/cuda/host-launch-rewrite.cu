// The host side: every launch, <<<>>> (through the __device_stub__ and, at
// -O2, inlined into the caller) and direct cudaLaunchKernel calls, goes
// through the SMC runtime entry with the same arguments, with a remark per
// launch.  At -O0 the stub is not inlined: the launch is in the stub only.
// With CUDA_API_PER_THREAD_DEFAULT_STREAM the direct call is
// cudaLaunchKernel_ptsz and becomes __smc_launch_kernel_ptsz.
//
// RUN: %clang_smc -O2 --cuda-host-only -S -emit-llvm -mllvm -smc-transforms=smc,slice -Rpass=smc -fno-caret-diagnostics %s -o %t.O2.ll 2>&1 | FileCheck %s --check-prefix=REMARK-O2
// RUN: FileCheck %s --check-prefixes=IR,IR-O2 < %t.O2.ll
// RUN: %clang_smc -O0 --cuda-host-only -S -emit-llvm -mllvm -smc-transforms=smc,slice -Rpass=smc -fno-caret-diagnostics %s -o %t.O0.ll 2>&1 | FileCheck %s --check-prefix=REMARK-O0
// RUN: FileCheck %s --check-prefixes=IR,IR-O0 < %t.O0.ll
// RUN: %clang_smc -O2 --cuda-host-only -S -emit-llvm -DCUDA_API_PER_THREAD_DEFAULT_STREAM -mllvm -smc-transforms=smc %s -o - | FileCheck %s --check-prefix=PTSZ
// Without -smc-transforms nothing changes.
// RUN: %clang_smc -O2 --cuda-host-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF

// REMARK-O2-DAG: remark: launch of kernel 'vecAdd' in __device_stub__vecAdd goes through the SMC runtime [-Rpass=smc]
// REMARK-O2-DAG: remark: launch of kernel 'vecAdd' in run goes through the SMC runtime [-Rpass=smc]
// REMARK-O2-DAG: remark: launch of kernel 'vecAdd' in runDirect goes through the SMC runtime [-Rpass=smc]
// REMARK-O0-DAG: remark: launch of kernel 'vecAdd' in __device_stub__vecAdd goes through the SMC runtime [-Rpass=smc]
// REMARK-O0-DAG: remark: launch of kernel 'vecAdd' in runDirect goes through the SMC runtime [-Rpass=smc]

// IR-LABEL: define {{.*}}void @_Z21__device_stub__vecAddPKfS0_Pfi(
// IR:       call noundef i32 @__smc_launch_kernel(ptr noundef {{(nonnull )?}}@_Z21__device_stub__vecAddPKfS0_Pfi, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, ptr noundef {{(nonnull )?}}%{{[0-9]+}}, i64 noundef %{{[0-9]+}}, ptr noundef %{{[0-9]+}})
// IR-LABEL: define {{.*}}void @_Z3runPKfS0_Pfi(
// IR-O2:    call noundef i32 @__smc_launch_kernel(ptr noundef nonnull @_Z21__device_stub__vecAddPKfS0_Pfi,
// IR-O0:    call void @_Z21__device_stub__vecAddPKfS0_Pfi(
// IR-LABEL: define {{.*}}void @_Z9runDirectPKfS0_Pfi(
// IR:       call {{(noundef )?}}i32 @__smc_launch_kernel(ptr noundef {{(nonnull )?}}@_Z21__device_stub__vecAddPKfS0_Pfi, i64 {{.*}}, i32 {{.*}}, i64 {{.*}}, i32 {{.*}}, ptr noundef {{.*}}, i64 noundef 0, ptr noundef null)
// IR-NOT:   call {{.*}}@cudaLaunchKernel(
// IR:       declare i32 @__smc_launch_kernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)

// PTSZ-LABEL: define {{.*}}void @_Z9runDirectPKfS0_Pfi(
// PTSZ:       call {{(noundef )?}}i32 @__smc_launch_kernel_ptsz(ptr noundef {{(nonnull )?}}@_Z21__device_stub__vecAddPKfS0_Pfi,
// PTSZ-NOT:   call {{.*}}@cudaLaunchKernel

// OFF-NOT: __smc_launch
// OFF:     call noundef i32 @cudaLaunchKernel(
// OFF-NOT: __smc_launch

__global__ void vecAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

void run(const float *a, const float *b, float *c, int n) {
  vecAdd<<<(n + 255) / 256, 256>>>(a, b, c, n);
}

void runDirect(const float *a, const float *b, float *c, int n) {
  void *args[] = {&a, &b, &c, &n};
  cudaLaunchKernel((const void *)vecAdd, dim3(1), dim3(256), args, 0, 0);
}
