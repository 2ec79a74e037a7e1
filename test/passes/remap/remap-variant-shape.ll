; Shape of the remap variant and its inspector (smc-remap).  K__remap takes
; the descriptor as an extra by-value parameter; its prologue computes the
; hardware thread t = ctaid.x * ntid.x + tid.x, loads remap_count (field
; 22), and for t below it looks up the job remap_table[t] (field 32), else
; keeps t; blockIdx.x and threadIdx.x become job / ntid.x and job % ntid.x,
; and no other read of tid.x or ctaid.x is left (blockDim.x is the
; prologue's).  K__remap_keys is K up to the key load, then the key made an
; unsigned 32-bit number of the same order (ints: sign bit flipped; floats:
; sign bit flipped, all bits of negative ones; doubles through float; wider
; ints clamped to 32 bits; pointers by address / 4) stored at remap_keys[t]
; (field 33) for t below remap_count; it stores nothing else, and every
; path away from the key returns.  K is unchanged.
;
; RUN: %opt %load_smc -passes=smc-remap -S %s -o %t.ll
; RUN: FileCheck %s -DABI=%smc_abi_version < %t.ll
; RUN: FileCheck %s --check-prefix=SREG < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; flags HAS_REMAP (32), smc and slice not requested (1), locality unknown
; (6), remap built (0) with key 2 (branch), 1 (loop trip count) or 3 (gather
; index).
; CHECK-DAG: @scaleIf__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 3, i32 1, i32 1, i32 6, i32 0, i32 2], align 4
; CHECK-DAG: @guardedLoop__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 4, i32 1, i32 1, i32 6, i32 0, i32 1], align 4
; CHECK-DAG: @rowGather__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 2, i32 1, i32 1, i32 6, i32 0, i32 3], align 4
; CHECK-DAG: @longLoop__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 3, i32 1, i32 1, i32 6, i32 0, i32 1], align 4
; CHECK-DAG: @doubleBranch__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 2, i32 1, i32 1, i32 6, i32 0, i32 2], align 4
; CHECK-NOT: __remap_info
; CHECK-NOT: __remap_keys__smc_info

; K is unchanged.
; CHECK-LABEL: define ptx_kernel void @scaleIf(ptr %x, ptr %out, float %t) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT:    %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT:    %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; The variant: the prologue, then the body with the job's indices.
; CHECK-LABEL: define ptx_kernel void @scaleIf__remap(ptr %x, ptr %out, float %t, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) {
; CHECK-NEXT:  remap.entry:
; CHECK-NEXT:    %remap.ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT:    %remap.cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT:    %remap.tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT:    %[[T0:.+]] = mul i32 %remap.cta, %remap.ntid
; CHECK-NEXT:    %remap.thread = add i32 %[[T0]], %remap.tid
; CHECK-NEXT:    %remap.count.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 22
; CHECK-NEXT:    %remap.count = load i32, ptr %remap.count.addr, align 4
; CHECK-NEXT:    %[[COVERED:.+]] = icmp ult i32 %remap.thread, %remap.count
; CHECK-NEXT:    br i1 %[[COVERED]], label %remap.lookup, label %remap.job
; CHECK:       remap.lookup:
; CHECK-NEXT:    %remap.table.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 32
; CHECK-NEXT:    %remap.table = load ptr, ptr %remap.table.addr, align 8
; CHECK-NEXT:    %[[T64:.+]] = zext i32 %remap.thread to i64
; CHECK-NEXT:    %[[SLOT:.+]] = getelementptr inbounds i32, ptr %remap.table, i64 %[[T64]]
; CHECK-NEXT:    %remap.mapped = load i32, ptr %[[SLOT]], align 4
; CHECK-NEXT:    br label %remap.job
; CHECK:       remap.job:
; CHECK-NEXT:    %remap.job.id = phi i32 [ %remap.mapped, %remap.lookup ], [ %remap.thread, %remap.entry ]
; CHECK-NEXT:    %remap.blockIdx.x = udiv i32 %remap.job.id, %remap.ntid
; CHECK-NEXT:    %[[BASE:.+]] = mul i32 %remap.blockIdx.x, %remap.ntid
; CHECK-NEXT:    %remap.threadIdx.x = sub i32 %remap.job.id, %[[BASE]]
; CHECK-NEXT:    br label %entry
; CHECK:       entry:
; CHECK-NEXT:    %first = mul i32 %remap.blockIdx.x, %remap.ntid
; CHECK-NEXT:    %i = add i32 %first, %remap.threadIdx.x
; CHECK:         %xi = load float, ptr %px, align 4
; CHECK:         %big = fcmp ogt float %xi, %t
; CHECK:       then:
; The second threadIdx.x read, in the body, is the job's too.
; CHECK:         %lane64 = zext{{( nneg)?}} i32 %remap.threadIdx.x to i64
; CHECK:         store float %twice, ptr %po, align 4
; CHECK:         ret void
; CHECK-NEXT:  }

