; -smc-kernels=<regex> selects kernels by their whole mangled or source
; (demangled, without parameters) name; the default selects every kernel.
; Device functions, declarations and SMC's own variants are never selected.
; Unselected kernels get no variant and no info record.
;
; RUN: %opt %load_smc -passes='print<smc-kernels>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=ALL
; RUN: %opt %load_smc -passes='print<smc-kernels>' -smc-kernels='vec.*' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=VEC
; RUN: %opt %load_smc -passes='print<smc-kernels>' -smc-kernels='scale<float>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=FLOAT
; RUN: %opt %load_smc -passes='print<smc-kernels>' -smc-kernels='_Z5scaleIdEvPT_S0_i|plain' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=MANGLED
; RUN: %opt %load_smc -passes='print<smc-kernels>' -smc-kernels='vec' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=WHOLE --allow-empty
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -smc-kernels='vec.*' -S %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=IR

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; ALL:      kernel _Z6vecAddPfS_i (vecAdd)
; ALL-NEXT: kernel _Z5scaleIfEvPT_S0_i (scale<float>)
; ALL-NEXT: kernel _Z5scaleIdEvPT_S0_i (scale<double>)
; ALL-NEXT: kernel plain (plain)
; ALL-NOT:  kernel

; VEC:      kernel _Z6vecAddPfS_i (vecAdd)
; VEC-NOT:  kernel

; FLOAT:      kernel _Z5scaleIfEvPT_S0_i (scale<float>)
; FLOAT-NOT:  kernel

; MANGLED:      kernel _Z5scaleIdEvPT_S0_i (scale<double>)
; MANGLED-NEXT: kernel plain (plain)
; MANGLED-NOT:  kernel

; The regex must match the whole name: 'vec' selects nothing.
; WHOLE-NOT: kernel

; IR: @_Z6vecAddPfS_i__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 3, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-NOT: @_Z5scale{{.*}}__smc_info
; IR-NOT: @plain__smc_info
; IR-DAG: define ptx_kernel void @_Z6vecAddPfS_i__smc(
; IR-DAG: define ptx_kernel void @_Z6vecAddPfS_i__slice(
; IR-NOT: define {{.*}}@_Z5scale{{.*}}__{{smc|slice}}(
; IR-NOT: define {{.*}}@plain__{{smc|slice}}(
; IR-NOT: define {{.*}}@plain__smc__

define ptx_kernel void @_Z6vecAddPfS_i(ptr %a, ptr %b, i32 %n) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %p = getelementptr inbounds float, ptr %a, i32 %bx
  store float 1.0, ptr %p
  ret void
}

define weak_odr ptx_kernel void @_Z5scaleIfEvPT_S0_i(ptr %x, float %a, i32 %n) {
  store float %a, ptr %x
  ret void
}

define weak_odr ptx_kernel void @_Z5scaleIdEvPT_S0_i(ptr %x, double %a, i32 %n) {
  store double %a, ptr %x
  ret void
}

define ptx_kernel void @plain(ptr %x) {
  store i32 0, ptr %x
  ret void
}

; Looks like a variant SMC built (by name): never selected, never re-wrapped.
define ptx_kernel void @plain__smc(ptr %x, ptr byval([88 x i8]) align 8 %d) {
  store i32 1, ptr %x
  ret void
}

; Not kernels: a device function and a kernel declaration.
define void @_Z6helperv() {
  ret void
}

declare ptx_kernel void @_Z8externalv()

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
