; The barrier need not be in the kernel itself: a divergent early return
; before a call of a device function that contains __syncthreads() (here two
; calls deep, and kept as a call: noinline) still needs one-chunk mode.
; Without the divergent return the same kernel runs in loop mode.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc -S %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=IR

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel divergentExit: legal, one-chunk (threads may exit before a barrier other threads of the CTA still reach)
; LEGAL-NEXT: kernel noExit: legal, loop

; IR-DAG: @divergentExit__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 5, i32 2, i32 0, i32 1, i32 0, i32 1, i32 0]
; IR-DAG: @noExit__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 2, i32 0, i32 1, i32 0, i32 1, i32 0]

@buf = internal addrspace(3) global [128 x i32] undef, align 4

; if (threadIdx.x >= n) return; exchange(out);
define ptx_kernel void @divergentExit(ptr %out, i32 %n) {
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

define ptx_kernel void @noExit(ptr %out, i32 %n) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @exchange(ptr %out, i32 %tx)
  ret void
}

define internal void @exchange(ptr %out, i32 %tx) #0 {
  %p = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tx
  store i32 %tx, ptr addrspace(3) %p, align 4
  call void @sync()
  %r = sub i32 127, %tx
  %q = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %r
  %v = load i32, ptr addrspace(3) %q, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

define internal void @sync() #0 {
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

attributes #0 = { noinline }
