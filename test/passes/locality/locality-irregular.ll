; CTA locality "irregular": a read whose address depends on data loaded at
; an address that varies.  A gather in[idx[i]], a table of row pointers
; rows[i][j], and a CSR sparse matrix-vector product (loop bounds and
; column indices from memory) are irregular, whatever their other reads do.
; A pointer or bound loaded from one fixed address (here a parameter struct
; in global memory) is the same for the whole grid: not irregular.
;
; RUN: %opt %load_smc -passes='print<smc-locality>' -disable-output %s | FileCheck %s
; RUN: %opt %load_smc -passes=smc-locality -pass-remarks-analysis=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: kernel gather: irregular (read of in: its index is loaded from memory)
; CHECK-NEXT: kernel rowTable: irregular (read of a pointer in rows: its pointer is loaded from memory)
; CHECK-NEXT: kernel spmv: irregular (read of {{.*}}: its index is loaded from memory)
; CHECK-NEXT: kernel fixedPointer: none (x: disjoint)

; REMARK: remark: <unknown>:0:0: kernel 'gather': CTA locality irregular (read of in: its index is loaded from memory)
; REMARK: remark: <unknown>:0:0: kernel 'rowTable': CTA locality irregular
; REMARK: remark: <unknown>:0:0: kernel 'spmv': CTA locality irregular
; REMARK: remark: <unknown>:0:0: kernel 'fixedPointer': CTA locality none

; out[i] = in[idx[i]]
define ptx_kernel void @gather(ptr %in, ptr %idx, ptr %out) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %pidx = getelementptr inbounds i32, ptr %idx, i64 %i64
  %j = load i32, ptr %pidx, align 4
  %j64 = sext i32 %j to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %j64
  %v = load float, ptr %pin, align 4
  %pout = getelementptr inbounds float, ptr %out, i64 %i64
  store float %v, ptr %pout, align 4
  ret void
}

; out[i] = rows[i][threadIdx.x]
define ptx_kernel void @rowTable(ptr %rows, ptr %out) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %prow = getelementptr inbounds ptr, ptr %rows, i64 %i64
  %row = load ptr, ptr %prow, align 8
  %tx64 = zext i32 %tx to i64
  %pv = getelementptr inbounds float, ptr %row, i64 %tx64
  %v = load float, ptr %pv, align 4
  %pout = getelementptr inbounds float, ptr %out, i64 %i64
  store float %v, ptr %pout, align 4
  ret void
}

; y[r] = sum over j in [rowStart[r], rowStart[r + 1]) of val[j] * x[col[j]]
define ptx_kernel void @spmv(ptr %rowStart, ptr %col, ptr %val, ptr %x, ptr %y) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %r = add i32 %first, %tx
  %r64 = zext i32 %r to i64
  %pstart = getelementptr inbounds i32, ptr %rowStart, i64 %r64
  %start = load i32, ptr %pstart, align 4
  %pend = getelementptr inbounds i32, ptr %pstart, i64 1
  %end = load i32, ptr %pend, align 4
  %any = icmp slt i32 %start, %end
  br i1 %any, label %loop, label %done

loop:
  %j = phi i32 [ %start, %entry ], [ %j.next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %j64 = sext i32 %j to i64
  %pval = getelementptr inbounds float, ptr %val, i64 %j64
  %a = load float, ptr %pval, align 4
  %pcol = getelementptr inbounds i32, ptr %col, i64 %j64
  %c = load i32, ptr %pcol, align 4
  %c64 = sext i32 %c to i64
  %px = getelementptr inbounds float, ptr %x, i64 %c64
  %b = load float, ptr %px, align 4
  %prod = fmul float %a, %b
  %sum.next = fadd float %sum, %prod
  %j.next = add nsw i32 %j, 1
  %more = icmp slt i32 %j.next, %end
  br i1 %more, label %loop, label %done

done:
  %result = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %py = getelementptr inbounds float, ptr %y, i64 %r64
  store float %result, ptr %py, align 4
  ret void
}

; struct Args { float *in; float *out; }: args->out[i] = args->in[i]
define ptx_kernel void @fixedPointer(ptr %args) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = mul i32 %bx, %bd
  %i = add i32 %first, %tx
  %i64 = zext i32 %i to i64
  %in = load ptr, ptr %args, align 8
  %pout = getelementptr inbounds i8, ptr %args, i64 8
  %out = load ptr, ptr %pout, align 8
  %pin = getelementptr inbounds float, ptr %in, i64 %i64
  %v = load float, ptr %pin, align 4
  %po = getelementptr inbounds float, ptr %out, i64 %i64
  store float %v, ptr %po, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
