; Kernels whose jobs must not be remapped although nothing in them is a
; barrier or a warp intrinsic: shared memory reached, as clang writes every
; __shared__ access, through a constant addrspacecast to a generic pointer
; (two jobs of one hardware block could then share a slot), and a call left
; after inlining (recursion) into a function that reads threadIdx, which
; the variant would not rewrite.
; RUN: %opt %load_smc -passes='print<smc-remap>' -disable-output %s | FileCheck %s
; RUN: %opt %load_smc -passes=smc-remap -S %s | FileCheck %s --check-prefix=IR -DABI=%smc_abi_version

; CHECK: kernel neighbour: no remap: threads work together (shared memory, barrier, warp intrinsic or inline assembly) (shared memory)
; CHECK: kernel recurse: no remap: a function reading blockIdx/gridDim could not be inlined (a call left after inlining reaches lane, which reads threadIdx, blockIdx or blockDim)
; IR-NOT: define {{.*}}__remap
; IR: @neighbour__smc_info = {{.*}} [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 1, i32 1, i32 6, i32 12, i32 0]
; IR: @recurse__smc_info = {{.*}} [8 x i32] [i32 [[ABI]], i32 0, i32 3, i32 1, i32 1, i32 6, i32 10, i32 0]
; IR-NOT: define {{.*}}__remap

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [128 x i32] undef

define ptx_kernel void @neighbour(ptr %x, ptr %out) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %px = getelementptr inbounds i32, ptr %x, i64 %i
  %v = load i32, ptr %px
  %ps = getelementptr inbounds i32, ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 %i
  store volatile i32 %v, ptr %ps
  %pos = icmp sgt i32 %v, 0
  br i1 %pos, label %then, label %exit
then:
  %n = xor i64 %i, 1
  %pn = getelementptr inbounds i32, ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 %n
  %w = load volatile i32, ptr %pn
  %po = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %w, ptr %po
  br label %exit
exit:
  ret void
}

define internal i32 @lane(i32 %d) noinline {
entry:
  %z = icmp eq i32 %d, 0
  br i1 %z, label %base, label %rec
base:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret i32 %t
rec:
  %d1 = sub i32 %d, 1
  %r = call i32 @lane(i32 %d1)
  %r1 = add i32 %r, 1
  ret i32 %r1
}

define ptx_kernel void @recurse(ptr %x, ptr %out, i32 %depth) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %px = getelementptr inbounds float, ptr %x, i64 %i
  %v = load float, ptr %px
  %pos = fcmp ogt float %v, 0.0
  br i1 %pos, label %then, label %exit
then:
  %l = call i32 @lane(i32 %depth)
  %po = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %l, ptr %po
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
