; `if (i >= n) return; ... __syncthreads()`: threads of a CTA may leave
; while others still reach the barrier, so K__smc must run one chunk per
; worker.  Legality says one-chunk, the info record has SMC_INFO_ONE_CHUNK
; (bit 2, value 4) next to HAS_SMC and HAS_SLICE, and the remark says so.
; A slice-only build records no one-chunk bit (it concerns __smc only).
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll
; RUN: %opt %load_smc -passes=smc-variant -S %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=SMCONLY
; RUN: %opt %load_smc -passes=smc-slice -S %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=SLICEONLY
; RUN: %opt %load_smc -passes='print<smc-cta-uniformity>' -disable-output %s | FileCheck %s --check-prefix=UNIFORM

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; UNIFORM-LABEL: CTA uniformity of stencil:
; UNIFORM-NEXT: %entry: divergent branch

; LEGAL: kernel stencil: legal, one-chunk (threads may exit before a barrier other threads of the CTA still reach)

; REMARK: remark: <unknown>:0:0: kernel 'stencil': built stencil__smc (one chunk per worker: threads may exit before a barrier other threads of the CTA still reach; 1 blockIdx/gridDim reads replaced)
; REMARK: remark: <unknown>:0:0: kernel 'stencil': built stencil__slice (index rectification; 1 blockIdx/gridDim reads replaced)

; IR: @stencil__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 7, i32 3, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR: define ptx_kernel void @stencil__smc(
; IR: define ptx_kernel void @stencil__slice(

; SMCONLY: @stencil__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 5, i32 3, i32 0, i32 1, i32 6, i32 1, i32 0]
; SLICEONLY: @stencil__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 2, i32 3, i32 1, i32 0, i32 6, i32 1, i32 0]

@tile = internal addrspace(3) global [256 x float] undef, align 4

; int i = blockIdx.x * blockDim.x + threadIdx.x;
; if (i >= n) return;
; tile[threadIdx.x] = in[i]; __syncthreads();
; out[i] = tile[threadIdx.x] + tile[(threadIdx.x + 1) % 256];
define ptx_kernel void @stencil(ptr %in, ptr %out, i32 %n) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = mul i32 %bx, %bd
  %i = add i32 %b, %tx
  %out.of.range = icmp sge i32 %i, %n
  br i1 %out.of.range, label %exit, label %body
exit:
  ret void
body:
  %pi = getelementptr inbounds float, ptr %in, i32 %i
  %v = load float, ptr %pi, align 4
  %ps = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i32 0, i32 %tx
  store float %v, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t1 = add i32 %tx, 1
  %t2 = urem i32 %t1, 256
  %pn = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i32 0, i32 %t2
  %a = load float, ptr addrspace(3) %ps, align 4
  %c = load float, ptr addrspace(3) %pn, align 4
  %s = fadd float %a, %c
  %po = getelementptr inbounds float, ptr %out, i32 %i
  store float %s, ptr %po, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
