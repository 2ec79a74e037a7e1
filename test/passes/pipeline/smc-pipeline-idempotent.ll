; Running the smc pipeline twice (as clang does when -fpass-plugin=SMCPasses.so
; is given twice, e.g. by the SMC::smc CMake target and by hand) must not
; add a second set of variants (K__smc3, K__slice4, ...) nor variants of
; variants (K__smc3__slice): K keeps exactly one K__smc, one K__slice and
; one info record.
;
; RUN: %opt %load_smc -passes=smc,smc -smc-transforms=smc,slice -S %s | FileCheck %s -DABI=%smc_abi_version

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: __smc_dev_shared{{[0-9]+}}
; CHECK:     @K__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0]
; CHECK-NOT: @K__{{.*}}__smc_info
; CHECK:     define ptx_kernel void @K(ptr %out)
; CHECK-NOT: define {{.*}}@K__{{smc|slice}}{{[0-9_]}}
; CHECK:     define ptx_kernel void @K__{{smc|slice}}(ptr %out, ptr {{.*}}byval(%SmcDescriptor)
; CHECK-NOT: define {{.*}}@K__{{smc|slice}}{{[0-9_]}}
; CHECK:     define ptx_kernel void @K__{{smc|slice}}(ptr %out, ptr {{.*}}byval(%SmcDescriptor)
; CHECK-NOT: define {{.*}}@K__{{smc|slice}}{{[0-9_]}}
; CHECK-NOT: define {{.*}}@K__{{smc|slice}}(

define ptx_kernel void @K(ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %bx, ptr %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
