; -smc-drained-exits keeps the body's values where they were: a barrier
; becomes a call of the funnel (passes/DrainedExits.cpp) in place, so no
; value is carried through a dispatch block, none is demoted to a stack
; slot, loop headers keep their phis from their latches, and ptxas can
; recompute addresses from threadIdx and step pointers in loops as it does
; in the original.  (The first form of the funnel, one block that every
; barrier branched to, carried every value live across a barrier in a phi:
; hotspot's variant needed 40 registers instead of 21, and the loops it
; headed lost loop strength reduction.)
;
; RUN: %opt %load_smc -smc-drained-exits -passes=smc -smc-transforms=smc -S %s | FileCheck %s
; CHECK-NOT: reg2mem
; CHECK-NOT: alloca i32

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; The shared addresses %ps and %pn and the value %w cross the barrier as
; they are; the barrier, the last one, is the drain on the way out.
; CHECK-LABEL: define ptx_kernel void @stencil__smc(
; CHECK: %ps = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i32 0, i32 %tx
; CHECK: %w = fmul float %v, 2.0
; CHECK: call i32 @__smc_funnel_barrier(i1 false)
; CHECK: %a = load float, ptr addrspace(3) %ps, align 4
; CHECK-NEXT: %c = load float, ptr addrspace(3) %pn, align 4
; CHECK-NEXT: %s = fadd float %a, %c
; CHECK-NEXT: %s2 = fadd float %s, %w
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

; st's shape: the barrier inside a loop.  The loop stays a loop (its
; header's phis come from its own latch), the loop-invariant address %ps
; and the row %row stay where they were computed, before the loop.
; CHECK-LABEL: define ptx_kernel void @sweep__smc(
; CHECK: pre:
; CHECK-NEXT: %ps = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tx
; CHECK-NEXT: %row = mul nsw i32 %smc.blockIdx.x, %n
; CHECK: loop:
; CHECK-NEXT: %k = phi i32 [ 0, %pre ], [ %k.next, %loop.split ]
; CHECK-NEXT: %x = phi i32 [ 0, %pre ], [ %y, %loop.split ]
; CHECK-NEXT: store i32 %x, ptr addrspace(3) %ps, align 4
; CHECK-NEXT: call i32 @__smc_funnel_barrier(i1 true)
; CHECK: loop.split:
; CHECK-NEXT: %y0 = load i32, ptr addrspace(3) %ps, align 4
; CHECK-NEXT: %y = add i32 %y0, %row
; CHECK: br i1 %more, label %loop, label %smc.drain
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

; %p has two definitions (one per branch): its phi stays as it was.
; CHECK-LABEL: define ptx_kernel void @twoWays__smc(
; CHECK: join:
; CHECK-NEXT: %p = phi ptr addrspace(3) [ %pl, %left ], [ %pr, %right ]
; CHECK: call i32 @__smc_funnel_barrier(i1 false)
; CHECK: %v = load i32, ptr addrspace(3) %p, align 4
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

; %first is computed in the loop's first iteration only and carried to the
; later ones by the loop's own phis, which stay as they were.  The loop's
; way out after its last barrier drains: the edge from the latch to the
; exit gets a drain block, and the phis of the exit would name it.
; CHECK-LABEL: define ptx_kernel void @firstRow__smc(
; CHECK: loop:
; CHECK-NEXT: %k = phi i32 [ 0, %entry ], [ %k.next, %latch ]
; CHECK-NEXT: %kept = phi ptr addrspace(3) [ undef, %entry ], [ %held, %latch ]
; CHECK-NEXT: call i32 @__smc_funnel_barrier(i1 true)
; CHECK: latch:
; CHECK-NEXT: %held = phi ptr addrspace(3) [ %first, %set ], [ %kept, %loop.split ]
; CHECK: br i1 %more, label %loop, label %smc.drain
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

; Two ways out into a block with a phi, one of them from two cases of a
; switch: one drain block per pair of blocks, and the phi names the drains.
; CHECK-LABEL: define ptx_kernel void @exitPhi__smc(
; CHECK: switch i32 %tx, label %loop [
; CHECK-NEXT: i32 1, label %smc.drain
; CHECK-NEXT: i32 2, label %smc.drain
; CHECK-NEXT: ]
; CHECK: br i1 %more, label %loop, label %smc.drain[[LOOP:[0-9]+]]
; CHECK: exit:
; CHECK-NEXT: %r = phi i32 [ %tx, %smc.drain ], [ %k.next, %smc.drain[[LOOP]] ]
define ptx_kernel void @exitPhi(ptr %out, i32 %steps) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  switch i32 %tx, label %loop [ i32 1, label %exit
                                i32 2, label %exit ]
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %k.next = add i32 %k, 1
  %more = icmp ult i32 %k.next, %steps
  br i1 %more, label %loop, label %exit
exit:
  %r = phi i32 [ %tx, %entry ], [ %tx, %entry ], [ %k.next, %loop ]
  %po = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %r, ptr %po, align 4
  ret void
}

; A break whose condition is known before the barrier (from the loop's
; counter): the barrier is the first instance of the break's drain, which
; starts from its count; the phi after the loop names both ways into it.
; CHECK-LABEL: define ptx_kernel void @breakPhi__smc(
; CHECK: loop:
; CHECK: %last.before = icmp eq i32 %k, %steps
; CHECK-NEXT: %smc.stays = xor i1 %last.before, true
; CHECK-NEXT: call i32 @__smc_funnel_barrier(i1 %smc.stays)
; CHECK: br i1 %last, label %smc.drain.check, label %latch
; CHECK: done:
; CHECK-NEXT: %r = phi i32 [ %k, %smc.drain{{[0-9]*}} ], [ %k, %smc.drain.check ]
define ptx_kernel void @breakPhi(ptr %out, i32 %n, i32 %steps) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %exit, label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %latch ]
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %last = icmp eq i32 %k, %steps
  br i1 %last, label %done, label %latch
latch:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %k.next = add i32 %k, 1
  br label %loop
done:
  %r = phi i32 [ %k, %loop ]
  %po = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %r, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; A break on a value read after the barrier: not known before it, so the
; barrier arrives with 1 and the break drains from a fresh instance.
; CHECK-LABEL: define ptx_kernel void @loadedBreak__smc(
; CHECK: loop:
; CHECK-NEXT: %k = phi i32
; CHECK-NEXT: call i32 @__smc_funnel_barrier(i1 true)
; CHECK: br i1 %stop, label %smc.drain{{[0-9]*}}, label %latch
; CHECK-NOT: smc.drain.check
define ptx_kernel void @loadedBreak(ptr %out, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %exit, label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %latch ]
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %flag = load i32, ptr addrspace(3) @buf, align 4
  %stop = icmp ne i32 %flag, 0
  br i1 %stop, label %done, label %latch
latch:
  %p = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %k
  store i32 %tx, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %k.next = add i32 %k, 1
  br label %loop
done:
  %po = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %k, ptr %po, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
