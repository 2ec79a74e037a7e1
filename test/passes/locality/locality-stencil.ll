; CTA locality "x" from overlapping footprints: a 1-D 3-point stencil reads
; in[i - 1], in[i], in[i + 1] with i = blockIdx.x * blockDim.x + threadIdx.x,
; so a CTA's first and last reads are its neighbours' (the halo); a 1-D
; convolution's loop over k < width reads in[i + k], more than one CTA step
; for any width the analysis cannot bound.  A copy of in[i] alone does not
; overlap.
;
; RUN: %opt %load_smc -passes='print<smc-locality>' -disable-output %s | FileCheck %s
; RUN: %opt %load_smc -passes=smc-locality -pass-remarks-analysis=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: kernel stencil3: x (x: reads of in by neighbours along x overlap)
; CHECK-NEXT: kernel boxFilter: x (x: reads of in by neighbours along x overlap)
; CHECK-NEXT: kernel copy: none (x: disjoint)

; REMARK: remark: <unknown>:0:0: kernel 'stencil3': CTA locality x (x: reads of in by neighbours along x overlap)
; REMARK: remark: <unknown>:0:0: kernel 'boxFilter': CTA locality x (x: reads of in by neighbours along x overlap)
; REMARK: remark: <unknown>:0:0: kernel 'copy': CTA locality none (x: disjoint)

; if (i > 0 && i < n - 1) out[i] = in[i - 1] + in[i] + in[i + 1]
define ptx_kernel void @stencil3(ptr %in, ptr %out, i32 %n) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %low = icmp sgt i32 %i, 0
  %last = add nsw i32 %n, -1
  %high = icmp slt i32 %i, %last
  %inside = and i1 %low, %high
  br i1 %inside, label %body, label %exit

body:
  %i64 = zext i32 %i to i64
  %mid = getelementptr float, ptr %in, i64 %i64
  %left = getelementptr i8, ptr %mid, i64 -4
  %vl = load float, ptr %left, align 4
  %vm = load float, ptr %mid, align 4
  %right = getelementptr i8, ptr %mid, i64 4
  %vr = load float, ptr %right, align 4
  %s1 = fadd float %vl, %vm
  %s2 = fadd float %s1, %vr
  %pout = getelementptr inbounds float, ptr %out, i64 %i64
  store float %s2, ptr %pout, align 4
  br label %exit

exit:
  ret void
}

; for (k = 0; k < width; ++k) sum += in[i + k]; out[i] = sum
define ptx_kernel void @boxFilter(ptr %in, ptr %out, i32 %width) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %any = icmp sgt i32 %width, 0
  br i1 %any, label %loop, label %done

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %ik = add nsw i32 %i, %k
  %ik64 = sext i32 %ik to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %ik64
  %vin = load float, ptr %pin, align 4
  %sum.next = fadd float %sum, %vin
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %width
  br i1 %more, label %loop, label %done

done:
  %result = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %i64 = sext i32 %i to i64
  %pout = getelementptr inbounds float, ptr %out, i64 %i64
  store float %result, ptr %pout, align 4
  ret void
}

; out[i] = in[i]
define ptx_kernel void @copy(ptr %in, ptr %out) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %i64
  %v = load float, ptr %pin, align 4
  %pout = getelementptr inbounds float, ptr %out, i64 %i64
  store float %v, ptr %pout, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
