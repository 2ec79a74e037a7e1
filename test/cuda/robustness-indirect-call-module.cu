// Indirect calls are judged per call, by the targets the call can reach:
// indirectPure calls through a constant table of functions that read no
// blockIdx/gridDim and gets both variants; indirectReader's table holds
// plusBlock, which reads blockIdx: refused, naming it.  Under -fgpu-rdc a
// function pointer the kernel gets as an argument may point into another
// translation unit (Inputs/robustness-indirect-call-rdc-other.cu's
// plusBlock, which reads blockIdx; the device link succeeds), and -fgpu-rdc
// leaves no trace in the device module: such a call is refused.  At -O0
// and -O2, with the verifier and ptxas.
//
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2> %t.O0.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.O0.remarks
// RUN: grep -c 'remark:' %t.O0.remarks | FileCheck %s --check-prefix=COUNT
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin
// RUN: %clang_smc -O0 --cuda-device-only -emit-llvm -S -mllvm -smc-transforms=smc,slice %s -o - | %opt -passes=verify -disable-output
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2> %t.O2.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.O2.remarks
// RUN: grep -c 'remark:' %t.O2.remarks | FileCheck %s --check-prefix=COUNT
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O2 --cuda-device-only -emit-llvm -S -mllvm -smc-transforms=smc,slice %s -o - | %opt -passes=verify -disable-output
//
// RUN: %clang_smc -O2 --cuda-device-only -fgpu-rdc -c -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %S/Inputs/robustness-indirect-call-rdc.cu -o %t.rdc.o 2>&1 | FileCheck %s --check-prefix=RDC
// RUN: %clang_smc -O2 --cuda-device-only -fgpu-rdc -c -mllvm -smc-transforms=smc,slice %S/Inputs/robustness-indirect-call-rdc-other.cu -o %t.rdc-other.o
// RUN: %nvlink %t.rdc.o %t.rdc-other.o -o %t.rdc.cubin

// COUNT: {{^}}4{{$}}

// The target of f may read blockIdx (plusBlock in
// Inputs/robustness-indirect-call-rdc-other.cu); in __smc it would read the
// worker's %ctaid, not the chunk's.
// RDC-DAG: robustness-indirect-call-rdc.cu:{{[0-9]+}}:{{[0-9]+}}: remark: kernel 'callsPointerArg': no __smc variant: indirect call (indirect call whose targets are not known here (a function pointer from elsewhere may point into another translation unit) at {{.*}}robustness-indirect-call-rdc.cu:{{[0-9]+}}) [-Rpass-missed=smc]
// RDC-DAG: robustness-indirect-call-rdc.cu:{{[0-9]+}}:{{[0-9]+}}: remark: kernel 'callsPointerArg': no __slice variant: indirect call

__device__ int addOne(int x) { return x + 1; }
__device__ int twice(int x) { return 2 * x; }
__device__ int plusBlock(int x) { return x + blockIdx.x; }

__device__ int (*const pureTable[2])(int) = {addOne, twice};
__device__ int (*const readerTable[2])(int) = {addOne, plusBlock};

// addOne and twice read no blockIdx/gridDim: both variants.
// REMARK-DAG: robustness-indirect-call-module.cu:[[@LINE+2]]:1: remark: kernel 'indirectPure': built _Z12indirectPurePKiPii__smc (persistent workers; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// REMARK-DAG: robustness-indirect-call-module.cu:[[@LINE+1]]:1: remark: kernel 'indirectPure': built _Z12indirectPurePKiPii__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
__global__ void indirectPure(const int *in, int *out, int which) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = pureTable[which & 1](in[i]);
}

__global__ void indirectReader(const int *in, int *out, int which) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // REMARK-DAG: robustness-indirect-call-module.cu:[[@LINE+2]]:{{[0-9]+}}: remark: kernel 'indirectReader': no __smc variant: indirect call (indirect call; its possible target _Z9plusBlocki reads blockIdx/gridDim at {{.*}}robustness-indirect-call-module.cu:[[@LINE+2]]) [-Rpass-missed=smc]
  // REMARK-DAG: robustness-indirect-call-module.cu:[[@LINE+1]]:{{[0-9]+}}: remark: kernel 'indirectReader': no __slice variant: indirect call (indirect call; its possible target _Z9plusBlocki reads blockIdx/gridDim at {{.*}}robustness-indirect-call-module.cu:[[@LINE+1]]) [-Rpass-missed=smc]
  out[i] = readerTable[which & 1](in[i]);
}
