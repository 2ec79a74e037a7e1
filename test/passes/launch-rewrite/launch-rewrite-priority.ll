; Streams created with a priority go through the SMC runtime, which then
; makes SM-centric launches yield SMs to higher-priority streams before the
; first launch on one: cudaStreamCreateWithPriority becomes
; __smc_stream_create_with_priority with the same arguments, with a remark.
; Streams created without a priority (the least) are left alone.
;
; RUN: %opt %load_smc -passes=smc-launch-rewrite -pass-remarks=smc -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
; RUN: FileCheck %s < %t.ll

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @_Z7streamsv()
; CHECK-NEXT:    %s = alloca ptr
; CHECK-NEXT:    %a = call i32 @__smc_stream_create_with_priority(ptr %s, i32 1, i32 -5)
; CHECK-NEXT:    %b = call i32 @cudaStreamCreateWithFlags(ptr %s, i32 1)
; CHECK-NEXT:    %c = call i32 @cudaStreamCreate(ptr %s)
; CHECK-NEXT:    ret void

; CHECK: declare i32 @__smc_stream_create_with_priority(ptr, i32, i32)

; REMARK: remark: <unknown>:0:0: cudaStreamCreateWithPriority in streams goes through the SMC runtime

define void @_Z7streamsv() {
  %s = alloca ptr
  %a = call i32 @cudaStreamCreateWithPriority(ptr %s, i32 1, i32 -5)
  %b = call i32 @cudaStreamCreateWithFlags(ptr %s, i32 1)
  %c = call i32 @cudaStreamCreate(ptr %s)
  ret void
}

declare i32 @cudaStreamCreateWithPriority(ptr, i32, i32)
declare i32 @cudaStreamCreateWithFlags(ptr, i32)
declare i32 @cudaStreamCreate(ptr)
