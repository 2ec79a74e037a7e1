; Without -smc-transforms the smc pipeline (what clang runs with
; -fpass-plugin) changes nothing: no variant, no info record, no worker
; library, no rewritten launch; the output is the input, on a device module
; and on a host module.  An empty -smc-transforms= is the same.
;
; RUN: %opt -S %s -o %t.plain.ll
; RUN: %opt %load_smc -passes=smc -S %s -o %t.smc.ll
; RUN: diff %t.plain.ll %t.smc.ll
; RUN: %opt %load_smc -passes=smc -smc-transforms= -S %s -o %t.empty.ll
; RUN: diff %t.plain.ll %t.empty.ll
; RUN: FileCheck %s < %t.smc.ll
; RUN: sed -e 's/nvptx64-nvidia-cuda/x86_64-unknown-linux-gnu/' -e 's/ptx_kernel //' %s > %t.host.ll
; RUN: %opt -S %t.host.ll -o %t.host.plain.ll
; RUN: %opt %load_smc -passes=smc -S %t.host.ll -o %t.host.smc.ll
; RUN: diff %t.host.plain.ll %t.host.smc.ll
; RUN: FileCheck %s --check-prefix=HOST < %t.host.smc.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: __smc
; CHECK-NOT: __slice
; CHECK: define ptx_kernel void @k(ptr %x)
; CHECK-NOT: __smc
; CHECK-NOT: __slice

; HOST: call i32 @cudaLaunchKernel(
; HOST-NOT: __smc

define ptx_kernel void @k(ptr %x) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %bx, ptr %x
  %r = call i32 @cudaLaunchKernel(ptr @k, i64 1, i32 1, i64 1, i32 1, ptr null, i64 0, ptr null)
  ret void
}

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
