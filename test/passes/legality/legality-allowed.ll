; Kernels that look like the refused ones but must NOT be refused: a
; work-queue loop (atomicAdd on a global counter, stores in the loop), a
; grid-stride loop, an atomic reduction in a loop, a spin on shared memory
; (waits for a thread of the same CTA), printf (vprintf), libdevice (__nv_*),
; malloc/free and assert.  All are legal, both variants are built, and the
; info records say so (flags 3, both refusals 0).
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL --implicit-check-not=refused
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks=smc -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not='variant:'
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel workQueue: legal, loop
; LEGAL-NEXT: kernel gridStride: legal, loop
; LEGAL-NEXT: kernel atomicSum: legal, loop
; LEGAL-NEXT: kernel sharedSpin: legal, loop
; LEGAL-NEXT: kernel usesPrintf: legal, loop
; LEGAL-NEXT: kernel usesLibdevice: legal, loop
; LEGAL-NEXT: kernel usesMallocAssert: legal, loop

; REMARK-DAG: kernel 'workQueue': built workQueue__smc
; REMARK-DAG: kernel 'workQueue': built workQueue__slice
; REMARK-DAG: kernel 'gridStride': built gridStride__smc
; REMARK-DAG: kernel 'atomicSum': built atomicSum__smc
; REMARK-DAG: kernel 'sharedSpin': built sharedSpin__smc
; REMARK-DAG: kernel 'usesPrintf': built usesPrintf__smc
; REMARK-DAG: kernel 'usesLibdevice': built usesLibdevice__smc
; REMARK-DAG: kernel 'usesMallocAssert': built usesMallocAssert__smc
; REMARK-DAG: kernel 'usesMallocAssert': built usesMallocAssert__slice

; IR-DAG: @workQueue__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 3, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @gridStride__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @atomicSum__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 3, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @sharedSpin__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @usesPrintf__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @usesLibdevice__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @usesMallocAssert__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: define ptx_kernel void @workQueue__smc(
; IR-DAG: define ptx_kernel void @workQueue__slice(
; IR-DAG: define ptx_kernel void @gridStride__smc(
; IR-DAG: define ptx_kernel void @usesPrintf__slice(
; IR-DAG: define ptx_kernel void @usesLibdevice__smc(

; unsigned i; while ((i = atomicAdd(next, 1)) < n) out[i] = i * 2;
define ptx_kernel void @workQueue(ptr %next, ptr %out, i32 %n) {
entry:
  br label %claim
claim:
  %i = atomicrmw add ptr %next, i32 1 seq_cst, align 4
  %more = icmp ult i32 %i, %n
  br i1 %more, label %work, label %done
work:
  %v = shl i32 %i, 1
  %p = getelementptr inbounds i32, ptr %out, i32 %i
  store i32 %v, ptr %p, align 4
  br label %claim
done:
  ret void
}

; for (i = blockIdx.x*blockDim.x+threadIdx.x; i < n; i += blockDim.x*gridDim.x) x[i] *= 2;
define ptx_kernel void @gridStride(ptr %x, i32 %n) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %gd = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b = mul i32 %bx, %bd
  %first = add i32 %b, %tx
  %stride = mul i32 %bd, %gd
  br label %loop
loop:
  %i = phi i32 [ %first, %entry ], [ %i.next, %body ]
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %done
body:
  %p = getelementptr inbounds float, ptr %x, i32 %i
  %v = load float, ptr %p, align 4
  %v2 = fmul float %v, 2.0
  store float %v2, ptr %p, align 4
  %i.next = add i32 %i, %stride
  br label %loop
done:
  ret void
}

; for (i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(sum, x[i]);
define ptx_kernel void @atomicSum(ptr %x, ptr %sum, i32 %n) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  br label %loop
loop:
  %i = phi i32 [ %tx, %entry ], [ %i.next, %body ]
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %done
body:
  %p = getelementptr inbounds i32, ptr %x, i32 %i
  %v = load i32, ptr %p, align 4
  %old = atomicrmw add ptr %sum, i32 %v seq_cst, align 4
  %i.next = add i32 %i, %bd
  br label %loop
done:
  ret void
}

@flag = internal addrspace(3) global i32 undef, align 4

; Waits for another thread of the same CTA: no inter-CTA dependence.
define ptx_kernel void @sharedSpin(ptr %out) {
entry:
  br label %spin
spin:
  %v = load volatile i32, ptr addrspace(3) @flag, align 4
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %spin, label %done
done:
  store i32 %v, ptr %out, align 4
  ret void
}

@fmt = internal addrspace(1) constant [4 x i8] c"%d\0A\00"

define ptx_kernel void @usesPrintf(ptr %args) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %bx, ptr %args, align 4
  %f = addrspacecast ptr addrspace(1) @fmt to ptr
  %r = call i32 @vprintf(ptr %f, ptr %args)
  ret void
}

define ptx_kernel void @usesLibdevice(ptr %x, float %a) {
  %s = call float @__nv_sinf(float %a)
  %e = call float @__nv_expf(float %s)
  store float %e, ptr %x, align 4
  ret void
}

@msg = internal addrspace(1) constant [2 x i8] c"x\00"

define ptx_kernel void @usesMallocAssert(i64 %n) {
entry:
  %p = call ptr @malloc(i64 %n)
  %null = icmp eq ptr %p, null
  br i1 %null, label %fail, label %ok
fail:
  %m = addrspacecast ptr addrspace(1) @msg to ptr
  call void @__assertfail(ptr %m, ptr %m, i32 1, ptr %m, i64 1)
  unreachable
ok:
  call void @free(ptr %p)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @vprintf(ptr, ptr)
declare float @__nv_sinf(float)
declare float @__nv_expf(float)
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @__assertfail(ptr, ptr, i32, ptr, i64)
