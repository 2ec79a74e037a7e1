; A recursive call graph is refused only when the recursion reads blockIdx
; or gridDim: such reads could not be inlined into the variant.  `direct`
; (fact reads %ctaid in its base case) and `mutualReads` (the cycle even ->
; odd -> even reaches a reader) are refused with SMC_REFUSAL_RECURSION (9),
; remark naming kernel and reason, no variant.  `mutual` (even/odd read no
; grid register) gets both variants: the recursion stays a call.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel direct: refused: recursive call graph (recursive call of fact, which reads blockIdx/gridDim)
; LEGAL-NEXT: kernel mutual: legal, loop
; LEGAL-NEXT: kernel mutualReads: refused: recursive call graph (recursive call of {{evenR|oddR}}, which reads blockIdx/gridDim)

; REMARK-DAG: remark: <unknown>:0:0: kernel 'direct': no __smc variant: recursive call graph (recursive call of fact, which reads blockIdx/gridDim)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'direct': no __slice variant: recursive call graph (recursive call of fact, which reads blockIdx/gridDim)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'mutualReads': no __smc variant: recursive call graph
; REMARK-NOT: kernel 'mutual':

; IR-DAG: @direct__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 9, i32 9, i32 0, i32 1, i32 0]
; IR-DAG: @mutual__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @mutualReads__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 9, i32 9, i32 0, i32 1, i32 0]
; IR-DAG: define ptx_kernel void @mutual__smc(
; IR-DAG: define ptx_kernel void @mutual__slice(
; IR-NOT: define {{.*}}direct__{{smc|slice}}(
; IR-NOT: define {{.*}}mutualReads__{{smc|slice}}(

define ptx_kernel void @direct(ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %r = call i32 @fact(i32 %bx)
  store i32 %r, ptr %out
  ret void
}

define ptx_kernel void @mutual(ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %r = call i1 @even(i32 %bx)
  %z = zext i1 %r to i32
  store i32 %z, ptr %out
  ret void
}

define ptx_kernel void @mutualReads(ptr %out) {
  %r = call i1 @evenR(i32 7)
  %z = zext i1 %r to i32
  store i32 %z, ptr %out
  ret void
}

define internal i32 @fact(i32 %n) {
entry:
  %c = icmp ule i32 %n, 1
  br i1 %c, label %base, label %rec
base:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  ret i32 %bx
rec:
  %m = sub i32 %n, 1
  %f = call i32 @fact(i32 %m)
  %r = mul i32 %n, %f
  ret i32 %r
}

define internal i1 @even(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %yes, label %rec
yes:
  ret i1 true
rec:
  %m = sub i32 %n, 1
  %r = call i1 @odd(i32 %m)
  ret i1 %r
}

define internal i1 @odd(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %no, label %rec
no:
  ret i1 false
rec:
  %m = sub i32 %n, 1
  %r = call i1 @even(i32 %m)
  ret i1 %r
}

; evenR -> oddR -> evenR; oddR's base case reads gridDim.x.
define internal i1 @evenR(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %yes, label %rec
yes:
  ret i1 true
rec:
  %m = sub i32 %n, 1
  %r = call i1 @oddR(i32 %m)
  ret i1 %r
}

define internal i1 @oddR(i32 %n) {
entry:
  %g = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %z = icmp eq i32 %n, %g
  br i1 %z, label %no, label %rec
no:
  ret i1 false
rec:
  %m = sub i32 %n, 1
  %r = call i1 @evenR(i32 %m)
  ret i1 %r
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
