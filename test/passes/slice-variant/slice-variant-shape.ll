; Shape of the slice variant (index rectification): K__slice's blockIdx is
; chunk slice_offset + ctaid.x of the original grid, decomposed with the
; original grid and its division constants from the descriptor (no udiv or
; urem: mul.hi, see smc-variant-grid-dims.ll, and only past the first row),
; with ctaid.y + slice_first_y and ctaid.z + slice_first_z in the first row:
; one path for 1-D slices and for whole rows of a 2-D/3-D grid; gridDim reads
; come from the descriptor; returns stay returns (one chunk per CTA, no loop); K is
; unchanged; the outcome is recorded in K__smc_info (there is no K__slice_info).
;
; RUN: %opt %load_smc -passes=smc-slice -S %s -o %t.ll
; RUN: FileCheck %s -DABI=%smc_abi_version --implicit-check-not=udiv --implicit-check-not=urem < %t.ll
; RUN: %opt %load_smc -passes=smc-slice -pass-remarks=smc -disable-output %s 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; flags HAS_SLICE only, 2 params, smc not requested (1), slice built (0),
; locality unknown (6: not analysed by smc-slice alone), remap not requested
; (1), no remap key (0).
; CHECK: @K__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 2, i32 2, i32 1, i32 0, i32 6, i32 1, i32 0], align 4
; CHECK-NOT: __slice_info

; CHECK: define ptx_kernel void @K(ptr %out, i32 %n) [[ATTRS:#[0-9]+]] {
; CHECK-NEXT: {{^}}entry:
; CHECK-NEXT:   %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT:   %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
; CHECK-NEXT:   %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

; CHECK: define ptx_kernel void @K__slice(ptr %out, i32 %n, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) [[ATTRS]] {
; CHECK-DAG:    %smc.gridDim.x.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 0
; CHECK-DAG:    %smc.gridDim.x = load i32, ptr %smc.gridDim.x.addr
; CHECK-DAG:    %smc.gridDim.y.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 1
; CHECK-DAG:    %smc.gridDim.y = load i32, ptr %smc.gridDim.y.addr
; CHECK:        %smc.slice.offset.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 6
; CHECK-NEXT:   %smc.slice.offset = load i32, ptr %smc.slice.offset.addr
; CHECK-NEXT:   %smc.slice.cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT:   %smc.chunk.id = add i32 %smc.slice.offset, %smc.slice.cta
; CHECK-NEXT:   %smc.rows.y = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
; CHECK-NEXT:   %smc.slice.first.y.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 19
; CHECK-NEXT:   %smc.slice.first.y = load i32, ptr %smc.slice.first.y.addr
; CHECK-NEXT:   %smc.rows.by = add i32 %smc.rows.y, %smc.slice.first.y
; CHECK-NEXT:   %smc.rows.z = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
; CHECK-NEXT:   %smc.slice.first.z.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 20
; CHECK-NEXT:   %smc.slice.first.z = load i32, ptr %smc.slice.first.z.addr
; CHECK-NEXT:   %smc.rows.bz = add i32 %smc.rows.z, %smc.slice.first.z
; CHECK-NEXT:   %smc.first.row = icmp ult i32 %smc.chunk.id, %smc.gridDim.x
; CHECK-NEXT:   br i1 %smc.first.row, label %smc.coords, label %smc.coords.divide
; CHECK:      smc.coords.divide:
; CHECK:        %smc.plane.hi = call i32 @llvm.nvvm.mulhi.ui(i32 %smc.plane.n, i32 %smc.div.x.mul)
; CHECK:        %smc.x = sub nuw i32 %smc.chunk.id, %smc.plane.start
; CHECK:        %smc.z.hi = call i32 @llvm.nvvm.mulhi.ui(i32 %smc.z.n, i32 %smc.div.y.mul)
; CHECK:        %smc.y = sub nuw i32 %smc.plane, %smc.z.start
; CHECK-NEXT:   br label %smc.coords
; No test of the launch's shape: in the first row (every chunk of whole
; rows, whose slice_offset is 0, and of a 1-D grid) blockIdx is the chunk id
; and ctaid.y/z plus slice_first_y/z; past it (1-D slices of 2-D/3-D grids,
; whose ctaid.y/z and slice_first_y/z are 0) the decomposition.
; CHECK:      smc.coords:
; CHECK-NEXT:   %smc.blockIdx.x = phi i32 [ %smc.chunk.id, %[[PROLOGUE:.+]] ], [ %smc.x, %smc.coords.divide ]
; CHECK-NEXT:   %smc.blockIdx.y = phi i32 [ %smc.rows.by, %[[PROLOGUE]] ], [ %smc.y, %smc.coords.divide ]
; CHECK-NEXT:   %smc.blockIdx.z = phi i32 [ %smc.rows.bz, %[[PROLOGUE]] ], [ %smc.z, %smc.coords.divide ]
; CHECK-NEXT:   br label %entry
; CHECK-NOT:    sreg.ctaid
; CHECK-NOT:    sreg.nctaid
; CHECK:      {{^}}entry:
; CHECK:        %row = mul i32 %smc.blockIdx.y, %smc.gridDim.x
; CHECK-NEXT:   %blk = add i32 %row, %smc.blockIdx.x
; CHECK:      early:
; CHECK-NEXT:   ret void
; CHECK:      work:
; CHECK:        store i32 %tx, ptr %p
; CHECK-NEXT:   ret void
; CHECK-NEXT: }
; No worker loop, no worker library in a slice-only module.
; CHECK-NOT: smc.dispatch
; CHECK-NOT: __smc_dev_shared
; CHECK: attributes [[ATTRS]] = { "nvvm.maxntid"="64" }

; REMARK: remark: <unknown>:0:0: kernel 'K': built K__slice (index rectification; 3 blockIdx/gridDim reads replaced)

define ptx_kernel void @K(ptr %out, i32 %n) #0 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %row = mul i32 %by, %gx
  %blk = add i32 %row, %bx
  %c = icmp uge i32 %blk, %n
  br i1 %c, label %early, label %work

early:
  ret void

work:
  %p = getelementptr inbounds i32, ptr %out, i32 %blk
  store i32 %tx, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "nvvm.maxntid"="64" }
