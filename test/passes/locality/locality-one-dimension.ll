; CTA locality along one dimension other than x: scaling every row of a
; matrix by one vector (out[y][x] = in[y][x] * v[x]) reads v the same in all
; CTAs of a column, so neighbours along y share; adding one plane to every
; plane of a volume (out[z][y][x] = in[z][y][x] + plane[y][x]) shares the
; plane along z.  Along the other dimensions the reads are disjoint.
;
; RUN: %opt %load_smc -passes='print<smc-locality>' -disable-output %s | FileCheck %s
; RUN: %opt %load_smc -passes=smc-locality -pass-remarks-analysis=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: kernel scaleColumns: y (x: disjoint; y: v is the same for all CTAs along y)
; CHECK-NEXT: kernel addPlane: z (x: disjoint; y: disjoint; z: plane is the same for all CTAs along z)

; REMARK: remark: <unknown>:0:0: kernel 'scaleColumns': CTA locality y (x: disjoint; y: v is the same for all CTAs along y)
; REMARK: remark: <unknown>:0:0: kernel 'addPlane': CTA locality z (x: disjoint; y: disjoint; z: plane is the same for all CTAs along z)

; x = bx * bdx + tx, y = by * bdy + ty: out[y * w + x] = in[y * w + x] * v[x]
define ptx_kernel void @scaleColumns(ptr %in, ptr %v, ptr %out, i32 %w) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bdx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bdy = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %x0 = mul i32 %bx, %bdx
  %x = add i32 %x0, %tx
  %y0 = mul i32 %by, %bdy
  %y = add i32 %y0, %ty
  %rowStart = mul i32 %y, %w
  %i = add i32 %rowStart, %x
  %i64 = zext i32 %i to i64
  %x64 = zext i32 %x to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %i64
  %a = load float, ptr %pin, align 4
  %pv = getelementptr inbounds float, ptr %v, i64 %x64
  %s = load float, ptr %pv, align 4
  %r = fmul float %a, %s
  %pout = getelementptr inbounds float, ptr %out, i64 %i64
  store float %r, ptr %pout, align 4
  ret void
}

; out[(z * h + y) * w + x] = in[(z * h + y) * w + x] + plane[y * w + x]
define ptx_kernel void @addPlane(ptr %in, ptr %plane, ptr %out, i32 %w, i32 %h) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %bdx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bdy = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %x0 = mul i32 %bx, %bdx
  %x = add i32 %x0, %tx
  %y0 = mul i32 %by, %bdy
  %y = add i32 %y0, %ty
  %zRows = mul i32 %bz, %h
  %row = add i32 %zRows, %y
  %rowStart = mul i32 %row, %w
  %i = add i32 %rowStart, %x
  %i64 = zext i32 %i to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %i64
  %a = load float, ptr %pin, align 4
  %planeRow = mul i32 %y, %w
  %j = add i32 %planeRow, %x
  %j64 = zext i32 %j to i64
  %pp = getelementptr inbounds float, ptr %plane, i64 %j64
  %b = load float, ptr %pp, align 4
  %r = fadd float %a, %b
  %pout = getelementptr inbounds float, ptr %out, i64 %i64
  store float %r, ptr %pout, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
