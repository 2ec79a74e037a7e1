; -smc-drained-exits: values that only pass through the funnel and are cheap
; pure functions of what is available there (threadIdx, blockIdx, kernel
; arguments) are computed again after the funnel's barrier instead of being
; carried in a phi (passes/DrainedExits.cpp, recomputeAtFunnel): a value in
; a phi holds a register across every barrier instance, which ptxas could
; otherwise recompute as it does in the original (hotspot's variant needed
; 40 registers instead of 32).  Values read from memory, divisions, and
; values with more than one definition stay in phis.
;
; RUN: %opt %load_smc -smc-drained-exits -passes=smc -smc-transforms=smc -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; The shared address %ps is computed again; %pn (a remainder) and %w (from a
; load) stay in phis; %i dominates the funnel and needs neither.
; CHECK-LABEL: define ptx_kernel void @stencil__smc(
; CHECK: %a = load float, ptr addrspace(3) %ps.again
; CHECK-NEXT: %c = load float, ptr addrspace(3) %pn.reg2mem.0
; CHECK: smc.funnel:
; CHECK-NEXT: %pn.reg2mem.0 = phi ptr addrspace(3) [ undef, %smc.drain ]
; CHECK-NEXT: %w.reg2mem.0 = phi float [ undef, %smc.drain ]
; CHECK-NEXT: %smc.resume.0 = phi i32
; CHECK-NOT: phi
; CHECK: %smc.in.body.count = call i32 @llvm.nvvm.barrier.cta.red.popc.all(i32 0, i1 %smc.in.body)
; CHECK-NEXT: %smc.all.ended = icmp eq i32 %smc.in.body.count, 0
; CHECK-NEXT: %ps.again = getelementptr [256 x float], ptr addrspace(3) @tile, i32 0, i32 %tx
; CHECK-NEXT: switch i32 %smc.resume.0
define ptx_kernel void @stencil(ptr %in, ptr %out, i32 %n) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = mul i32 %bx, %bd
  %i = add i32 %b, %tx
  %out.of.range = icmp sge i32 %i, %n
  br i1 %out.of.range, label %exit, label %body
exit:
  ret void
body:
  %pi = getelementptr inbounds float, ptr %in, i32 %i
  %v = load float, ptr %pi, align 4
  %ps = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i32 0, i32 %tx
  %t1 = add i32 %tx, 1
  %t2 = urem i32 %t1, 256
  %pn = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i32 0, i32 %t2
  %w = fmul float %v, 2.0
  store float %v, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %a = load float, ptr addrspace(3) %ps, align 4
  %c = load float, ptr addrspace(3) %pn, align 4
  %s = fadd float %a, %c
  %s2 = fadd float %s, %w
  %po = getelementptr inbounds float, ptr %out, i32 %i
  store float %s2, ptr %po, align 4
  ret void
}

; st's shape: the first barrier is inside a loop, the loop-invariant address
; %ps (hoisted before the loop) and the row %row then pass through the loop
; header's phis and the funnel.  Both are computed again, after the funnel
; and after the loop header's phis, so only the counter %k and the value
; %x read from memory are carried.  %row's flags are dropped: on the paths
; where the phi carried undef it must not become poison.
; CHECK-LABEL: define ptx_kernel void @sweep__smc(
; CHECK: loop:
; CHECK-NOT: phi ptr
; CHECK: %k.reg2mem.0 = phi i32
; CHECK-NEXT: %ps.again{{[0-9]+}} = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tx
; CHECK-NEXT: %row.again{{[0-9]+}} = mul i32 %smc.blockIdx.x, %n
; CHECK-NEXT: store i32 %x.reg2mem.0, ptr addrspace(3) %ps.again
; CHECK: smc.funnel:
; CHECK-NOT: phi ptr
; CHECK: call i32 @llvm.nvvm.barrier.cta.red.popc.all
; CHECK-NEXT: %smc.all.ended
; CHECK-DAG: %ps.again = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tx
; CHECK-DAG: %row.again = mul i32 %smc.blockIdx.x, %n
; CHECK: switch
@buf = internal addrspace(3) global [128 x i32] undef, align 4
define ptx_kernel void @sweep(ptr %out, i32 %n, i32 %steps) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %exit, label %pre
pre:
  %ps = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tx
  %row = mul nsw i32 %bx, %n
  br label %loop
loop:
  %k = phi i32 [ 0, %pre ], [ %k.next, %loop ]
  %x = phi i32 [ 0, %pre ], [ %y, %loop ]
  store i32 %x, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %y0 = load i32, ptr addrspace(3) %ps, align 4
  %y = add i32 %y0, %row
  %k.next = add i32 %k, 1
  %more = icmp ult i32 %k.next, %steps
  br i1 %more, label %loop, label %done
done:
  %po = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %y, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; %p has two definitions (one per branch): it stays in a phi.
; CHECK-LABEL: define ptx_kernel void @twoWays__smc(
; CHECK: smc.funnel:
; CHECK: phi ptr addrspace(3)
; CHECK: call i32 @llvm.nvvm.barrier.cta.red.popc.all
define ptx_kernel void @twoWays(ptr %out, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %exit, label %pick
pick:
  %odd = trunc i32 %tx to i1
  br i1 %odd, label %left, label %right
left:
  %pl = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tx
  br label %join
right:
  %t1 = add i32 %tx, 1
  %pr = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %t1
  br label %join
join:
  %p = phi ptr addrspace(3) [ %pl, %left ], [ %pr, %right ]
  store i32 %tx, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %v = load i32, ptr addrspace(3) %p, align 4
  %po = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %v, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; %first is computed in the loop's first iteration only, from the counter
; %k, and carried to the later ones: computed again from the counter's
; value of a later iteration it would be wrong, so it stays in phis (only
; values the chunk computes once before its first barrier are used again).
; CHECK-LABEL: define ptx_kernel void @firstRow__smc(
; CHECK: smc.funnel:
; CHECK: phi ptr addrspace(3)
; CHECK: call i32 @llvm.nvvm.barrier.cta.red.popc.all
; CHECK-NOT: .again =
; CHECK: {{^}$}}
define ptx_kernel void @firstRow(ptr %out, i32 %n, i32 %steps) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %exit, label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %latch ]
  %kept = phi ptr addrspace(3) [ undef, %entry ], [ %held, %latch ]
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %is.first = icmp eq i32 %k, 0
  br i1 %is.first, label %set, label %latch
set:
  %first = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %k
  br label %latch
latch:
  %held = phi ptr addrspace(3) [ %first, %set ], [ %kept, %loop ]
  store i32 %tx, ptr addrspace(3) %held, align 4
  %k.next = add i32 %k, 1
  %more = icmp ult i32 %k.next, %steps
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
