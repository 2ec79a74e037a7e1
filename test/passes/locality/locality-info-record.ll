; The locality class goes into the sixth field of the kernel's info record
; (SmcLocality: none 0, x 1, y 2, z 3, tile 4, irregular 5, unknown 6), with
; the smc pipeline (before the variants are built) and with smc-locality
; alone, which makes the record with every variant "not requested" (1; the
; remap key, the record's last field, stays 0: none).
;
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc -pass-remarks-analysis=smc -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s -DABI=%smc_abi_version < %t.ll
; RUN: %opt %load_smc -passes=smc-locality -S %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=ALONE

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; REMARK-DAG: kernel 'copy': CTA locality none
; REMARK-DAG: kernel 'stencil': CTA locality x
; REMARK-DAG: kernel 'column': CTA locality y
; REMARK-DAG: kernel 'plane': CTA locality z
; REMARK-DAG: kernel 'outer': CTA locality tile
; REMARK-DAG: kernel 'gather': CTA locality irregular
; REMARK-DAG: kernel 'doubling': CTA locality unknown

; CHECK-DAG: @copy__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 2, i32 0, i32 1, i32 0, i32 1, i32 0]
; CHECK-DAG: @stencil__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 2, i32 0, i32 1, i32 1, i32 1, i32 0]
; CHECK-DAG: @column__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 2, i32 0, i32 1, i32 2, i32 1, i32 0]
; CHECK-DAG: @plane__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 2, i32 0, i32 1, i32 3, i32 1, i32 0]
; CHECK-DAG: @outer__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 3, i32 0, i32 1, i32 4, i32 1, i32 0]
; CHECK-DAG: @gather__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 3, i32 0, i32 1, i32 5, i32 1, i32 0]
; CHECK-DAG: @doubling__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 3, i32 0, i32 1, i32 6, i32 1, i32 0]

; ALONE-DAG: @copy__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 1, i32 1, i32 0, i32 1, i32 0]
; ALONE-DAG: @outer__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 3, i32 1, i32 1, i32 4, i32 1, i32 0]
; ALONE-DAG: @doubling__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 3, i32 1, i32 1, i32 6, i32 1, i32 0]
; ALONE-NOT: define {{.*}}__smc(

; out[i] = in[i], i = blockIdx.x * blockDim.x + threadIdx.x
define ptx_kernel void @copy(ptr %in, ptr %out) {
  %i = call i64 @index.x()
  %pin = getelementptr inbounds float, ptr %in, i64 %i
  %v = load float, ptr %pin, align 4
  %pout = getelementptr inbounds float, ptr %out, i64 %i
  store float %v, ptr %pout, align 4
  ret void
}

; out[i] = in[i - 1] + in[i + 1]
define ptx_kernel void @stencil(ptr %in, ptr %out) {
  %i = call i64 @index.x()
  %mid = getelementptr inbounds float, ptr %in, i64 %i
  %pl = getelementptr inbounds i8, ptr %mid, i64 -4
  %l = load float, ptr %pl, align 4
  %pr = getelementptr inbounds i8, ptr %mid, i64 4
  %r = load float, ptr %pr, align 4
  %s = fadd float %l, %r
  %pout = getelementptr inbounds float, ptr %out, i64 %i
  store float %s, ptr %pout, align 4
  ret void
}

; out[blockIdx.y][i] = v[i]
define ptx_kernel void @column(ptr %v, ptr %out) {
  %i = call i64 @index.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %pv = getelementptr inbounds float, ptr %v, i64 %i
  %x = load float, ptr %pv, align 4
  %row = getelementptr inbounds [1024 x float], ptr %out, i32 %by
  %pout = getelementptr inbounds float, ptr %row, i64 %i
  store float %x, ptr %pout, align 4
  ret void
}

; out[blockIdx.z][i] = p[i]
define ptx_kernel void @plane(ptr %p, ptr %out) {
  %i = call i64 @index.x()
  %bz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %pp = getelementptr inbounds float, ptr %p, i64 %i
  %x = load float, ptr %pp, align 4
  %slab = getelementptr inbounds [1024 x float], ptr %out, i32 %bz
  %pout = getelementptr inbounds float, ptr %slab, i64 %i
  store float %x, ptr %pout, align 4
  ret void
}

; out[j][i] = r[j] * c[i], j = blockIdx.y * blockDim.y + threadIdx.y
define ptx_kernel void @outer(ptr %r, ptr %c, ptr %out) {
  %i = call i64 @index.x()
  %j = call i64 @index.y()
  %pr = getelementptr inbounds float, ptr %r, i64 %j
  %a = load float, ptr %pr, align 4
  %pc = getelementptr inbounds float, ptr %c, i64 %i
  %b = load float, ptr %pc, align 4
  %x = fmul float %a, %b
  %row = getelementptr inbounds [1024 x float], ptr %out, i64 %j
  %pout = getelementptr inbounds float, ptr %row, i64 %i
  store float %x, ptr %pout, align 4
  ret void
}

; out[i] = in[idx[i]]
define ptx_kernel void @gather(ptr %in, ptr %idx, ptr %out) {
  %i = call i64 @index.x()
  %pidx = getelementptr inbounds i32, ptr %idx, i64 %i
  %k = load i32, ptr %pidx, align 4
  %pin = getelementptr inbounds float, ptr %in, i32 %k
  %v = load float, ptr %pin, align 4
  %pout = getelementptr inbounds float, ptr %out, i64 %i
  store float %v, ptr %pout, align 4
  ret void
}

; for (j = i + 1; j < n; j *= 2) out[i] = in[j]
define ptx_kernel void @doubling(ptr %in, ptr %out, i64 %n) {
entry:
  %i = call i64 @index.x()
  %j0 = add nsw i64 %i, 1
  %pout = getelementptr inbounds float, ptr %out, i64 %i
  br label %loop

loop:
  %j = phi i64 [ %j0, %entry ], [ %j.next, %loop ]
  %pin = getelementptr inbounds float, ptr %in, i64 %j
  %v = load float, ptr %pin, align 4
  store float %v, ptr %pout, align 4
  %j.next = shl nsw i64 %j, 1
  %more = icmp slt i64 %j.next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}

; blockIdx.x * blockDim.x + threadIdx.x (inlined into the analysed copy)
define internal i64 @index.x() alwaysinline {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %f = mul nuw i32 %b, %d
  %i = add nuw i32 %f, %t
  %i64 = zext i32 %i to i64
  ret i64 %i64
}

define internal i64 @index.y() alwaysinline {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %f = mul nuw i32 %b, %d
  %i = add nuw i32 %f, %t
  %i64 = zext i32 %i to i64
  ret i64 %i64
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
