; print<smc-remap>: whether a kernel's jobs may be remapped, and by which key.
; A thread-indexed load (address from threadIdx.x/blockIdx.x) is a candidate
; when its value decides a loop's trip count, a branch (also a switch) or the
; address of another load (a gather); the key is the first candidate of the
; best kind (loop, then branch, then gather) that no write precedes on a path
; from the entry, and the other candidates are listed after it.  Kernels
; whose threads work together (shared memory, barriers, warp shuffles,
; inline assembly that touches either) are refused, as are kernels with no
; candidate, or whose candidates all come after a write.  Inline assembly
; that neither touches shared memory nor reads where a thread sits (plain
; arithmetic, as in libdevice) couples nothing.  smc-remap records each
; outcome in the kernel's info record (remap_refusal, remap_key, flag
; HAS_REMAP = 32) and in remarks.  The line numbers are those of the
; !DILocations below (file remap.cu).
;
; RUN: %opt %load_smc -passes='print<smc-remap>' -disable-output %s | FileCheck %s
; RUN: %opt %load_smc -passes=smc-remap -S %s | FileCheck %s --check-prefix=INFO -DABI=%smc_abi_version
; RUN: %opt %load_smc -passes=smc-remap -pass-remarks=smc -pass-remarks-missed=smc -pass-remarks-analysis=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK:      kernel loopKey: remap key loop trip count: load at remap.cu:4 decides the branch at remap.cu:6{{$}}
; CHECK-NEXT: kernel branchKey: remap key branch: load at remap.cu:12 decides the branch at remap.cu:13{{$}}
; CHECK-NEXT: kernel gatherKey: remap key gather index: load at remap.cu:19 decides the address of the load at remap.cu:20{{$}}
; CHECK-NEXT: kernel switchKey: remap key branch: load at remap.cu:26 decides the branch at remap.cu:27{{$}}
; A loop bound and, before it, a branch: the loop wins, the branch is listed.
; CHECK-NEXT: kernel loopBeatsBranch: remap key loop trip count: load at remap.cu:35 decides the branch at remap.cu:36; candidate branch: load at remap.cu:32 decides the branch at remap.cu:33{{$}}
; CHECK-NEXT: kernel sharedMemory: no remap: threads work together (shared memory, barrier, warp intrinsic or inline assembly) (shared memory at remap.cu:42){{$}}
; CHECK-NEXT: kernel barrier: no remap: threads work together (shared memory, barrier, warp intrinsic or inline assembly) (call of llvm.nvvm.barrier.cta.sync.aligned.all at remap.cu:49){{$}}
; CHECK-NEXT: kernel shuffle: no remap: threads work together (shared memory, barrier, warp intrinsic or inline assembly) (call of llvm.nvvm.shfl.sync.down.i32 at remap.cu:55){{$}}
; CHECK-NEXT: kernel laneAsm: no remap: threads work together (shared memory, barrier, warp intrinsic or inline assembly) (inline assembly with 'laneid' at remap.cu:61){{$}}
; CHECK-NEXT: kernel arithmeticAsm: remap key branch: load at remap.cu:79 decides the branch at remap.cu:81{{$}}
; CHECK-NEXT: kernel writeFirst: no remap: no thread-indexed load decides a branch or an address before the first write (every candidate comes after a write); candidate branch: load at remap.cu:68 decides the branch at remap.cu:69 (refused: a write comes first at remap.cu:67){{$}}
; CHECK-NEXT: kernel noCandidate: no remap: no thread-indexed load decides a branch or an address before the first write (no load at a thread-indexed address decides a branch or an address){{$}}
; CHECK-NOT:  kernel

