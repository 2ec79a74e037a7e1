; PTX `exit` written as inline assembly (asm volatile("exit;")) ends the
; thread like llvm.nvvm.exit: in a persistent worker the thread would be
; gone for every later chunk (and the worker's leader may be the one that
; left), so K__smc must run one chunk per worker, as for llvm.nvvm.exit.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc -S %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=IR

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel asmExit: legal, one-chunk

; IR: @asmExit__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 5, i32 2, i32 0, i32 1, i32 0, i32 1, i32 0]

; if (threadIdx.x >= n) asm volatile("exit;"); out[blockIdx.x] = threadIdx.x;
define ptx_kernel void @asmExit(ptr %out, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %quit, label %body
quit:
  call void asm sideeffect "exit;", ""()
  br label %body
body:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %p = getelementptr inbounds i32, ptr %out, i32 %bx
  store i32 %tx, ptr %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
