; Dynamic parallelism (device-side launch) is refused: the remark names
; kernel and reason, no variant is built, and the info record carries
; SMC_REFUSAL_DYNAMIC_PARALLELISM (3) for both variants.  (-smc-kernels
; leaves out the child kernel, which is legal.)
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -smc-kernels='parent|launchOnly' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -smc-kernels='parent|launchOnly' -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=built
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel parent: refused: dynamic parallelism (device-side launch) (call of cudaGetParameterBufferV2)
; LEGAL-NEXT: kernel launchOnly: refused: dynamic parallelism (device-side launch) (call of cudaLaunchDeviceV2)

; REMARK-DAG: remark: <unknown>:0:0: kernel 'parent': no __smc variant: dynamic parallelism (device-side launch) (call of cudaGetParameterBufferV2)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'parent': no __slice variant: dynamic parallelism (device-side launch) (call of cudaGetParameterBufferV2)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'launchOnly': no __smc variant: dynamic parallelism (device-side launch) (call of cudaLaunchDeviceV2)

; IR-DAG: @parent__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 3, i32 3, i32 0, i32 1, i32 0]
; IR-DAG: @launchOnly__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 3, i32 3, i32 0, i32 1, i32 0]
; IR-NOT: define {{.*}}__smc(
; IR-NOT: define {{.*}}__slice(

define ptx_kernel void @child(ptr %out) {
  store i32 1, ptr %out
  ret void
}

define ptx_kernel void @parent(ptr %out) {
  %buf = call ptr @cudaGetParameterBufferV2(ptr @child, i64 1, i64 32, i32 0)
  store ptr %out, ptr %buf
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null)
  ret void
}

define ptx_kernel void @launchOnly(ptr %buf) {
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null)
  ret void
}

declare ptr @cudaGetParameterBufferV2(ptr, i64, i64, i32)
declare i32 @cudaLaunchDeviceV2(ptr, ptr)
