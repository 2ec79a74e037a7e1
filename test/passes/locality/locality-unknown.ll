; CTA locality "unknown": what the analysis cannot model.  An index that
; doubles in a loop is no recurrence ScalarEvolution models (not affine in
; blockIdx.x); a pointer selected per thread is chosen at run time.  Where
; another dimension is known to be shared, that class is reported and the
; unknown dimension is named (mixed: x shared, y unknown).
;
; RUN: %opt %load_smc -passes='print<smc-locality>' -disable-output %s | FileCheck %s
; RUN: %opt %load_smc -passes=smc-locality -pass-remarks-analysis=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: kernel doubling: unknown (x: unknown, index of in not affine in blockIdx.x)
; CHECK-NEXT: kernel selectedPointer: unknown (x: unknown, pointer chosen at run time)
; CHECK-NEXT: kernel mixed: x (x: v is the same for all CTAs along x; y: unknown, index of in not affine in blockIdx.y)

; REMARK: remark: <unknown>:0:0: kernel 'doubling': CTA locality unknown (x: unknown, index of in not affine in blockIdx.x)
; REMARK: remark: <unknown>:0:0: kernel 'selectedPointer': CTA locality unknown (x: unknown, pointer chosen at run time)
; REMARK: remark: <unknown>:0:0: kernel 'mixed': CTA locality x

; for (j = i + 1; j < n; j *= 2) sum += in[j]; out[i] = sum
define ptx_kernel void @doubling(ptr %in, ptr %out, i32 %n) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %j0 = add nsw i32 %i, 1
  %any = icmp slt i32 %j0, %n
  br i1 %any, label %loop, label %done

loop:
  %j = phi i32 [ %j0, %entry ], [ %j.next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %j64 = sext i32 %j to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %j64
  %v = load float, ptr %pin, align 4
  %sum.next = fadd float %sum, %v
  %j.next = shl nsw i32 %j, 1
  %more = icmp slt i32 %j.next, %n
  br i1 %more, label %loop, label %done

done:
  %result = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %i64 = sext i32 %i to i64
  %pout = getelementptr inbounds float, ptr %out, i64 %i64
  store float %result, ptr %pout, align 4
  ret void
}

; out[i] = (threadIdx.x & 1 ? a : b)[i]
define ptx_kernel void @selectedPointer(ptr %a, ptr %b, ptr %out) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %odd = trunc i32 %tx to i1
  %src = select i1 %odd, ptr %a, ptr %b
  %pin = getelementptr inbounds float, ptr %src, i64 %i64
  %v = load float, ptr %pin, align 4
  %pout = getelementptr inbounds float, ptr %out, i64 %i64
  store float %v, ptr %pout, align 4
  ret void
}

; x = bx * bdx + tx, y = by * bdy + ty:
; out[y * w + x] = in[(by * by) * w + x] * v[y]
define ptx_kernel void @mixed(ptr %in, ptr %v, ptr %out, i32 %w) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bdx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bdy = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %x0 = mul i32 %bx, %bdx
  %x = add i32 %x0, %tx
  %y0 = mul i32 %by, %bdy
  %y = add i32 %y0, %ty
  %sq = mul i32 %by, %by
  %inRow = mul i32 %sq, %w
  %i = add i32 %inRow, %x
  %i64 = zext i32 %i to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %i64
  %a = load float, ptr %pin, align 4
  %y64 = zext i32 %y to i64
  %pv = getelementptr inbounds float, ptr %v, i64 %y64
  %s = load float, ptr %pv, align 4
  %r = fmul float %a, %s
  %outRow = mul i32 %y, %w
  %o = add i32 %outRow, %x
  %o64 = zext i32 %o to i64
  %pout = getelementptr inbounds float, ptr %out, i64 %o64
  store float %r, ptr %pout, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
