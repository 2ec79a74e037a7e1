; Inter-CTA waits: a loop that writes nothing and whose exit depends on a
; read of memory another CTA writes waits for that CTA.  The original relies
; on the hardware starting CTAs in blockIdx order; such kernels get ordered
; mode (SMC_INFO_ORDERED, flag 8: chunks claimed in blockIdx order) instead
; of a refusal.  Found: a volatile spin, a CAS lock, an acquire load with
; __nanosleep and __threadfence, a spin in a device function, CUB's
; decoupled look-back shape (inline-asm ld.relaxed and nanosleep with memory
; clobbers, a warp vote), and the -O0 shape where the asm sits in wrapper
; functions.  Refused (SMC_REFUSAL_GRID_BARRIER, 6): grid-wide barriers
; built by hand, which wait for later CTAs: a count compared with gridDim,
; and a generation flag the kernel itself writes.  Not waits: a loop that
; stores (work), a loop whose atomic result nobody tests.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks=smc -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel waitFlag: legal, loop, ordered (loop waits on a value another CTA writes)
; LEGAL-NEXT: kernel casLock: legal, loop, ordered (loop waits on a value another CTA writes)
; LEGAL-NEXT: kernel acquireSleep: legal, loop, ordered (loop waits on a value another CTA writes)
; LEGAL-NEXT: kernel waitInCallee: legal, loop, ordered (loop waits on a value another CTA writes)
; LEGAL-NEXT: kernel lookBack: legal, loop, ordered (loop waits on a value another CTA writes)
; LEGAL-NEXT: kernel lookBackWrappers: legal, loop, ordered (loop waits on a value another CTA writes)
; LEGAL-NEXT: kernel countBarrier: refused: grid-wide barrier built by hand (waits for later CTAs) (the loop waits for a count that depends on gridDim)
; LEGAL-NEXT: kernel generationBarrier: refused: grid-wide barrier built by hand (waits for later CTAs) (the loop waits on a location the kernel itself writes (an arrival counter or flag))
; LEGAL-NEXT: kernel workQueue: legal, loop{{$}}
; LEGAL-NEXT: kernel untestedAtomic: legal, loop{{$}}

; REMARK-DAG: remark: <unknown>:0:0: kernel 'lookBack': built lookBack__smc (persistent workers; chunks in blockIdx order: loop waits on a value another CTA writes; 1 blockIdx/gridDim reads replaced)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'countBarrier': no __smc variant: grid-wide barrier built by hand (waits for later CTAs) (the loop waits for a count that depends on gridDim)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'countBarrier': no __slice variant: grid-wide barrier built by hand (waits for later CTAs) (the loop waits for a count that depends on gridDim)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'generationBarrier': no __smc variant: grid-wide barrier built by hand (waits for later CTAs)

; Info record: abi, flags (1 __smc, 2 __slice, 8 ordered), params, refusals,
; locality, remap refusal (1: not requested) and remap key (0: none).
; IR-DAG: @waitFlag__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 11, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @casLock__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 11, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @acquireSleep__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 11, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @waitInCallee__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 11, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @lookBack__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 11, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @lookBackWrappers__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 11, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @countBarrier__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 6, i32 6, i32 0, i32 1, i32 0]
; IR-DAG: @generationBarrier__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 3, i32 6, i32 6, i32 0, i32 1, i32 0]
; IR-DAG: @workQueue__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 3, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @untestedAtomic__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: define ptx_kernel void @lookBack__smc(
; IR-DAG: define ptx_kernel void @lookBack__slice(
; IR-NOT: define {{.*}}Barrier__{{smc|slice}}(

; if (threadIdx.x == 0) while (*(volatile int *)flag == 0) {}
; __syncthreads(); out[blockIdx.x] = 1;
define ptx_kernel void @waitFlag(ptr %flag, ptr %out) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %leader = icmp eq i32 %tx, 0
  br i1 %leader, label %spin, label %done
spin:
  %v = load volatile i32, ptr %flag, align 4
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %spin, label %done
done:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %p = getelementptr inbounds i32, ptr %out, i32 %bx
  store i32 1, ptr %p, align 4
  ret void
}

; while (atomicCAS(lock, 0, 1) != 0) {}  out[0] += 1;  atomicExch(lock, 0);
; (the lock is written outside the loop, but a lock is held only by running
; CTAs: no grid barrier)
define ptx_kernel void @casLock(ptr %lock, ptr %out) {
entry:
  %g = addrspacecast ptr %lock to ptr addrspace(1)
  br label %spin
spin:
  %pair = cmpxchg ptr addrspace(1) %g, i32 0, i32 1 seq_cst seq_cst, align 4
  %old = extractvalue { i32, i1 } %pair, 0
  %busy = icmp ne i32 %old, 0
  br i1 %busy, label %spin, label %crit
crit:
  %x = load i32, ptr %out, align 4
  %x1 = add i32 %x, 1
  store i32 %x1, ptr %out, align 4
  %prev = atomicrmw xchg ptr addrspace(1) %g, i32 0 seq_cst, align 4
  ret void
}

; while (ld.acquire(flag) == 0) { __nanosleep(100); __threadfence(); }
define ptx_kernel void @acquireSleep(ptr %flag, ptr %out) {
entry:
  br label %spin
spin:
  %v = load atomic i32, ptr %flag acquire, align 4
  call void @llvm.nvvm.nanosleep(i32 100)
  call void @llvm.nvvm.membar.gl()
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %spin, label %done
done:
  store i32 %v, ptr %out, align 4
  ret void
}

define ptx_kernel void @waitInCallee(ptr %flag, ptr %out) {
  call void @waitFor(ptr %flag)
  store i32 1, ptr %out, align 4
  ret void
}

define internal void @waitFor(ptr %flag) {
entry:
  br label %spin
spin:
  %v = load volatile i32, ptr %flag, align 4
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %spin, label %done
done:
  ret void
}

; CUB's decoupled look-back, as clang -O2 leaves it: publish the own tile's
; status with st.relaxed, then poll the predecessor's with ld.relaxed and
; nanosleep back-off (both inline asm with side effects and memory
; clobbers) until no lane sees an invalid status.
define ptx_kernel void @lookBack(ptr %status, ptr %out) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %own = getelementptr inbounds i32, ptr %status, i32 %bx
  call void asm sideeffect "st.relaxed.gpu.u32 [$0], $1;", "l,r,~{memory}"(ptr %own, i32 1)
  %prev = add i32 %bx, -1
  %pred = getelementptr inbounds i32, ptr %status, i32 %prev
  br label %spin
spin:
  call void asm sideeffect "nanosleep.u32 $0;", "r"(i32 100)
  %s = call i32 asm sideeffect "ld.relaxed.gpu.u32 $0, [$1];", "=r,l,~{memory}"(ptr %pred)
  %invalid = icmp eq i32 %s, 0
  %any = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %invalid)
  br i1 %any, label %spin, label %done
done:
  store i32 %s, ptr %out, align 4
  ret void
}

