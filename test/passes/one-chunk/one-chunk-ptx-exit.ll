; A kernel that executes PTX `exit` (llvm.nvvm.exit) ends its threads
; outright; a persistent worker must not, so K__smc runs one chunk per
; worker, with or without a barrier, also when the exit is in a callee.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel exits: legal, one-chunk (executes PTX exit)
; LEGAL-NEXT: kernel exitsInCallee: legal, one-chunk (executes PTX exit)

; REMARK-DAG: kernel 'exits': built exits__smc (one chunk per worker: executes PTX exit; 1 blockIdx/gridDim reads replaced)
; REMARK-DAG: kernel 'exitsInCallee': built exitsInCallee__smc (one chunk per worker: executes PTX exit;

; IR-DAG: @exits__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 7, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @exitsInCallee__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 7, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0]

; if (threadIdx.x >= n) asm("exit;"); out[blockIdx.x] = 1;
define ptx_kernel void @exits(ptr %out, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idle = icmp uge i32 %tx, %n
  br i1 %idle, label %quit, label %body
quit:
  call void @llvm.nvvm.exit()
  unreachable
body:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %p = getelementptr inbounds i32, ptr %out, i32 %bx
  store i32 1, ptr %p, align 4
  ret void
}

define ptx_kernel void @exitsInCallee(ptr %out) {
  call void @maybeQuit(ptr %out)
  store i32 1, ptr %out, align 4
  ret void
}

define internal void @maybeQuit(ptr %p) {
entry:
  %v = load i32, ptr %p, align 4
  %z = icmp eq i32 %v, 0
  br i1 %z, label %quit, label %done
quit:
  call void @llvm.nvvm.exit()
  unreachable
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.exit()
