; Thread block clusters are refused: a cluster register read (intrinsic or
; inline assembly) or a cluster kernel attribute.  The remark names kernel
; and reason, no variant is built, and the info record carries
; SMC_REFUSAL_CLUSTER (4) for both variants.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK --implicit-check-not=built
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel ctarank: refused: thread block clusters (call of llvm.nvvm.read.ptx.sreg.cluster.ctarank)
; LEGAL-NEXT: kernel clusterDim: refused: thread block clusters (kernel attribute nvvm.cluster_dim)
; LEGAL-NEXT: kernel clusterAsm: refused: thread block clusters (inline assembly reads a cluster register)

; REMARK-DAG: remark: <unknown>:0:0: kernel 'ctarank': no __smc variant: thread block clusters (call of llvm.nvvm.read.ptx.sreg.cluster.ctarank)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'ctarank': no __slice variant: thread block clusters (call of llvm.nvvm.read.ptx.sreg.cluster.ctarank)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'clusterDim': no __smc variant: thread block clusters (kernel attribute nvvm.cluster_dim)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'clusterAsm': no __smc variant: thread block clusters (inline assembly reads a cluster register)

; IR-DAG: @ctarank__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 4, i32 4, i32 0, i32 1, i32 0]
; IR-DAG: @clusterDim__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 4, i32 4, i32 0, i32 1, i32 0]
; IR-DAG: @clusterAsm__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 4, i32 4, i32 0, i32 1, i32 0]
; IR-NOT: define {{.*}}__smc(
; IR-NOT: define {{.*}}__slice(

define ptx_kernel void @ctarank(ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %r = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %s = add i32 %bx, %r
  store i32 %s, ptr %out
  ret void
}

define ptx_kernel void @clusterDim(ptr %out) #0 {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %bx, ptr %out
  ret void
}

define ptx_kernel void @clusterAsm(ptr %out) {
  %r = call i32 asm "mov.u32 $0, %cluster_ctarank;", "=r"()
  store i32 %r, ptr %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()

attributes #0 = { "nvvm.cluster_dim"="2,1,1" }
