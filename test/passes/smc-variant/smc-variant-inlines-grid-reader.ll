; A noinline device function that reads blockIdx is inlined into K__smc and
; K__slice (so its read can be replaced by the chunk's blockIdx) but not into
; K, which still calls it; a device function that reads no grid register is
; still called from the variants, not inlined.
;
; RUN: %opt %load_smc -passes=smc-variant,smc-slice -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %opt %load_smc -passes=smc-variant,smc-slice -pass-remarks=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @K(ptr %out)
; CHECK:         %base = call i32 @blockBase(i32 %ntid)
; CHECK:         %v = call i32 @square(i32 %tx)
; CHECK:         ret void

; CHECK-LABEL: define internal i32 @blockBase(i32 %w) #0 {
; CHECK-NEXT:    %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

; CHECK-LABEL: define internal i32 @square(i32 %x) #0 {

; CHECK-LABEL: define ptx_kernel void @K__smc(
; CHECK-NOT:     call i32 @blockBase
; CHECK-NOT:     sreg.ctaid
; CHECK:         mul i32 %smc.blockIdx.x, %ntid
; CHECK:         %v = call i32 @square(i32 %tx)
; CHECK-NOT:     call i32 @blockBase
; CHECK-LABEL: smc.exit:

; CHECK-LABEL: define ptx_kernel void @K__slice(
; CHECK-NOT:     call i32 @blockBase
; CHECK:         %smc.slice.cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK:       smc.coords:
; CHECK-NOT:     sreg.ctaid
; CHECK:         mul i32 %smc.blockIdx.x, %ntid
; CHECK:         %v = call i32 @square(i32 %tx)
; CHECK-NOT:     call i32 @blockBase
; CHECK:         ret void
; CHECK-NEXT:  }

; REMARK: kernel 'K': built K__smc (persistent workers; 1 blockIdx/gridDim reads replaced)
; REMARK: kernel 'K': built K__slice (index rectification; 1 blockIdx/gridDim reads replaced)

define ptx_kernel void @K(ptr %out) {
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = call i32 @blockBase(i32 %ntid)
  %v = call i32 @square(i32 %tx)
  %i = add i32 %base, %tx
  %p = getelementptr inbounds i32, ptr %out, i32 %i
  store i32 %v, ptr %p
  ret void
}

define internal i32 @blockBase(i32 %w) #0 {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %r = mul i32 %bx, %w
  ret i32 %r
}

define internal i32 @square(i32 %x) #0 {
  %r = mul i32 %x, %x
  ret i32 %r
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { noinline }