; The inspector of a float key: K up to the load, then the ordered key.
; CHECK-LABEL: define ptx_kernel void @scaleIf__remap_keys(ptr %x, ptr %out, float %t, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) {
; CHECK-NOT:     {{^ +store }}
; CHECK:         %xi = load float, ptr %px, align 4
; CHECK-NEXT:    %remap.ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT:    %remap.cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT:    %remap.tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT:    %[[K0:.+]] = mul i32 %remap.cta, %remap.ntid
; CHECK-NEXT:    %remap.thread = add i32 %[[K0]], %remap.tid
; CHECK-NEXT:    %[[BITS:.+]] = bitcast float %xi to i32
; CHECK-NEXT:    %[[SIGN:.+]] = ashr i32 %[[BITS]], 31
; CHECK-NEXT:    %[[MASK:.+]] = or i32 %[[SIGN]], -2147483648
; CHECK-NEXT:    %remap.key = xor i32 %[[BITS]], %[[MASK]]
; CHECK-NEXT:    %remap.count.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 22
; CHECK-NEXT:    %remap.count = load i32, ptr %remap.count.addr, align 4
; CHECK-NEXT:    %[[HAS:.+]] = icmp ult i32 %remap.thread, %remap.count
; CHECK-NEXT:    br i1 %[[HAS]], label %remap.store, label %remap.nokey
; CHECK-NOT:     fcmp
; CHECK-NOT:     {{^ +store }}
; CHECK:       remap.nokey:
; CHECK-NEXT:    ret void
; CHECK:       remap.store:
; CHECK-NEXT:    %remap.keys.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 33
; CHECK-NEXT:    %remap.keys = load ptr, ptr %remap.keys.addr, align 8
; CHECK-NEXT:    %[[S64:.+]] = zext i32 %remap.thread to i64
; CHECK-NEXT:    %[[KEYSLOT:.+]] = getelementptr inbounds i32, ptr %remap.keys, i64 %[[S64]]
; CHECK-NEXT:    store i32 %remap.key, ptr %[[KEYSLOT]], align 4
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; An int key behind a branch: the branch's other way returns at once; the
; loop and the store after it are gone.
; CHECK-LABEL: define ptx_kernel void @guardedLoop__remap_keys(
; CHECK-NOT:     {{^ +store }}
; CHECK:         br i1 %{{.+}}, label %remap.nokey, label %count.load
; CHECK:       count.load:
; CHECK:         %n = load i32, ptr %pc, align 4
; CHECK-NOT:     {{^ +store }}
; CHECK:         %remap.key = xor i32 %n, -2147483648
; CHECK-NOT:     {{^ +store }}
; CHECK:         br i1 %{{.+}}, label %remap.store, label %remap.nokey
; CHECK-NOT:     {{^}}loop:
; CHECK-NOT:     fadd
; CHECK:       remap.nokey:
; CHECK-NEXT:    ret void
; CHECK:       remap.store:
; CHECK-NOT:     {{^ +store }}
; CHECK:         store i32 %remap.key, ptr %{{.+}}, align 4
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; A pointer key (a gather through a table of row pointers): its address / 4.
; CHECK-LABEL: define ptx_kernel void @rowGather__remap_keys(
; CHECK:         %row = load ptr, ptr %prow, align 8
; CHECK:         %[[ADDR:.+]] = ptrtoint ptr %row to i64
; CHECK-NEXT:    %[[WORDS:.+]] = lshr i64 %[[ADDR]], 2
; CHECK-NEXT:    %remap.key = trunc i64 %[[WORDS]] to i32
; CHECK-NOT:     %v = load
; CHECK:         store i32 %remap.key
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; A 64-bit key: clamped to [INT32_MIN, INT32_MAX], then as a 32-bit int.
; CHECK-LABEL: define ptx_kernel void @longLoop__remap_keys(
; CHECK:         %n = load i64, ptr %pc, align 8
; CHECK:         %[[LOW:.+]] = icmp slt i64 %n, -2147483648
; CHECK-NEXT:    %[[LO:.+]] = select i1 %[[LOW]], i64 -2147483648, i64 %n
; CHECK-NEXT:    %[[HIGH:.+]] = icmp sgt i64 %[[LO]], 2147483647
; CHECK-NEXT:    %[[HI:.+]] = select i1 %[[HIGH]], i64 2147483647, i64 %[[LO]]
; CHECK-NEXT:    %[[N32:.+]] = trunc i64 %[[HI]] to i32
; CHECK-NEXT:    %remap.key = xor i32 %[[N32]], -2147483648
; CHECK:         store i32 %remap.key
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; A double key: rounded to float, then as a float.
; CHECK-LABEL: define ptx_kernel void @doubleBranch__remap_keys(
; CHECK:         %xi = load double, ptr %px, align 8
; CHECK:         %[[F:.+]] = fptrunc double %xi to float
; CHECK-NEXT:    %[[DBITS:.+]] = bitcast float %[[F]] to i32
; CHECK-NEXT:    %[[DSIGN:.+]] = ashr i32 %[[DBITS]], 31
; CHECK-NEXT:    %[[DMASK:.+]] = or i32 %[[DSIGN]], -2147483648
; CHECK-NEXT:    %remap.key = xor i32 %[[DBITS]], %[[DMASK]]
; CHECK:         store i32 %remap.key
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; In every variant, the prologue's are the only reads of tid.x and ctaid.x.
; SREG-LABEL: define ptx_kernel void @scaleIf__remap(
; SREG:       remap.entry:
; SREG-NEXT:    call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; SREG-NEXT:    call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; SREG-NEXT:    call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; SREG-NOT:     @llvm.nvvm.read.ptx.sreg.{{tid|ctaid|ntid}}.x()
; SREG-LABEL: define ptx_kernel void @scaleIf__remap_keys(
; SREG-LABEL: define ptx_kernel void @guardedLoop__remap(
; SREG:       remap.entry:
; SREG-NEXT:    call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; SREG-NEXT:    call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; SREG-NEXT:    call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; SREG-NOT:     @llvm.nvvm.read.ptx.sreg.{{tid|ctaid|ntid}}.x()
; SREG-LABEL: define ptx_kernel void @guardedLoop__remap_keys(
; SREG-LABEL: define ptx_kernel void @rowGather__remap(
; SREG:       remap.entry:
; SREG-NEXT:    call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; SREG-NEXT:    call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; SREG-NEXT:    call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; SREG-NOT:     @llvm.nvvm.read.ptx.sreg.{{tid|ctaid|ntid}}.x()
; SREG-LABEL: define ptx_kernel void @rowGather__remap_keys(

; if (x[i] > t) out[i + threadIdx.x] = 2 * x[i];
define ptx_kernel void @scaleIf(ptr %x, ptr %out, float %t) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %i64
  %xi = load float, ptr %px, align 4
  %big = fcmp ogt float %xi, %t
  br i1 %big, label %then, label %exit
then:
  %twice = fmul float %xi, 2.0
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane64 = zext i32 %lane to i64
  %at = add i64 %i64, %lane64
  %po = getelementptr inbounds float, ptr %out, i64 %at
  store float %twice, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; if (flag[i]) { n = count[i]; for (k < n) s += w[k]; out[i] = s; }
define ptx_kernel void @guardedLoop(ptr %flag, ptr %count, ptr %w, ptr %out) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %pf = getelementptr inbounds i8, ptr %flag, i64 %i64
  %f = load i8, ptr %pf, align 1
  %set = icmp ne i8 %f, 0
  br i1 %set, label %count.load, label %exit
count.load:
  %pc = getelementptr inbounds i32, ptr %count, i64 %i64
  %n = load i32, ptr %pc, align 4
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %store
loop:
  %k = phi i32 [ 0, %count.load ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %count.load ], [ %s.next, %loop ]
  %k64 = zext i32 %k to i64
  %pw = getelementptr inbounds float, ptr %w, i64 %k64
  %wk = load float, ptr %pw, align 4
  %s.next = fadd float %s, %wk
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %store
store:
  %r = phi float [ 0.0, %count.load ], [ %s.next, %loop ]
  %po = getelementptr inbounds float, ptr %out, i64 %i64
  store float %r, ptr %po, align 4
  br label %exit
exit:
  ret void
}

; out[i] = rows[i][0]
define ptx_kernel void @rowGather(ptr %rows, ptr %out) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %prow = getelementptr inbounds ptr, ptr %rows, i64 %i64
  %row = load ptr, ptr %prow, align 8
  %v = load float, ptr %row, align 4
  %po = getelementptr inbounds float, ptr %out, i64 %i64
  store float %v, ptr %po, align 4
  ret void
}

; n = count[i] (64-bit); for (k < n) s += w[k]; out[i] = s;
define ptx_kernel void @longLoop(ptr %count, ptr %w, ptr %out) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i64 = zext i32 %tx to i64
  %pc = getelementptr inbounds i64, ptr %count, i64 %i64
  %n = load i64, ptr %pc, align 8
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %pw = getelementptr inbounds float, ptr %w, i64 %k
  %wk = load float, ptr %pw, align 4
  %s.next = fadd float %s, %wk
  %k.next = add nuw nsw i64 %k, 1
  %more = icmp slt i64 %k.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %po = getelementptr inbounds float, ptr %out, i64 %i64
  store float %r, ptr %po, align 4
  ret void
}

; if (x[i] < 0.5) out[i] = 1;  (x double)
define ptx_kernel void @doubleBranch(ptr %x, ptr %out) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i64 = zext i32 %tx to i64
  %px = getelementptr inbounds double, ptr %x, i64 %i64
  %xi = load double, ptr %px, align 8
  %small = fcmp olt double %xi, 0.5
  br i1 %small, label %then, label %exit
then:
  %po = getelementptr inbounds i32, ptr %out, i64 %i64
  store i32 1, ptr %po, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
