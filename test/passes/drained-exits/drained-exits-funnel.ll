; -smc-drained-exits: a kernel whose threads may return before a barrier
; other threads of the CTA still reach keeps persistent workers (loop mode,
; no SMC_INFO_ONE_CHUNK bit), and every barrier of its body becomes a call
; of the funnel (passes/DrainedExits.cpp), the function that holds the
; body's one barrier instruction: a barrier.red.popc that threads of the
; body enter with 1 and threads that can reach no barrier any more with 0.
; Those drain in a loop of funnel calls on their way out until the count is
; 0; a barrier after which no barrier is reachable is the first instance of
; its drain.  The body's control flow is otherwise unchanged: its loops stay
; loops, its values stay in SSA form.  Barriers the funnel cannot take (in a
; callee, __syncthreads_count) leave the kernel in one-chunk mode, saying
; why.  Without the option every such kernel runs one chunk per worker, as
; before.
;
; RUN: %opt %load_smc -smc-drained-exits -passes='print<smc-legality>' -disable-output %s | FileCheck %s --check-prefix=LEGAL
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt %load_smc -smc-drained-exits -passes=smc -smc-transforms=smc -pass-remarks=smc -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll
; RUN: FileCheck %s --check-prefix=FUNNEL < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel stencil: legal, loop, drained exits (threads may end a chunk before a barrier other threads of the CTA still reach)
; LEGAL-NEXT: kernel pyramid: legal, loop, drained exits (threads may end a chunk before a barrier other threads of the CTA still reach)
; LEGAL-NEXT: kernel calleeBarrier: legal, one-chunk (threads may exit before a barrier other threads of the CTA still reach, and a barrier the variant cannot drain at)
; LEGAL-NEXT: kernel countBarrier: legal, one-chunk (threads may exit before a barrier other threads of the CTA still reach, and a barrier the variant cannot drain at)

; DEFAULT: kernel stencil: legal, one-chunk (threads may exit before a barrier other threads of the CTA still reach)
; DEFAULT-NEXT: kernel pyramid: legal, one-chunk (threads may exit before a barrier other threads of the CTA still reach)

; REMARK-DAG: remark: <unknown>:0:0: kernel 'stencil': built stencil__smc (persistent workers, drained exits: threads may end a chunk before a barrier other threads of the CTA still reach; 1 blockIdx/gridDim reads replaced)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'pyramid': built pyramid__smc (persistent workers, drained exits: threads may end a chunk before a barrier other threads of the CTA still reach; 1 blockIdx/gridDim reads replaced)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'calleeBarrier': built calleeBarrier__smc (one chunk per worker: threads may exit before a barrier other threads of the CTA still reach, and a barrier the variant cannot drain at; 0 blockIdx/gridDim reads replaced)

; Loop mode (flags 1: HAS_SMC only), one chunk (flags 5) where it cannot drain.
; IR-DAG: @stencil__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1,
; IR-DAG: @pyramid__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1,
; IR-DAG: @calleeBarrier__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 5,
; IR-DAG: @countBarrier__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 5,

@tile = internal addrspace(3) global [256 x float] undef, align 4
@buf = internal addrspace(3) global [128 x i32] undef, align 4

