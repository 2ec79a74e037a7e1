; A malformed -smc-kernels regex is an error for the single passes too
; (smc-variant, smc-slice, print<smc-kernels>), not a silent "no kernel
; selected" that leaves the module unchanged with no diagnostic.
;
; RUN: not %opt %load_smc -passes=smc-variant -smc-kernels='k(' -disable-output %s 2>&1 | FileCheck %s
; RUN: not %opt %load_smc -passes=smc-slice -smc-kernels='k(' -disable-output %s 2>&1 | FileCheck %s
; RUN: not %opt %load_smc -passes='print<smc-kernels>' -smc-kernels='k(' -disable-output %s 2>&1 | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: error: SMC: malformed -smc-kernels regex 'k('

define ptx_kernel void @k(ptr %x) {
  store i32 0, ptr %x
  ret void
}