; The same at -O0: the asm sits in small wrapper functions.
define ptx_kernel void @lookBackWrappers(ptr %status, ptr %out) {
entry:
  br label %spin
spin:
  call void @backOff(i32 100)
  %s = call i32 @loadRelaxed(ptr %status)
  %invalid = icmp eq i32 %s, 0
  br i1 %invalid, label %spin, label %done
done:
  store i32 %s, ptr %out, align 4
  ret void
}

define internal void @backOff(i32 %ns) noinline {
  call void asm sideeffect "nanosleep.u32 $0;", "r"(i32 %ns)
  ret void
}

define internal i32 @loadRelaxed(ptr %p) noinline {
  %v = call i32 asm sideeffect "ld.acquire.gpu.u32 $0, [$1];", "=r,l,~{memory}"(ptr %p)
  ret i32 %v
}

; atomicAdd(count, 1); while (atomicAdd(count, 0) < gridDim.x) {}
define ptx_kernel void @countBarrier(ptr %count, ptr %out) {
entry:
  %g = addrspacecast ptr %count to ptr addrspace(1)
  %arrive = atomicrmw add ptr addrspace(1) %g, i32 1 seq_cst, align 4
  %n = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  br label %spin
spin:
  %c = atomicrmw add ptr addrspace(1) %g, i32 0 seq_cst, align 4
  %wait = icmp ult i32 %c, %n
  br i1 %wait, label %spin, label %done
done:
  store i32 1, ptr %out, align 4
  ret void
}

; A sense-reversing barrier for %n CTAs (a kernel argument, not gridDim):
; the last to arrive bumps the generation, the others wait for it to change.
define ptx_kernel void @generationBarrier(ptr %count, ptr %gen, i32 %n) {
entry:
  %g0 = load volatile i32, ptr %gen, align 4
  %arrived = atomicrmw add ptr %count, i32 1 seq_cst, align 4
  %last = add i32 %n, -1
  %isLast = icmp eq i32 %arrived, %last
  br i1 %isLast, label %release, label %spin
release:
  store i32 0, ptr %count, align 4
  %g1 = add i32 %g0, 1
  store volatile i32 %g1, ptr %gen, align 4
  br label %done
spin:
  %g = load volatile i32, ptr %gen, align 4
  %same = icmp eq i32 %g, %g0
  br i1 %same, label %spin, label %done
done:
  ret void
}

; for (i = atomicAdd(next, 1); i < n; i = atomicAdd(next, 1)) out[i] = i;
define ptx_kernel void @workQueue(ptr %next, ptr %out, i32 %n) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  br label %loop
loop:
  %i = atomicrmw add ptr %next, i32 1 seq_cst, align 4
  %more = icmp ult i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %p = getelementptr inbounds i32, ptr %out, i32 %i
  store i32 %bx, ptr %p, align 4
  br label %loop
done:
  ret void
}

; while (*(volatile int *)flag == 0) atomicAdd(sum, 1);  (the atomic is work)
define ptx_kernel void @untestedAtomic(ptr %flag, ptr %sum) {
entry:
  br label %spin
spin:
  %old = atomicrmw add ptr %sum, i32 1 seq_cst, align 4
  %v = load volatile i32, ptr %flag, align 4
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %spin, label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.nanosleep(i32)
declare void @llvm.nvvm.membar.gl()
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
