// CUB's single-pass scan and select wait for their predecessors' tile status
// (decoupled look-back: inline-asm ld.relaxed polls with nanosleep back-off,
// at -O0 through wrapper functions and local variables).  Their __smc
// variants must run in ordered mode, at every optimization level; the
// remark says so, and the variants assemble with ptxas.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc -Rpass=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc -Rpass=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin

// CHECK-DAG: remark: kernel 'cub::{{.*}}::DeviceScanKernel<{{.*}}': built {{.*}}__smc ({{.*}}chunks in blockIdx order: loop waits on a value another CTA writes
// CHECK-DAG: remark: kernel 'cub::{{.*}}::DeviceSelectSweepKernel<{{.*}}': built {{.*}}__smc ({{.*}}chunks in blockIdx order: loop waits on a value another CTA writes

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

struct IsOdd {
  __device__ bool operator()(int x) const { return x & 1; }
};

void scan(void *tmp, size_t &bytes, const int *in, int *out, int n) {
  cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);
}

void select(void *tmp, size_t &bytes, const int *in, int *out, int *count,
            int n) {
  cub::DeviceSelect::If(tmp, bytes, in, out, count, n, IsOdd());
}
