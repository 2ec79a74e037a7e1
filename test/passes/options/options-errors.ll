; Bad options are compiler errors, not silent no-ops: an unknown
; -smc-transforms value and a malformed -smc-kernels regex each make the smc
; pipeline fail with a message saying what is wrong.
;
; RUN: not %opt %load_smc -passes=smc -smc-transforms=smc,bogus -disable-output %s 2>&1 | FileCheck %s --check-prefix=TRANSFORMS
; RUN: not %opt %load_smc -passes=smc -smc-transforms=smc -smc-kernels='vec(' -disable-output %s 2>&1 | FileCheck %s --check-prefix=REGEX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; TRANSFORMS: error: SMC: unknown -smc-transforms value 'bogus' (known: smc, slice, remap)
; REGEX: error: SMC: malformed -smc-kernels regex 'vec(': parentheses not balanced

define ptx_kernel void @k(ptr %x) {
  store i32 0, ptr %x
  ret void
}
