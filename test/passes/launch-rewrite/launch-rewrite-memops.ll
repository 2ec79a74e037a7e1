; Asynchronous memsets and copies go through the SMC runtime, so that an
; smc::Batch records them in their stream's order (outside a recording the
; runtime forwards them): cudaMemsetAsync(_ptsz) and cudaMemcpyAsync(_ptsz)
; become __smc_memset_async(_ptsz) and __smc_memcpy_async(_ptsz) with the
; same arguments, each with a remark.  Synchronous cudaMemset and cudaMemcpy
; are left alone.
;
; RUN: %opt %load_smc -passes=smc-launch-rewrite -pass-remarks=smc -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
; RUN: FileCheck %s < %t.ll

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @_Z6copiesPvS_P11CUstream_st(ptr %d, ptr %s, ptr %st)
; CHECK-NEXT:    %a = call i32 @__smc_memset_async(ptr %d, i32 0, i64 64, ptr %st)
; CHECK-NEXT:    %b = call i32 @__smc_memset_async_ptsz(ptr %d, i32 7, i64 64, ptr %st)
; CHECK-NEXT:    %c = call i32 @__smc_memcpy_async(ptr %d, ptr %s, i64 64, i32 3, ptr %st)
; CHECK-NEXT:    %e = call i32 @__smc_memcpy_async_ptsz(ptr %d, ptr %s, i64 64, i32 4, ptr %st)
; CHECK-NEXT:    %f = call i32 @cudaMemset(ptr %d, i32 0, i64 64)
; CHECK-NEXT:    %g = call i32 @cudaMemcpy(ptr %d, ptr %s, i64 64, i32 3)
; CHECK-NEXT:    ret void

; REMARK-DAG: remark: <unknown>:0:0: cudaMemsetAsync in copies goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaMemsetAsync_ptsz in copies goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaMemcpyAsync in copies goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaMemcpyAsync_ptsz in copies goes through the SMC runtime

define void @_Z6copiesPvS_P11CUstream_st(ptr %d, ptr %s, ptr %st) {
  %a = call i32 @cudaMemsetAsync(ptr %d, i32 0, i64 64, ptr %st)
  %b = call i32 @cudaMemsetAsync_ptsz(ptr %d, i32 7, i64 64, ptr %st)
  %c = call i32 @cudaMemcpyAsync(ptr %d, ptr %s, i64 64, i32 3, ptr %st)
  %e = call i32 @cudaMemcpyAsync_ptsz(ptr %d, ptr %s, i64 64, i32 4, ptr %st)
  %f = call i32 @cudaMemset(ptr %d, i32 0, i64 64)
  %g = call i32 @cudaMemcpy(ptr %d, ptr %s, i64 64, i32 3)
  ret void
}

declare i32 @cudaMemsetAsync(ptr, i32, i64, ptr)
declare i32 @cudaMemsetAsync_ptsz(ptr, i32, i64, ptr)
declare i32 @cudaMemcpyAsync(ptr, ptr, i64, i32, ptr)
declare i32 @cudaMemcpyAsync_ptsz(ptr, ptr, i64, i32, ptr)
declare i32 @cudaMemset(ptr, i32, i64)
declare i32 @cudaMemcpy(ptr, ptr, i64, i32)
