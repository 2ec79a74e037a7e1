; An indirect call (function pointer, virtual call) is refused only when a
; possible target - any address-taken function of the module - reads
; blockIdx or gridDim (its reads could not be inlined into the variant);
; the remark names kernel, reason and that target, the info record carries
; SMC_REFUSAL_INDIRECT_CALL (8).  Without such a target the call stays a
; call and both variants are built (the targets are checked like callees).
; Two modules, split by split-file: one whose table holds a grid reader,
; one whose doesn't.
;
; RUN: split-file %s %t
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %t/reader.ll | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL-READER
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks-missed=smc -S %t/reader.ll -o %t/reader.out.ll 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=built
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR-READER < %t/reader.out.ll
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %t/plain.ll | FileCheck %s --check-prefix=LEGAL-PLAIN
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -S %t/plain.ll -o %t/plain.out.ll
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR-PLAIN < %t/plain.out.ll
; RUN: %opt -passes=verify -disable-output %t/plain.out.ll

; LEGAL-READER: kernel callsPointer: refused: indirect call (indirect call; its possible target blockOf reads blockIdx/gridDim)
; REMARK: remark: <unknown>:0:0: kernel 'callsPointer': no __smc variant: indirect call (indirect call; its possible target blockOf reads blockIdx/gridDim)
; REMARK: remark: <unknown>:0:0: kernel 'callsPointer': no __slice variant: indirect call
; IR-READER: @callsPointer__smc_info = addrspace(1) constant [5 x i32] [i32 [[ABI]], i32 0, i32 2, i32 8, i32 8]
; IR-READER-NOT: define {{.*}}__smc(

; LEGAL-PLAIN: kernel callsPointer: legal, loop
; IR-PLAIN: @callsPointer__smc_info = addrspace(1) constant [5 x i32] [i32 [[ABI]], i32 3, i32 2, i32 0, i32 0]
; IR-PLAIN: define ptx_kernel void @callsPointer__smc(
; IR-PLAIN: call i32 %fp(i32 1)

;--- reader.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = addrspace(1) global [2 x ptr] [ptr @twice, ptr @blockOf]

define ptx_kernel void @callsPointer(ptr %fp, ptr %out) {
  %r = call i32 %fp(i32 1)
  store i32 %r, ptr %out
  ret void
}

define internal i32 @twice(i32 %x) {
  %r = shl i32 %x, 1
  ret i32 %r
}

define internal i32 @blockOf(i32 %x) {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %r = add i32 %x, %b
  ret i32 %r
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

;--- plain.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = addrspace(1) global [2 x ptr] [ptr @twice, ptr @thrice]

define ptx_kernel void @callsPointer(ptr %fp, ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %r = call i32 %fp(i32 1)
  %s = add i32 %r, %bx
  store i32 %s, ptr %out
  ret void
}

define internal i32 @twice(i32 %x) {
  %r = shl i32 %x, 1
  ret i32 %r
}

define internal i32 @thrice(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
