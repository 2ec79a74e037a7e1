; A CTA barrier written in inline assembly (`bar.sync 0;`, `barrier.sync`,
; or CUTLASS/CUB-style named barriers `bar.sync 1, 128;`) is a barrier like
; __syncthreads(): after a divergent early return it needs one-chunk mode.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc -S %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=IR

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel asmBarSync: legal, one-chunk (threads may exit before a barrier other threads of the CTA still reach)
; LEGAL-NEXT: kernel asmNamedBarrier: legal, one-chunk (threads may exit before a barrier other threads of the CTA still reach)

; IR-DAG: @asmBarSync__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 5, i32 2, i32 0, i32 1, i32 0, i32 1, i32 0]
; IR-DAG: @asmNamedBarrier__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 5, i32 2, i32 0, i32 1, i32 0, i32 1, i32 0]

; if (threadIdx.x >= n) return; asm volatile("bar.sync 0;"); out[tid] = tid;
define ptx_kernel void @asmBarSync(ptr %out, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %exit, label %body
exit:
  ret void
body:
  call void asm sideeffect "bar.sync 0;", "~{memory}"()
  %p = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %tx, ptr %p, align 4
  ret void
}

; if (threadIdx.x >= n) return; asm volatile("bar.sync %0, %1;" :: "r"(1), "r"(128));
define ptx_kernel void @asmNamedBarrier(ptr %out, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %exit, label %body
exit:
  ret void
body:
  call void asm sideeffect "bar.sync $0, $1;", "r,r,~{memory}"(i32 1, i32 128)
  %p = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %tx, ptr %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
