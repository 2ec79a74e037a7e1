; Batched claims (abi.h, claim_batch): between the chunks of a batch the
; threads of a worker step to the next chunk themselves.  Where the body
; uses no shared memory and no barrier, that step has no barrier either;
; where it does (here: a __shared__ array, a barrier), the step keeps one
; __syncthreads() so that no thread starts the next chunk while another
; still uses the shared memory of this one.  The worker's own barriers (the
; first chunk's and the next batch's broadcast) are in both.
;
; RUN: %opt %load_smc -passes=smc-variant -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; CHECK-LABEL: define ptx_kernel void @streaming__smc(
; CHECK-COUNT-2: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NOT: call void @llvm.nvvm.barrier.cta.sync.aligned.all
; CHECK-LABEL: define ptx_kernel void @sharing__smc(
; CHECK-COUNT-4: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NOT: call void @llvm.nvvm.barrier.cta.sync.aligned.all

; out[i] = in[i] * 2
define ptx_kernel void @streaming(ptr %in, ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = shl i32 %bx, 8
  %i = add i32 %b, %tx
  %pi = getelementptr inbounds float, ptr %in, i32 %i
  %v = load float, ptr %pi, align 4
  %w = fmul float %v, 2.0
  %po = getelementptr inbounds float, ptr %out, i32 %i
  store float %w, ptr %po, align 4
  ret void
}

; tile[tx] = in[i]; __syncthreads(); out[i] = tile[255 - tx]
define ptx_kernel void @sharing(ptr %in, ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = shl i32 %bx, 8
  %i = add i32 %b, %tx
  %pi = getelementptr inbounds float, ptr %in, i32 %i
  %v = load float, ptr %pi, align 4
  %ps = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i32 0, i32 %tx
  store float %v, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %r = sub i32 255, %tx
  %pr = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i32 0, i32 %r
  %x = load float, ptr addrspace(3) %pr, align 4
  %po = getelementptr inbounds float, ptr %out, i32 %i
  store float %x, ptr %po, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
