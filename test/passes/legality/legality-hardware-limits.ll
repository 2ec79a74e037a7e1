; Hardware limits are decided in Legality too: a kernel whose parameters
; leave no room for the descriptor gets neither variant; one that uses all
; 48 KiB of static shared memory gets no __smc (the worker's 48 bytes
; would push it over) but a __slice.  print<smc-legality> shows both, and
; the variant passes refuse with the same reason.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks=smc -pass-remarks-missed=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel bigParams: legal, loop; no __smc variant: the variant would exceed a hardware limit ({{[0-9]+}} bytes of parameters with the descriptor, over the 32764 allowed); no __slice variant: the variant would exceed a hardware limit ({{[0-9]+}} bytes of parameters with the descriptor, over the 32764 allowed)
; LEGAL-NEXT: kernel fullShared: legal, loop; no __smc variant: the variant would exceed a hardware limit (49200 bytes of static shared memory with the worker's own, over the 49152 allowed){{$}}
; LEGAL-NEXT: kernel small: legal, loop{{$}}

; REMARK-DAG: kernel 'bigParams': no __smc variant: the variant would exceed a hardware limit ({{[0-9]+}} bytes of parameters
; REMARK-DAG: kernel 'bigParams': no __slice variant: the variant would exceed a hardware limit ({{[0-9]+}} bytes of parameters
; REMARK-DAG: kernel 'fullShared': no __smc variant: the variant would exceed a hardware limit (49200 bytes of static shared memory
; REMARK-DAG: kernel 'fullShared': built fullShared__slice
; REMARK-DAG: kernel 'small': built small__smc
; REMARK-DAG: kernel 'small': built small__slice

%Big = type { [32760 x i8] }

@tile = internal addrspace(3) global [12288 x float] undef, align 4

define ptx_kernel void @bigParams(ptr byval(%Big) align 4 %p, ptr %out) {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %v = load i8, ptr %p, align 4
  %q = getelementptr inbounds i8, ptr %out, i32 %b
  store i8 %v, ptr %q, align 1
  ret void
}

define ptx_kernel void @fullShared(ptr %out) {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %s = getelementptr inbounds [12288 x float], ptr addrspace(3) @tile, i32 0, i32 %b
  %v = load float, ptr addrspace(3) %s, align 4
  %q = getelementptr inbounds float, ptr %out, i32 %b
  store float %v, ptr %q, align 4
  ret void
}

define ptx_kernel void @small(ptr %out) {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %q = getelementptr inbounds i32, ptr %out, i32 %b
  store i32 %b, ptr %q, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
