; An early return every thread of a CTA takes alike (the condition is
; CTA-uniform: blockIdx, blockDim, kernel arguments, byval parameters) does
; not need one-chunk mode even with a barrier after it: K__smc keeps the
; persistent-worker loop and the info record has no SMC_INFO_ONE_CHUNK bit.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll
; RUN: %opt %load_smc -passes='print<smc-cta-uniformity>' -disable-output %s | FileCheck %s --check-prefix=UNIFORM

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; UNIFORM-LABEL: CTA uniformity of blockExit:
; UNIFORM-NEXT: %entry: uniform branch
; UNIFORM-LABEL: CTA uniformity of argExit:
; UNIFORM-NEXT: %entry: uniform branch
; UNIFORM-LABEL: CTA uniformity of byvalExit:
; UNIFORM-NEXT: %entry: uniform branch

; LEGAL: kernel blockExit: legal, loop
; LEGAL-NEXT: kernel argExit: legal, loop
; LEGAL-NEXT: kernel byvalExit: legal, loop

; REMARK-DAG: kernel 'blockExit': built blockExit__smc (persistent workers; 1 blockIdx/gridDim reads replaced)
; REMARK-DAG: kernel 'argExit': built argExit__smc (persistent workers; 0 blockIdx/gridDim reads replaced)
; REMARK-DAG: kernel 'byvalExit': built byvalExit__smc (persistent workers; 0 blockIdx/gridDim reads replaced)

; IR-DAG: @blockExit__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @argExit__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-DAG: @byvalExit__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 2, i32 0, i32 0, i32 0, i32 1, i32 0]

@tile = internal addrspace(3) global [256 x i32] undef, align 4

; if (blockIdx.x * blockDim.x >= k) return; tile[tid] = tid; __syncthreads(); ...
define ptx_kernel void @blockExit(ptr %out, i32 %k) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %start = mul i32 %bx, %bd
  %past = icmp uge i32 %start, %k
  br i1 %past, label %exit, label %body
exit:
  ret void
body:
  call void @shareAndStore(ptr %out)
  ret void
}

; if (n <= 0) return; ...
define ptx_kernel void @argExit(ptr %out, i32 %n) {
entry:
  %none = icmp sle i32 %n, 0
  br i1 %none, label %exit, label %body
exit:
  ret void
body:
  call void @shareAndStore(ptr %out)
  ret void
}

%struct.Params = type { i32, i32 }

; struct Params p (by value); if (p.count == 0) return; ...
define ptx_kernel void @byvalExit(ptr %out, ptr byval(%struct.Params) align 4 %p) {
entry:
  %cp = getelementptr inbounds %struct.Params, ptr %p, i32 0, i32 1
  %count = load i32, ptr %cp, align 4
  %none = icmp eq i32 %count, 0
  br i1 %none, label %exit, label %body
exit:
  ret void
body:
  call void @shareAndStore(ptr %out)
  ret void
}

; tile[tid] = tid; __syncthreads(); out[tid] = tile[255 - tid];
define internal void @shareAndStore(ptr %out) alwaysinline {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ps = getelementptr inbounds [256 x i32], ptr addrspace(3) @tile, i32 0, i32 %tx
  store i32 %tx, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %r = sub i32 255, %tx
  %pr = getelementptr inbounds [256 x i32], ptr addrspace(3) @tile, i32 0, i32 %r
  %v = load i32, ptr addrspace(3) %pr, align 4
  %po = getelementptr inbounds i32, ptr %out, i32 %tx
  store i32 %v, ptr %po, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
