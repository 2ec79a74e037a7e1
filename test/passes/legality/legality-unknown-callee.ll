; A call of a function whose body is not in this module (e.g. another
; translation unit's __device__ function under -fgpu-rdc) is refused: it may
; read blockIdx, which the pass could not replace.  Also inside a device
; function the kernel calls.  The remark names kernel, reason and callee; no
; variant is built; the info record carries SMC_REFUSAL_UNKNOWN_CALLEE (7).
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=built
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel callsExtern: refused: calls a function whose body is not in this module (call of _Z7otherTUi, defined in another module)
; LEGAL-NEXT: kernel callsExternDeep: refused: calls a function whose body is not in this module (call of _Z7otherTUi, defined in another module)

; REMARK-DAG: remark: <unknown>:0:0: kernel 'callsExtern': no __smc variant: calls a function whose body is not in this module (call of _Z7otherTUi, defined in another module)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'callsExtern': no __slice variant: calls a function whose body is not in this module (call of _Z7otherTUi, defined in another module)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'callsExternDeep': no __smc variant: calls a function whose body is not in this module (call of _Z7otherTUi, defined in another module)

; IR-DAG: @callsExtern__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 7, i32 7, i32 0, i32 1, i32 0]
; IR-DAG: @callsExternDeep__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 7, i32 7, i32 0, i32 1, i32 0]
; IR-NOT: define {{.*}}__smc(
; IR-NOT: define {{.*}}__slice(

define ptx_kernel void @callsExtern(ptr %out) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call i32 @_Z7otherTUi(i32 %tx)
  store i32 %r, ptr %out
  ret void
}

define ptx_kernel void @callsExternDeep(ptr %out) {
  %r = call i32 @local(i32 3)
  store i32 %r, ptr %out
  ret void
}

define internal i32 @local(i32 %x) {
  %r = call i32 @_Z7otherTUi(i32 %x)
  ret i32 %r
}

declare i32 @_Z7otherTUi(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
