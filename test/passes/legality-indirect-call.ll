; An indirect call (function pointer, virtual call) is refused: the callee
; may read blockIdx.  The remark names kernel and reason; no variant is
; built; the info record carries SMC_REFUSAL_INDIRECT_CALL (8).
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=built
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel callsPointer: refused: indirect call (indirect call)

; REMARK: remark: <unknown>:0:0: kernel 'callsPointer': no __smc variant: indirect call (indirect call)
; REMARK: remark: <unknown>:0:0: kernel 'callsPointer': no __slice variant: indirect call (indirect call)

; IR: @callsPointer__smc_info = addrspace(1) constant [5 x i32] [i32 [[ABI]], i32 0, i32 2, i32 8, i32 8]
; IR-NOT: define {{.*}}__smc(
; IR-NOT: define {{.*}}__slice(

define ptx_kernel void @callsPointer(ptr %fp, ptr %out) {
  %r = call i32 %fp(i32 1)
  store i32 %r, ptr %out
  ret void
}