; if (i >= n) return; tile[tx] = in[i]; __syncthreads(); out[i] = ...
; The early return drains; the barrier is the last one, so it becomes the
; drain on its way out (arriving with 0, a chunk ends after one instance,
; as the original's CTA); no barrier.red.popc in the kernel itself.
; IR-LABEL: define ptx_kernel void @stencil__smc(
; IR-NOT: call i32 @llvm.nvvm.barrier.cta.red.popc.all
; IR: br i1 %out.of.range, label %smc.drain, label %body
; IR: smc.drain:
; IR-NEXT: %smc.in.body.count = call i32 @__smc_funnel_barrier(i1 false)
; IR-NEXT: %smc.all.ended = icmp eq i32 %smc.in.body.count, 0
; IR-NEXT: br i1 %smc.all.ended, label %exit, label %smc.drain
; IR: body:
; IR-NOT: call
; IR: br label %smc.drain[[LAST:[0-9]+]]
; IR: smc.drain[[LAST]]:
; IR-NEXT: %smc.in.body.count{{[0-9]+}} = call i32 @__smc_funnel_barrier(i1 false)
; IR-NEXT: %smc.all.ended{{[0-9]+}} = icmp eq i32 %smc.in.body.count{{[0-9]+}}, 0
; IR-NEXT: br i1 %smc.all.ended{{[0-9]+}}, label %body.split{{[0-9]*}}, label %smc.drain[[LAST]]
; IR-NOT: call i32 @llvm.nvvm.barrier.cta.red.popc.all
; IR: {{^}}smc.exit:
; IR-LABEL: define ptx_kernel void @pyramid__smc(

; One funnel per module, kept out of line (the one barrier instruction that
; every lane of a warp waits at, wherever it comes from).
; FUNNEL-COUNT-1: define linkonce_odr i32 @__smc_funnel_barrier(i1 %in.body) #[[ATTRS:[0-9]+]] {
; FUNNEL-NEXT: %in.body.count = call i32 @llvm.nvvm.barrier.cta.red.popc.all(i32 0, i1 %in.body)
; FUNNEL-NEXT: ret i32 %in.body.count
; FUNNEL-NOT: define {{.*}}@__smc_funnel_barrier
; FUNNEL: attributes #[[ATTRS]] = { convergent noinline nounwind }
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
  store float %v, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t1 = add i32 %tx, 1
  %t2 = urem i32 %t1, 256
  %pn = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i32 0, i32 %t2
  %a = load float, ptr addrspace(3) %ps, align 4
  %c = load float, ptr addrspace(3) %pn, align 4
  %s = fadd float %a, %c
  %po = getelementptr inbounds float, ptr %out, i32 %i
  store float %s, ptr %po, align 4
  ret void
}

; hotspot's shape: an early return, a first barrier, then a loop of two
; barriers left by a break after the first of them.  The barriers before
; which a barrier is reachable arrive with 1, but the one before the break:
; its condition is known before it, so a thread that breaks arrives with 0,
; and that instance is the first of the break's drain, which starts from
; its count (no instance the original does not have).  The loop stays a
; natural loop: its header's phi comes straight from its latch.
; IR-NOT: call i32 @llvm.nvvm.barrier.cta.red.popc.all
; IR: br i1 %idle, label %smc.drain, label %load
; IR: load:
; IR: call i32 @__smc_funnel_barrier(i1 true)
; IR: loop:
; IR-NEXT: %k = phi i32 [ 0, %load.split ], [ %k.next, %latch.split ]
; IR-NEXT: %x = load i32
; IR-NEXT: %last.before = icmp eq i32 %k, %steps
; IR-NEXT: %smc.stays = xor i1 %last.before, true
; IR-NEXT: %[[COUNT:[0-9]+]] = call i32 @__smc_funnel_barrier(i1 %smc.stays)
; IR: br i1 %last, label %smc.drain.check, label %latch
; IR: latch:
; IR: call i32 @__smc_funnel_barrier(i1 true)
; IR: latch.split:
; IR-NEXT: %k.next = add i32 %k, 1
; IR-NEXT: br label %loop
; IR: smc.drain.check:
; IR-NEXT: %[[ENDED:smc.all.ended[0-9]*]] = icmp eq i32 %[[COUNT]], 0
; IR-NEXT: br i1 %[[ENDED]], label %done, label %smc.drain[[BREAK:[0-9]+]]
; IR: smc.drain[[BREAK]]:
; IR-NEXT: call i32 @__smc_funnel_barrier(i1 false)
; IR-NOT: call i32 @llvm.nvvm.barrier.cta.red.popc.all
; IR-LABEL: define ptx_kernel void @calleeBarrier__smc(
define ptx_kernel void @pyramid(ptr %out, i32 %n, i32 %steps) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %exit, label %load
load:
  %ps = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tx
  store i32 %bx, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %loop
loop:
  %k = phi i32 [ 0, %load ], [ %k.next, %latch ]
  %x = load i32, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %last = icmp eq i32 %k, %steps
  br i1 %last, label %done, label %latch
latch:
  %y = add i32 %x, %k
  store i32 %y, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %k.next = add i32 %k, 1
  br label %loop
done:
  %po = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %x, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; The barrier is inside a call the variant keeps: one chunk per worker.
define ptx_kernel void @calleeBarrier(ptr %out, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %exit, label %body
exit:
  ret void
body:
  call void @exchange(ptr %out, i32 %tx)
  ret void
}

; __syncthreads_count: a barrier with a reduction of its own.
define ptx_kernel void @countBarrier(ptr %out, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %exit, label %body
exit:
  ret void
body:
  %odd = trunc i32 %tx to i1
  %count = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 %odd)
  %po = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %count, ptr %po, align 4
  ret void
}

define internal void @exchange(ptr %out, i32 %tx) noinline {
  %p = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tx
  store i32 %tx, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t1 = add i32 %tx, 1
  %t2 = urem i32 %t1, 128
  %pn = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %pn, align 4
  %po = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %v, ptr %po, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32, i1)
