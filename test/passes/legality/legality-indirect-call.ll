; An indirect call (function pointer, virtual call) is harmless when every
; possible target is known and none reads blockIdx/gridDim: the call stays a
; call in the variants.  Known: a select or phi of functions of the module,
; or an entry of a constant dispatch table holding only such functions.  A
; pointer from anywhere else (a kernel argument, mutable memory) may point
; into another translation unit under -fgpu-rdc, which leaves no trace in
; the device module: refused.  A known target that reads the grid is refused
; by name.  Refusals carry SMC_REFUSAL_INDIRECT_CALL (8) and a remark.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel callsArgument: refused: indirect call (indirect call whose targets are not known here (a function pointer from elsewhere may point into another translation unit))
; LEGAL-NEXT: kernel callsPureTable: legal, loop
; LEGAL-NEXT: kernel callsReaderTable: refused: indirect call (indirect call; its possible target blockOf reads blockIdx/gridDim)
; LEGAL-NEXT: kernel callsSelect: legal, loop
; LEGAL-NEXT: kernel callsMutableTable: refused: indirect call (indirect call whose targets are not known here

; REMARK-DAG: remark: <unknown>:0:0: kernel 'callsArgument': no __smc variant: indirect call (indirect call whose targets are not known here
; REMARK-DAG: remark: <unknown>:0:0: kernel 'callsReaderTable': no __slice variant: indirect call (indirect call; its possible target blockOf reads blockIdx/gridDim)
; REMARK-NOT: kernel 'callsPureTable'
; REMARK-NOT: kernel 'callsSelect'

; IR-DAG: @callsArgument__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 8, i32 8, i32 0, i32 1, i32 0]
; IR-DAG: @callsPureTable__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @callsReaderTable__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 8, i32 8, i32 0, i32 1, i32 0]
; IR-DAG: @callsSelect__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @callsMutableTable__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 8, i32 8, i32 0, i32 1, i32 0]
; IR-DAG: define ptx_kernel void @callsPureTable__smc(
; IR-DAG: define ptx_kernel void @callsSelect__slice(

@pureTable = internal addrspace(1) constant [2 x ptr] [ptr @twice, ptr @thrice]
@readerTable = internal addrspace(1) constant [2 x ptr] [ptr @twice, ptr @blockOf]
@mutableTable = internal addrspace(1) global [2 x ptr] [ptr @twice, ptr @thrice]

define ptx_kernel void @callsArgument(ptr %fp, ptr %out) {
  %r = call i32 %fp(i32 1)
  store i32 %r, ptr %out
  ret void
}

define ptx_kernel void @callsPureTable(i32 %which, ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %slot = getelementptr inbounds [2 x ptr], ptr addrspace(1) @pureTable, i32 0, i32 %which
  %fp = load ptr, ptr addrspace(1) %slot
  %r = call i32 %fp(i32 %bx)
  store i32 %r, ptr %out
  ret void
}

define ptx_kernel void @callsReaderTable(i32 %which, ptr %out) {
  %slot = getelementptr inbounds [2 x ptr], ptr addrspace(1) @readerTable, i32 0, i32 %which
  %fp = load ptr, ptr addrspace(1) %slot
  %r = call i32 %fp(i32 1)
  store i32 %r, ptr %out
  ret void
}

define ptx_kernel void @callsSelect(i1 %c, ptr %out) {
  %fp = select i1 %c, ptr @twice, ptr @thrice
  %r = call i32 %fp(i32 1)
  store i32 %r, ptr %out
  ret void
}

define ptx_kernel void @callsMutableTable(i32 %which, ptr %out) {
  %slot = getelementptr inbounds [2 x ptr], ptr addrspace(1) @mutableTable, i32 0, i32 %which
  %fp = load ptr, ptr addrspace(1) %slot
  %r = call i32 %fp(i32 1)
  store i32 %r, ptr %out
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

define internal i32 @blockOf(i32 %x) {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %r = add i32 %x, %b
  ret i32 %r
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
