; A device function that reads blockIdx but cannot be inlined (here: a
; variadic function using va_start, which LLVM's isInlineViable rejects) must
; not be inlined anyway: that leaves va_start in the non-variadic variant,
; a broken module (and, without the verifier, a variant whose va_list points
; at the descriptor).  Both variants are refused with
; SMC_REFUSAL_NOT_INLINABLE (10) and a remark naming kernel, reason and
; callee; the module verifies (opt verifies its output).
;
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks=smc -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=built
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; REMARK-DAG: remark: <unknown>:0:0: kernel 'K': no __smc variant: a function reading blockIdx/gridDim could not be inlined (call of sumArgs)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'K': no __slice variant: a function reading blockIdx/gridDim could not be inlined (call of sumArgs)

; IR: @K__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 10, i32 10, i32 0, i32 1, i32 0]
; IR-NOT: define {{.*}}@K__{{smc|slice}}(

define ptx_kernel void @K(ptr %out) {
  %r = call i32 (i32, ...) @sumArgs(i32 1, i32 2)
  store i32 %r, ptr %out
  ret void
}

; int sumArgs(int n, ...) { va_list ap; va_start(ap, n);
;   int v = va_arg(ap, int); va_end(ap); return v + blockIdx.x; }
define internal i32 @sumArgs(i32 %n, ...) {
  %ap = alloca ptr
  call void @llvm.va_start.p0(ptr %ap)
  %v = va_arg ptr %ap, i32
  call void @llvm.va_end.p0(ptr %ap)
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %s = add i32 %v, %bx
  ret i32 %s
}

declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
