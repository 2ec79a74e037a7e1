; The smc pipeline with -smc-transforms=smc,slice,remap builds all three
; variants of a kernel (and the remap inspector), records all three outcomes
; in one info record, and says so in remarks; a kernel whose threads work
; together gets __smc and __slice but no __remap.  Running the pipeline twice
; (clang given the plugin twice) changes nothing more: one of each variant,
; no variant of a variant (K__remap__smc, K__remap_keys__remap, ...), one
; info record per kernel.
;
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice,remap -S %s -o %t.once.ll
; RUN: FileCheck %s -DABI=%smc_abi_version < %t.once.ll
; RUN: %opt %load_smc -passes=smc,smc -smc-transforms=smc,slice,remap -S %s -o %t.twice.ll
; RUN: FileCheck %s -DABI=%smc_abi_version < %t.twice.ll
; RUN: diff %t.once.ll %t.twice.ll
; RUN: grep -c '^define' %t.twice.ll | FileCheck %s --check-prefix=DEFINES
; RUN: grep -c '__smc_info = ' %t.twice.ll | FileCheck %s --check-prefix=INFOS
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice,remap -pass-remarks=smc -pass-remarks-missed=smc -pass-remarks-analysis=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; K: flags HAS_SMC | HAS_SLICE | HAS_REMAP (35), 3 params, smc and slice
; built (0), locality x (1), remap built (0) by a loop trip count (1).
; B: flags HAS_SMC | HAS_SLICE (3), 2 params, locality x (1), remap refused:
; threads coupled (12), no key (0).
; CHECK-DAG:  @K__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 35, i32 3, i32 0, i32 0, i32 1, i32 0, i32 1], align 4
; CHECK-DAG:  @B__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 2, i32 0, i32 0, i32 1, i32 12, i32 0], align 4
; CHECK-DAG:  define ptx_kernel void @K(ptr %count, ptr %w, ptr %out) {
; CHECK-DAG:  define ptx_kernel void @B(ptr %x, ptr %out) {
; CHECK-DAG:  define ptx_kernel void @K__smc(ptr %count, ptr %w, ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) {
; CHECK-DAG:  define ptx_kernel void @B__smc(ptr %x, ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) {
; CHECK-DAG:  define ptx_kernel void @K__slice(ptr %count, ptr %w, ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) {
; CHECK-DAG:  define ptx_kernel void @B__slice(ptr %x, ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) {
; CHECK-DAG:  define ptx_kernel void @K__remap(ptr %count, ptr %w, ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) {
; CHECK-DAG:  define ptx_kernel void @K__remap_keys(ptr %count, ptr %w, ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) {
; Exactly those eight functions and two info records, after one run or two.
; DEFINES: {{^}}8{{$}}
; INFOS: {{^}}2{{$}}

; REMARK-DAG: remark: <unknown>:0:0: kernel 'K': built K__smc (persistent workers; 1 blockIdx/gridDim reads replaced)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'K': built K__slice (index rectification; 1 blockIdx/gridDim reads replaced)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'K': remap key loop trip count: load decides the branch{{$}}
; REMARK-DAG: remark: <unknown>:0:0: kernel 'K': built K__remap (thread-data remapping by loop trip count: load decides the branch; inspector K__remap_keys)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'B': built B__smc (persistent workers; 1 blockIdx/gridDim reads replaced)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'B': built B__slice (index rectification; 1 blockIdx/gridDim reads replaced)
; REMARK-DAG: remark: <unknown>:0:0: kernel 'B': no remap: threads work together (shared memory, barrier, warp intrinsic or inline assembly) (shared memory){{$}}
; REMARK-DAG: remark: <unknown>:0:0: kernel 'B': no __remap variant: threads work together (shared memory, barrier, warp intrinsic or inline assembly) (shared memory){{$}}

; n = count[i]; for (k < n) s += w[k]; out[i] = s;
define ptx_kernel void @K(ptr %count, ptr %w, ptr %out) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %pc = getelementptr inbounds i32, ptr %count, i64 %i64
  %n = load i32, ptr %pc, align 4
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %k64 = zext i32 %k to i64
  %pw = getelementptr inbounds float, ptr %w, i64 %k64
  %wk = load float, ptr %pw, align 4
  %s.next = fadd float %s, %wk
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %po = getelementptr inbounds float, ptr %out, i64 %i64
  store float %r, ptr %po, align 4
  ret void
}

@tile = internal addrspace(3) global [128 x float] undef, align 4

; tile[threadIdx.x] = x[threadIdx.x]; __syncthreads(); out[blockIdx.x] = tile[0];
define ptx_kernel void @B(ptr %x, ptr %out) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i64 = zext i32 %tx to i64
  %px = getelementptr inbounds float, ptr %x, i64 %i64
  %v = load float, ptr %px, align 4
  %ps = getelementptr inbounds [128 x float], ptr addrspace(3) @tile, i64 0, i64 %i64
  store float %v, ptr addrspace(3) %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %r = load float, ptr addrspace(3) @tile, align 4
  %b64 = zext i32 %bx to i64
  %po = getelementptr inbounds float, ptr %out, i64 %b64
  store float %r, ptr %po, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
