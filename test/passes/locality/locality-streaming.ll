; CTA locality "none": neighbours read disjoint data.  vecAdd reads a[i] and
; b[i] with i = blockIdx.x * blockDim.x + threadIdx.x (a CTA's reads end
; where the next CTA's begin); a grid-stride loop steps by blockDim.x *
; gridDim.x, a stride of its own array dimension; a kernel whose addresses
; do not depend on blockIdx has no neighbour closer than another (every CTA
; reads the same), also "none".
;
; RUN: %opt %load_smc -passes='print<smc-locality>' -disable-output %s | FileCheck %s
; RUN: %opt %load_smc -passes=smc-locality -pass-remarks-analysis=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: kernel vecAdd: none (x: disjoint)
; CHECK-NEXT: kernel gridStride: none (x: disjoint)
; CHECK-NEXT: kernel sameForAll: none (no address depends on blockIdx)

; REMARK: remark: <unknown>:0:0: kernel 'vecAdd': CTA locality none (x: disjoint)
; REMARK: remark: <unknown>:0:0: kernel 'gridStride': CTA locality none (x: disjoint)
; REMARK: remark: <unknown>:0:0: kernel 'sameForAll': CTA locality none (no address depends on blockIdx)

; c[i] = a[i] + b[i]
define ptx_kernel void @vecAdd(ptr %a, ptr %b, ptr %c, i32 %n) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %inside = icmp slt i32 %i, %n
  br i1 %inside, label %body, label %exit

body:
  %i64 = zext i32 %i to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %i64
  %va = load float, ptr %pa, align 4
  %pb = getelementptr inbounds float, ptr %b, i64 %i64
  %vb = load float, ptr %pb, align 4
  %sum = fadd float %va, %vb
  %pc = getelementptr inbounds float, ptr %c, i64 %i64
  store float %sum, ptr %pc, align 4
  br label %exit

exit:
  ret void
}

; for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] += x[i]
define ptx_kernel void @gridStride(ptr %x, ptr %y, i32 %n) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %gd = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i0 = add i32 %first, %tx
  %step = mul i32 %bd, %gd
  %enter = icmp slt i32 %i0, %n
  br i1 %enter, label %loop, label %exit

loop:
  %i = phi i32 [ %i0, %entry ], [ %next, %loop ]
  %i64 = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %i64
  %vx = load float, ptr %px, align 4
  %py = getelementptr inbounds float, ptr %y, i64 %i64
  %vy = load float, ptr %py, align 4
  %sum = fadd float %vx, %vy
  store float %sum, ptr %py, align 4
  %next = add nsw i32 %i, %step
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; atomicAdd(&sum[threadIdx.x], in[threadIdx.x]): every CTA reads and
; writes the same addresses.
define ptx_kernel void @sameForAll(ptr %in, ptr %sum) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tx to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %t64
  %v = load float, ptr %pin, align 4
  %psum = getelementptr inbounds float, ptr %sum, i64 %t64
  %old = atomicrmw fadd ptr %psum, float %v monotonic, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
