; Grid-wide synchronization is refused (both variants), whether it shows as
; a call of cooperative groups' grid sync, as a read of %envreg (the grid
; workspace cooperative groups finds through it) by intrinsic or inline
; assembly: the remark names kernel and reason, no variant is built, and the
; info record carries SMC_REFUSAL_GRID_SYNC (2) for both.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=built
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel syncGrids: refused: grid-wide synchronization (call of _ZN18cooperative_groups4__v17details10sync_gridsEjPVj)
; LEGAL-NEXT: kernel envreg: refused: grid-wide synchronization (read of %envreg (grid workspace))
; LEGAL-NEXT: kernel envregAsm: refused: grid-wide synchronization (inline assembly reads %envreg)
; LEGAL-NEXT: kernel syncInCallee: refused: grid-wide synchronization (call of cudaCGSynchronizeGrid)

; REMARK-DAG: remark: <unknown>:0:0: kernel 'syncGrids': no __smc variant: grid-wide synchronization (call of _ZN18cooperative_groups4__v17details10sync_gridsEjPVj)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'syncGrids': no __slice variant: grid-wide synchronization (call of _ZN18cooperative_groups4__v17details10sync_gridsEjPVj)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'envreg': no __smc variant: grid-wide synchronization (read of %envreg (grid workspace))
; REMARK-DAG: remark: <unknown>:0:0: kernel 'envreg': no __slice variant: grid-wide synchronization (read of %envreg (grid workspace))
; REMARK-DAG: remark: <unknown>:0:0: kernel 'envregAsm': no __smc variant: grid-wide synchronization (inline assembly reads %envreg)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'syncInCallee': no __smc variant: grid-wide synchronization (call of cudaCGSynchronizeGrid)

; IR-DAG: @syncGrids__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 2, i32 2, i32 0, i32 1, i32 0]
; IR-DAG: @envreg__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 2, i32 2, i32 0, i32 1, i32 0]
; IR-DAG: @envregAsm__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 2, i32 2, i32 0, i32 1, i32 0]
; IR-DAG: @syncInCallee__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 2, i32 2, i32 0, i32 1, i32 0]
; IR-NOT: define {{.*}}__smc(
; IR-NOT: define {{.*}}__slice(
; IR-NOT: __smc_dev_

define ptx_kernel void @syncGrids(ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %bx, ptr %out
  call void @_ZN18cooperative_groups4__v17details10sync_gridsEjPVj(i32 1, ptr %out)
  ret void
}

define ptx_kernel void @envreg(ptr %out) {
  %lo = call i32 @llvm.nvvm.read.ptx.sreg.envreg1()
  store i32 %lo, ptr %out
  ret void
}

define ptx_kernel void @envregAsm(ptr %out) {
  %lo = call i32 asm "mov.u32 $0, %envreg2;", "=r"()
  store i32 %lo, ptr %out
  ret void
}

define ptx_kernel void @syncInCallee(ptr %out) {
  call void @helper(ptr %out)
  ret void
}

define internal void @helper(ptr %p) {
  store i32 1, ptr %p
  call void @cudaCGSynchronizeGrid(i64 0, i32 0)
  ret void
}

declare void @_ZN18cooperative_groups4__v17details10sync_gridsEjPVj(i32, ptr)
declare void @cudaCGSynchronizeGrid(i64, i32)
declare i32 @llvm.nvvm.read.ptx.sreg.envreg1()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
