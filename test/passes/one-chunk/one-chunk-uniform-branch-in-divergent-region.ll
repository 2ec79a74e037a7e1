; `if (threadIdx.x >= n) { if (k > 0) return; }  __syncthreads();`
; The return is guarded by a CTA-uniform condition (k > 0), but only the
; threads with threadIdx.x >= n reach that branch: when k > 0 they leave
; while the others wait at the barrier.  That needs one-chunk mode exactly
; like the plain divergent return; in loop mode the leavers would meet the
; worker's own chunk-claiming barrier while the rest sit at the body's one.
; The same with blockIdx (uniform) as the inner condition.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc -S %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=IR
; RUN: %opt %load_smc -passes='print<smc-cta-uniformity>' -disable-output %s | FileCheck %s --check-prefix=UNIFORM

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The outer branch on threadIdx.x is divergent; the inner one is uniform,
; but only some threads reach it.
; UNIFORM-LABEL: CTA uniformity of argGuard:
; UNIFORM-NEXT: %entry: divergent branch
; UNIFORM-NEXT: %check: uniform branch, in a divergent region
; UNIFORM-LABEL: CTA uniformity of blockGuard:
; UNIFORM-NEXT: %entry: divergent branch
; UNIFORM-NEXT: %check: uniform branch, in a divergent region

; LEGAL: kernel argGuard: legal, one-chunk (threads may exit before a barrier other threads of the CTA still reach)
; LEGAL-NEXT: kernel blockGuard: legal, one-chunk (threads may exit before a barrier other threads of the CTA still reach)

; IR-DAG: @argGuard__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 5, i32 3, i32 0, i32 1, i32 0, i32 1, i32 0]
; IR-DAG: @blockGuard__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 5, i32 2, i32 0, i32 1, i32 0, i32 1, i32 0]

define ptx_kernel void @argGuard(ptr %out, i32 %n, i32 %k) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %outside = icmp uge i32 %tx, %n
  br i1 %outside, label %check, label %join
check:
  %leave = icmp sgt i32 %k, 0
  br i1 %leave, label %exit, label %join
exit:
  ret void
join:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  store i32 %tx, ptr %out, align 4
  ret void
}

define ptx_kernel void @blockGuard(ptr %out, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %outside = icmp uge i32 %tx, %n
  br i1 %outside, label %check, label %join
check:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %leave = icmp ugt i32 %bx, 0
  br i1 %leave, label %exit, label %join
exit:
  ret void
join:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  store i32 %tx, ptr %out, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
