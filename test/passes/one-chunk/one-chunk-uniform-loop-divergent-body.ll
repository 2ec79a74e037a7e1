; The common tiled matmul: a loop with barriers whose trip count is
; CTA-uniform, with bounds-checked loads inside the loop body
; (`As[ty][tx] = (row < n && t*16+tx < n) ? A[...] : 0`), which -O2 keeps as
; a divergent branch.  The divergent branch reconverges inside the body
; before the barrier, so the loop counter and the loop exit stay uniform and
; no thread leaves early: loop mode, no SMC_INFO_ONE_CHUNK bit.
; (The trip count alone, without the branch, is one-chunk-uniform-loop.ll.)
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc -S %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=IR
; RUN: %opt %load_smc -passes='print<smc-cta-uniformity>' -disable-output %s | FileCheck %s --check-prefix=UNIFORM

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The bounds check in the body is divergent, the loop's exit stays uniform.
; UNIFORM-LABEL: CTA uniformity of tiledChecked:
; UNIFORM-NEXT: %entry: uniform branch
; UNIFORM-NEXT: %loop: divergent branch
; UNIFORM-NEXT: %load: in a divergent region
; UNIFORM-NEXT: %join: uniform branch

; LEGAL: kernel tiledChecked: legal, loop

; IR: @tiledChecked__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 3, i32 0, i32 1, i32 1, i32 1, i32 0]

@As = internal addrspace(3) global [256 x float] undef, align 4

define ptx_kernel void @tiledChecked(ptr %a, ptr %c, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %row = mul i32 %bx, 256
  %ps = getelementptr inbounds [256 x float], ptr addrspace(3) @As, i32 0, i32 %tx
  %n15 = add i32 %n, 255
  %numTiles = sdiv i32 %n15, 256
  %any = icmp sgt i32 %numTiles, 0
  br i1 %any, label %loop, label %done
loop:
  %t = phi i32 [ 0, %entry ], [ %t.next, %join ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %join ]
  %off = mul i32 %t, 256
  %idx = add i32 %off, %tx
  %inb = icmp slt i32 %idx, %n
  br i1 %inb, label %load, label %join
load:
  %pa = getelementptr inbounds float, ptr %a, i32 %idx
  %va = load float, ptr %pa, align 4
  br label %join
join:
  %v = phi float [ %va, %load ], [ 0.0, %loop ]
  store float %v, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %other = xor i32 %tx, 1
  %po = getelementptr inbounds [256 x float], ptr addrspace(3) @As, i32 0, i32 %other
  %vo = load float, ptr addrspace(3) %po, align 4
  %acc.next = fadd float %acc, %vo
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t.next = add nsw i32 %t, 1
  %again = icmp slt i32 %t.next, %numTiles
  br i1 %again, label %loop, label %done
done:
  %res = phi float [ 0.0, %entry ], [ %acc.next, %join ]
  %ci = add i32 %row, %tx
  %pc = getelementptr inbounds float, ptr %c, i32 %ci
  store float %res, ptr %pc, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