; Fields: abi_version, flags, num_params, smc_refusal, slice_refusal,
; locality, remap_refusal, remap_key.  smc and slice not requested (1),
; locality not analysed by smc-remap alone (6: unknown); a built remap has
; flags HAS_REMAP (32), refusal 0 and its key (1 loop trip count, 2 branch,
; 3 gather index); refusals THREADS_COUPLED (12) and NO_REMAP_KEY (13) have
; key 0 (none).
; INFO-DAG: @loopKey__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 3, i32 1, i32 1, i32 6, i32 0, i32 1], align 4
; INFO-DAG: @branchKey__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 3, i32 1, i32 1, i32 6, i32 0, i32 2], align 4
; INFO-DAG: @gatherKey__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 3, i32 1, i32 1, i32 6, i32 0, i32 3], align 4
; INFO-DAG: @switchKey__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 2, i32 1, i32 1, i32 6, i32 0, i32 2], align 4
; INFO-DAG: @loopBeatsBranch__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 4, i32 1, i32 1, i32 6, i32 0, i32 1], align 4
; INFO-DAG: @sharedMemory__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 1, i32 1, i32 6, i32 12, i32 0], align 4
; INFO-DAG: @barrier__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 1, i32 1, i32 6, i32 12, i32 0], align 4
; INFO-DAG: @shuffle__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 1, i32 1, i32 6, i32 12, i32 0], align 4
; INFO-DAG: @laneAsm__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 1, i32 1, i32 6, i32 12, i32 0], align 4
; INFO-DAG: @arithmeticAsm__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 2, i32 1, i32 1, i32 6, i32 0, i32 2], align 4
; INFO-DAG: @writeFirst__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 3, i32 1, i32 1, i32 6, i32 13, i32 0], align 4
; INFO-DAG: @noCandidate__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 2, i32 1, i32 1, i32 6, i32 13, i32 0], align 4
; A variant and an inspector for each remappable kernel, none for the others.
; INFO-DAG: define ptx_kernel void @loopKey__remap(ptr %count, ptr %w, ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc)
; INFO-DAG: define ptx_kernel void @loopKey__remap_keys(ptr %count, ptr %w, ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc)
; INFO-DAG: define ptx_kernel void @branchKey__remap(
; INFO-DAG: define ptx_kernel void @branchKey__remap_keys(
; INFO-DAG: define ptx_kernel void @gatherKey__remap(
; INFO-DAG: define ptx_kernel void @gatherKey__remap_keys(
; INFO-DAG: define ptx_kernel void @switchKey__remap(
; INFO-DAG: define ptx_kernel void @switchKey__remap_keys(
; INFO-DAG: define ptx_kernel void @loopBeatsBranch__remap(
; INFO-DAG: define ptx_kernel void @loopBeatsBranch__remap_keys(
; INFO-DAG: define ptx_kernel void @arithmeticAsm__remap(
; INFO-DAG: define ptx_kernel void @arithmeticAsm__remap_keys(
; INFO-NOT: define {{.*}}@{{sharedMemory|barrier|shuffle|laneAsm|writeFirst|noCandidate}}__remap

; The analysis in a remark at each kernel, then the outcome: built (-pass-remarks),
; or refused with the reason (-pass-remarks-missed).
; REMARK-DAG: remark: remap.cu:1:0: kernel 'loopKey': remap key loop trip count: load at remap.cu:4 decides the branch at remap.cu:6{{$}}
; REMARK-DAG: remark: remap.cu:1:0: kernel 'loopKey': built loopKey__remap (thread-data remapping by loop trip count: load at remap.cu:4 decides the branch at remap.cu:6; inspector loopKey__remap_keys){{$}}
; REMARK-DAG: remark: remap.cu:17:0: kernel 'gatherKey': built gatherKey__remap (thread-data remapping by gather index: load at remap.cu:19 decides the address of the load at remap.cu:20; inspector gatherKey__remap_keys){{$}}
; REMARK-DAG: remark: remap.cu:46:0: kernel 'barrier': no __remap variant: threads work together (shared memory, barrier, warp intrinsic or inline assembly) (call of llvm.nvvm.barrier.cta.sync.aligned.all at remap.cu:49){{$}}
; REMARK-DAG: remark: remap.cu:64:0: kernel 'writeFirst': no remap: no thread-indexed load decides a branch or an address before the first write (every candidate comes after a write); candidate branch: load at remap.cu:68 decides the branch at remap.cu:69 (refused: a write comes first at remap.cu:67){{$}}
; REMARK-DAG: remark: remap.cu:64:0: kernel 'writeFirst': no __remap variant: no thread-indexed load decides a branch or an address before the first write (every candidate comes after a write){{$}}
; REMARK-DAG: remark: remap.cu:72:0: kernel 'noCandidate': no __remap variant: no thread-indexed load decides a branch or an address before the first write (no load at a thread-indexed address decides a branch or an address){{$}}

; n = count[i]; for (k = 0; k < n; ++k) s += w[k]; out[i] = s;
define ptx_kernel void @loopKey(ptr %count, ptr %w, ptr %out) !dbg !10 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %pc = getelementptr inbounds i32, ptr %count, i64 %i64
  %n = load i32, ptr %pc, align 4, !dbg !104
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
  br i1 %more, label %loop, label %done, !dbg !106
done:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %po = getelementptr inbounds float, ptr %out, i64 %i64
  store float %r, ptr %po, align 4
  ret void
}

; if (x[i] > t) out[i] = 2 * x[i];
define ptx_kernel void @branchKey(ptr %x, ptr %out, float %t) !dbg !11 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %i64
  %xi = load float, ptr %px, align 4, !dbg !112
  %big = fcmp ogt float %xi, %t
  br i1 %big, label %then, label %exit, !dbg !113
then:
  %twice = fmul float %xi, 2.0
  %po = getelementptr inbounds float, ptr %out, i64 %i64
  store float %twice, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; y[i] = v[idx[i]];
define ptx_kernel void @gatherKey(ptr %idx, ptr %v, ptr %y) !dbg !12 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %pidx = getelementptr inbounds i32, ptr %idx, i64 %i64
  %j = load i32, ptr %pidx, align 4, !dbg !119
  %j64 = sext i32 %j to i64
  %pv = getelementptr inbounds float, ptr %v, i64 %j64
  %vj = load float, ptr %pv, align 4, !dbg !120
  %py = getelementptr inbounds float, ptr %y, i64 %i64
  store float %vj, ptr %py, align 4
  ret void
}

; switch (type[i]) { case 0: out[i] = 1; case 1: out[i] = 2; default: out[i] = 0; }
define ptx_kernel void @switchKey(ptr %type, ptr %out) !dbg !13 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %pt = getelementptr inbounds i32, ptr %type, i64 %i64
  %ty = load i32, ptr %pt, align 4, !dbg !126
  %po = getelementptr inbounds float, ptr %out, i64 %i64
  switch i32 %ty, label %other [
    i32 0, label %zero
    i32 1, label %one
  ], !dbg !127
zero:
  store float 1.0, ptr %po, align 4
  br label %exit
one:
  store float 2.0, ptr %po, align 4
  br label %exit
other:
  store float 0.0, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; if (flag[i]) out[i] = 1; n = count[i]; for (k < n) ...
define ptx_kernel void @loopBeatsBranch(ptr %flag, ptr %count, ptr %w, ptr %out) !dbg !14 {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i64 = zext i32 %tx to i64
  %pf = getelementptr inbounds i32, ptr %flag, i64 %i64
  %f = load i32, ptr %pf, align 4, !dbg !132
  %set = icmp ne i32 %f, 0
  br i1 %set, label %count.load, label %exit, !dbg !133
count.load:
  %pc = getelementptr inbounds i32, ptr %count, i64 %i64
  %n = load i32, ptr %pc, align 4, !dbg !135
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit
loop:
  %k = phi i32 [ 0, %count.load ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %count.load ], [ %s.next, %loop ]
  %k64 = zext i32 %k to i64
  %pw = getelementptr inbounds float, ptr %w, i64 %k64
  %wk = load float, ptr %pw, align 4
  %s.next = fadd float %s, %wk
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %store, !dbg !136
store:
  %po = getelementptr inbounds float, ptr %out, i64 %i64
  store float %s.next, ptr %po, align 4
  br label %exit
exit:
  ret void
}

@tile = internal addrspace(3) global [128 x i32] undef, align 4

; tile[threadIdx.x] = x[i]; if (x[i] > 0) ...: threads share the CTA's tile.
define ptx_kernel void @sharedMemory(ptr %x, ptr %out) !dbg !15 {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i64 = zext i32 %tx to i64
  %px = getelementptr inbounds i32, ptr %x, i64 %i64
  %xi = load i32, ptr %px, align 4
  %ps = getelementptr inbounds [128 x i32], ptr addrspace(3) @tile, i64 0, i64 %i64, !dbg !142
  store i32 %xi, ptr addrspace(3) %ps, align 4
  %pos = icmp sgt i32 %xi, 0
  br i1 %pos, label %then, label %exit
then:
  %po = getelementptr inbounds i32, ptr %out, i64 %i64
  store i32 1, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; v = x[i]; __syncthreads(); if (v > 0) ...
define ptx_kernel void @barrier(ptr %x, ptr %out) !dbg !16 {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i64 = zext i32 %tx to i64
  %px = getelementptr inbounds i32, ptr %x, i64 %i64
  %xi = load i32, ptr %px, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !149
  %pos = icmp sgt i32 %xi, 0
  br i1 %pos, label %then, label %exit
then:
  %po = getelementptr inbounds i32, ptr %out, i64 %i64
  store i32 1, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; v = x[i]; if (v > 0) out[i] = __shfl_down_sync(~0, v, 1);
define ptx_kernel void @shuffle(ptr %x, ptr %out) !dbg !17 {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i64 = zext i32 %tx to i64
  %px = getelementptr inbounds i32, ptr %x, i64 %i64
  %xi = load i32, ptr %px, align 4
  %pos = icmp sgt i32 %xi, 0
  br i1 %pos, label %then, label %exit
then:
  %down = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %xi, i32 1, i32 31), !dbg !155
  %po = getelementptr inbounds i32, ptr %out, i64 %i64
  store i32 %down, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; v = x[i]; if (v > 0) out[i] = <%laneid from inline assembly>;
define ptx_kernel void @laneAsm(ptr %x, ptr %out) !dbg !18 {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i64 = zext i32 %tx to i64
  %px = getelementptr inbounds i32, ptr %x, i64 %i64
  %xi = load i32, ptr %px, align 4
  %pos = icmp sgt i32 %xi, 0
  br i1 %pos, label %then, label %exit
then:
  %lane = call i32 asm "mov.u32 $0, %laneid;", "=r"(), !dbg !161
  %po = getelementptr inbounds i32, ptr %out, i64 %i64
  store i32 %lane, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; v = x[i]; r = <v + 1 from inline assembly>; if (v > 0) out[i] = r;
define ptx_kernel void @arithmeticAsm(ptr %x, ptr %out) !dbg !21 {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i64 = zext i32 %tx to i64
  %px = getelementptr inbounds i32, ptr %x, i64 %i64
  %xi = load i32, ptr %px, align 4, !dbg !179
  %inc = call i32 asm "add.s32 $0, $1, 1;", "=r,r"(i32 %xi), !dbg !180
  %pos = icmp sgt i32 %xi, 0
  br i1 %pos, label %then, label %exit, !dbg !181
then:
  %po = getelementptr inbounds i32, ptr %out, i64 %i64
  store i32 %inc, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; done[i] = 1; if (x[i] > 0) out[i] = 2;: the candidate comes after a store.
define ptx_kernel void @writeFirst(ptr %x, ptr %out, ptr %done) !dbg !19 {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i64 = zext i32 %tx to i64
  %pd = getelementptr inbounds i32, ptr %done, i64 %i64
  store i32 1, ptr %pd, align 4, !dbg !167
  %px = getelementptr inbounds i32, ptr %x, i64 %i64
  %xi = load i32, ptr %px, align 4, !dbg !168
  %pos = icmp sgt i32 %xi, 0
  br i1 %pos, label %then, label %exit, !dbg !169
then:
  %po = getelementptr inbounds i32, ptr %out, i64 %i64
  store i32 2, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; b[i] = 2 * a[i]: nothing loaded decides a branch or an address.
define ptx_kernel void @noCandidate(ptr %a, ptr %b) !dbg !20 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %i64
  %ai = load float, ptr %pa, align 4
  %twice = fmul float %ai, 2.0
  %pb = getelementptr inbounds float, ptr %b, i64 %i64
  store float %twice, ptr %pb, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "remap.cu", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DISubroutineType(types: !{})
!10 = distinct !DISubprogram(name: "loopKey", scope: !1, file: !1, line: 1, scopeLine: 1, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!11 = distinct !DISubprogram(name: "branchKey", scope: !1, file: !1, line: 10, scopeLine: 10, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!12 = distinct !DISubprogram(name: "gatherKey", scope: !1, file: !1, line: 17, scopeLine: 17, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!13 = distinct !DISubprogram(name: "switchKey", scope: !1, file: !1, line: 24, scopeLine: 24, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!14 = distinct !DISubprogram(name: "loopBeatsBranch", scope: !1, file: !1, line: 30, scopeLine: 30, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!15 = distinct !DISubprogram(name: "sharedMemory", scope: !1, file: !1, line: 40, scopeLine: 40, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!16 = distinct !DISubprogram(name: "barrier", scope: !1, file: !1, line: 46, scopeLine: 46, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!17 = distinct !DISubprogram(name: "shuffle", scope: !1, file: !1, line: 52, scopeLine: 52, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!18 = distinct !DISubprogram(name: "laneAsm", scope: !1, file: !1, line: 58, scopeLine: 58, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!19 = distinct !DISubprogram(name: "writeFirst", scope: !1, file: !1, line: 64, scopeLine: 64, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!20 = distinct !DISubprogram(name: "noCandidate", scope: !1, file: !1, line: 72, scopeLine: 72, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!21 = distinct !DISubprogram(name: "arithmeticAsm", scope: !1, file: !1, line: 77, scopeLine: 77, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!104 = !DILocation(line: 4, scope: !10)
!106 = !DILocation(line: 6, scope: !10)
!112 = !DILocation(line: 12, scope: !11)
!113 = !DILocation(line: 13, scope: !11)
!119 = !DILocation(line: 19, scope: !12)
!120 = !DILocation(line: 20, scope: !12)
!126 = !DILocation(line: 26, scope: !13)
!127 = !DILocation(line: 27, scope: !13)
!132 = !DILocation(line: 32, scope: !14)
!133 = !DILocation(line: 33, scope: !14)
!135 = !DILocation(line: 35, scope: !14)
!136 = !DILocation(line: 36, scope: !14)
!142 = !DILocation(line: 42, scope: !15)
!149 = !DILocation(line: 49, scope: !16)
!155 = !DILocation(line: 55, scope: !17)
!161 = !DILocation(line: 61, scope: !18)
!167 = !DILocation(line: 67, scope: !19)
!168 = !DILocation(line: 68, scope: !19)
!169 = !DILocation(line: 69, scope: !19)
!179 = !DILocation(line: 79, scope: !21)
!180 = !DILocation(line: 80, scope: !21)
!181 = !DILocation(line: 81, scope: !21)
