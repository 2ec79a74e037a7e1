; Inter-CTA spin-waits are refused: a loop that writes nothing and whose exit
; depends on a volatile or atomic read of global memory waits for another
; CTA, which may never run if chunk order changes.  Shown: a spin on a
; volatile load, an atomicCAS lock loop, an acquire load with __nanosleep and
; __threadfence in the loop, and a spin inside a device function.  The
; remark names kernel and reason; no variant is built; the info record
; carries SMC_REFUSAL_SPIN_WAIT (6).
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=built
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel waitFlag: refused: inter-CTA spin-wait (loop waits on a value another CTA writes)
; LEGAL-NEXT: kernel casLock: refused: inter-CTA spin-wait (loop waits on a value another CTA writes)
; LEGAL-NEXT: kernel acquireSleep: refused: inter-CTA spin-wait (loop waits on a value another CTA writes)
; LEGAL-NEXT: kernel waitInCallee: refused: inter-CTA spin-wait (loop waits on a value another CTA writes)

; REMARK-DAG: remark: <unknown>:0:0: kernel 'waitFlag': no __smc variant: inter-CTA spin-wait (loop waits on a value another CTA writes)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'waitFlag': no __slice variant: inter-CTA spin-wait (loop waits on a value another CTA writes)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'casLock': no __smc variant: inter-CTA spin-wait (loop waits on a value another CTA writes)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'acquireSleep': no __smc variant: inter-CTA spin-wait (loop waits on a value another CTA writes)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'waitInCallee': no __smc variant: inter-CTA spin-wait (loop waits on a value another CTA writes)

; IR-DAG: @waitFlag__smc_info = addrspace(1) constant [5 x i32] [i32 [[ABI]], i32 0, i32 2, i32 6, i32 6]
; IR-DAG: @casLock__smc_info = addrspace(1) constant [5 x i32] [i32 [[ABI]], i32 0, i32 2, i32 6, i32 6]
; IR-DAG: @acquireSleep__smc_info = addrspace(1) constant [5 x i32] [i32 [[ABI]], i32 0, i32 2, i32 6, i32 6]
; IR-DAG: @waitInCallee__smc_info = addrspace(1) constant [5 x i32] [i32 [[ABI]], i32 0, i32 2, i32 6, i32 6]
; IR-NOT: define {{.*}}__smc(
; IR-NOT: define {{.*}}__slice(

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

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.nanosleep(i32)
declare void @llvm.nvvm.membar.gl()
