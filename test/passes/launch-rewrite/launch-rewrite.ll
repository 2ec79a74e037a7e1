; On a host module, every call and invoke of cudaLaunchKernel and
; cudaLaunchKernel_ptsz becomes a call/invoke of __smc_launch_kernel /
; __smc_launch_kernel_ptsz with the same arguments, wherever it is (in a
; __device_stub__ or, after inlining, in a user function), with one remark
; per launch.  cudaDeviceReset becomes __smc_device_reset (the runtime then
; rebuilds its device state), also with a remark.  Other calls and functions
; are left alone.  The smc pipeline
; does the same on a non-NVPTX module when -smc-transforms asks for anything.
;
; RUN: %opt %load_smc -passes=smc-launch-rewrite -pass-remarks=smc -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
; RUN: FileCheck %s < %t.ll
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }

; CHECK-LABEL: define void @_Z21__device_stub__vecAddPfi(ptr %a, i32 %n)
; CHECK:         %r = call i32 @__smc_launch_kernel(ptr @_Z21__device_stub__vecAddPfi, i64 4294967297, i32 1, i64 4294967552, i32 1, ptr %args, i64 0, ptr null)
; CHECK-NOT:     @cudaLaunchKernel(
; CHECK:         ret void

; CHECK-LABEL: define void @_Z3runPfi(ptr %a, i32 %n)
; CHECK:         %r = call i32 @__smc_launch_kernel_ptsz(ptr @_Z21__device_stub__vecAddPfi, i64 %grid, i32 1, i64 4294967552, i32 1, ptr %args, i64 128, ptr %stream)
; CHECK:         %c = call i32 @cudaMemcpy(ptr %a, ptr %a, i64 4, i32 3)
; CHECK:         ret void

; CHECK-LABEL: define void @_Z7invokerPfi(ptr %a, i32 %n) personality ptr @__gxx_personality_v0
; CHECK:         %r = invoke i32 @__smc_launch_kernel(ptr @_Z21__device_stub__vecAddPfi, i64 4294967297, i32 1, i64 4294967297, i32 1, ptr null, i64 0, ptr null)
; CHECK-NEXT:            to label %ok unwind label %lpad

; A function that only takes cudaLaunchKernel's address is left alone.
; CHECK-LABEL: define ptr @launcherAddress()
; CHECK-NEXT:    ret ptr @cudaLaunchKernel

; CHECK-LABEL: define void @_Z5resetv()
; CHECK-NEXT:    %r = call i32 @__smc_device_reset()
; CHECK-NEXT:    ret void

; CHECK-DAG: declare i32 @__smc_launch_kernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
; CHECK-DAG: declare i32 @__smc_device_reset()
; CHECK-DAG: declare i32 @__smc_launch_kernel_ptsz(ptr, i64, i32, i64, i32, ptr, i64, ptr)

; REMARK-DAG: remark: <unknown>:0:0: launch of kernel 'vecAdd' in __device_stub__vecAdd goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: launch of kernel 'vecAdd' in run goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: launch of kernel 'vecAdd' in invoker goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaDeviceReset in reset goes through the SMC runtime

define void @_Z21__device_stub__vecAddPfi(ptr %a, i32 %n) {
  %args = alloca [2 x ptr], align 16
  %r = call i32 @cudaLaunchKernel(ptr @_Z21__device_stub__vecAddPfi, i64 4294967297, i32 1, i64 4294967552, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

define void @_Z3runPfi(ptr %a, i32 %n) {
  %args = alloca [2 x ptr], align 16
  %stream = inttoptr i64 2 to ptr
  %n64 = zext i32 %n to i64
  %grid = or i64 %n64, 4294967296
  %r = call i32 @cudaLaunchKernel_ptsz(ptr @_Z21__device_stub__vecAddPfi, i64 %grid, i32 1, i64 4294967552, i32 1, ptr %args, i64 128, ptr %stream)
  %c = call i32 @cudaMemcpy(ptr %a, ptr %a, i64 4, i32 3)
  ret void
}

define void @_Z7invokerPfi(ptr %a, i32 %n) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @cudaLaunchKernel(ptr @_Z21__device_stub__vecAddPfi, i64 4294967297, i32 1, i64 4294967297, i32 1, ptr null, i64 0, ptr null)
          to label %ok unwind label %lpad
ok:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

define ptr @launcherAddress() {
  ret ptr @cudaLaunchKernel
}

define void @_Z5resetv() {
  %r = call i32 @cudaDeviceReset()
  ret void
}

declare i32 @cudaDeviceReset()
declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @cudaLaunchKernel_ptsz(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @cudaMemcpy(ptr, ptr, i64, i32)
declare i32 @__gxx_personality_v0(...)
