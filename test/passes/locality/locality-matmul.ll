; CTA locality "tile": a tiled matrix multiply C = A * B (16 x 16 tiles in
; shared memory) reads, in CTA (bx, by), rows by*16.. of A and columns
; bx*16.. of B: A is the same for all CTAs along x, B for all CTAs along y.
; Tiles of 16 x 16 elements (blockIdx.x * 16 + threadIdx.x) do not overlap:
; where the answer depends on the block size, a CTA's threads are taken to
; cover one blockIdx step (tiledCopy, which has no shared tile that would
; bound blockDim).
;
; RUN: %opt %load_smc -passes='print<smc-locality>' -disable-output %s | FileCheck %s
; RUN: %opt %load_smc -passes=smc-locality -pass-remarks-analysis=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: kernel matmul: tile (x: A is the same for all CTAs along x; y: B is the same for all CTAs along y)
; CHECK-NEXT: kernel tiledCopy: none (x: disjoint; y: disjoint)
; REMARK: remark: <unknown>:0:0: kernel 'matmul': CTA locality tile (x: A is the same for all CTAs along x; y: B is the same for all CTAs along y)
; REMARK: remark: <unknown>:0:0: kernel 'tiledCopy': CTA locality none (x: disjoint; y: disjoint)

@As = internal addrspace(3) global [16 x [16 x float]] undef, align 4
@Bs = internal addrspace(3) global [16 x [16 x float]] undef, align 4

; row = by * 16 + ty, col = bx * 16 + tx (w a multiple of 16)
; for (k = 0; k < w; k += 16) {
;   As[ty][tx] = A[row * w + k + tx]; Bs[ty][tx] = B[(k + ty) * w + col];
;   __syncthreads(); acc += As[ty][0] * Bs[0][tx]; __syncthreads();
; }
; C[row * w + col] = acc
define ptx_kernel void @matmul(ptr %C, ptr %A, ptr %B, i32 %w) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %by16 = shl nuw nsw i32 %by, 4
  %row = add nuw nsw i32 %by16, %ty
  %bx16 = shl nuw nsw i32 %bx, 4
  %col = add nuw nsw i32 %bx16, %tx
  %rowStart = mul nuw nsw i32 %row, %w
  %tx64 = zext i32 %tx to i64
  %ty64 = zext i32 %ty to i64
  %as = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @As, i64 0, i64 %ty64, i64 %tx64
  %bs = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @Bs, i64 0, i64 %ty64, i64 %tx64
  %asRow = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @As, i64 0, i64 %ty64, i64 0
  %bsCol = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @Bs, i64 0, i64 0, i64 %tx64
  %any = icmp sgt i32 %w, 0
  br i1 %any, label %loop, label %done

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %a1 = add nuw nsw i32 %rowStart, %k
  %a2 = add nuw nsw i32 %a1, %tx
  %a64 = zext i32 %a2 to i64
  %pa = getelementptr inbounds float, ptr %A, i64 %a64
  %va = load float, ptr %pa, align 4
  store float %va, ptr addrspace(3) %as, align 4
  %kRow = add nuw nsw i32 %k, %ty
  %b1 = mul nuw nsw i32 %kRow, %w
  %b2 = add nuw nsw i32 %b1, %col
  %b64 = zext i32 %b2 to i64
  %pb = getelementptr inbounds float, ptr %B, i64 %b64
  %vb = load float, ptr %pb, align 4
  store float %vb, ptr addrspace(3) %bs, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %x = load float, ptr addrspace(3) %asRow, align 4
  %y = load float, ptr addrspace(3) %bsCol, align 4
  %prod = fmul float %x, %y
  %acc.next = fadd float %acc, %prod
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %k.next = add nuw nsw i32 %k, 16
  %more = icmp slt i32 %k.next, %w
  br i1 %more, label %loop, label %done

done:
  %result = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %c1 = add nuw nsw i32 %rowStart, %col
  %c64 = zext i32 %c1 to i64
  %pc = getelementptr inbounds float, ptr %C, i64 %c64
  store float %result, ptr %pc, align 4
  ret void
}

; out[(by * 16 + ty) * w + bx * 16 + tx] = in[(by * 16 + ty) * w + bx * 16 + tx]
define ptx_kernel void @tiledCopy(ptr %in, ptr %out, i32 %w) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %by16 = shl nuw nsw i32 %by, 4
  %row = add nuw nsw i32 %by16, %ty
  %bx16 = shl nuw nsw i32 %bx, 4
  %col = add nuw nsw i32 %bx16, %tx
  %rowStart = mul nuw nsw i32 %row, %w
  %i = add nuw nsw i32 %rowStart, %col
  %i64 = zext i32 %i to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %i64
  %v = load float, ptr %pin, align 4
  %pout = getelementptr inbounds float, ptr %out, i64 %i64
  store float %v, ptr %pout, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
