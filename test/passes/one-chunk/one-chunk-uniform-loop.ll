; A loop with barriers whose trip count is CTA-uniform (tiled matmul style:
; for (t = 0; t < numTiles; ++t) { load tile; __syncthreads(); compute;
; __syncthreads(); }, numTiles a kernel argument) lets no thread leave
; early: loop mode, no SMC_INFO_ONE_CHUNK bit.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc -pass-remarks=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll
; RUN: %opt %load_smc -passes='print<smc-cta-uniformity>' -disable-output %s | FileCheck %s --check-prefix=UNIFORM

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The loop's exit is uniform.
; UNIFORM-LABEL: CTA uniformity of tiled:
; UNIFORM-NEXT: %entry: uniform branch
; UNIFORM-NEXT: %loop: uniform branch

; LEGAL: kernel tiled: legal, loop

; REMARK: kernel 'tiled': built tiled__smc (persistent workers; 1 blockIdx/gridDim reads replaced)

; IR: @tiled__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 3, i32 0, i32 1, i32 1, i32 1, i32 0]

@As = internal addrspace(3) global [256 x float] undef, align 4

define ptx_kernel void @tiled(ptr %a, ptr %c, i32 %numTiles) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %row = mul i32 %bx, 256
  %ps = getelementptr inbounds [256 x float], ptr addrspace(3) @As, i32 0, i32 %tx
  %any = icmp sgt i32 %numTiles, 0
  br i1 %any, label %loop, label %done
loop:
  %t = phi i32 [ 0, %entry ], [ %t.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %off = mul i32 %t, 256
  %idx = add i32 %off, %tx
  %pa = getelementptr inbounds float, ptr %a, i32 %idx
  %va = load float, ptr %pa, align 4
  store float %va, ptr addrspace(3) %ps, align 4
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
  %res = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %ci = add i32 %row, %tx
  %pc = getelementptr inbounds float, ptr %c, i32 %ci
  store float %res, ptr %pc, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
