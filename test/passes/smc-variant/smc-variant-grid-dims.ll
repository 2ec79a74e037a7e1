; How K__smc and K__slice turn a linear chunk id into blockIdx for 1-D,
; 2-D and 3-D grids (x fastest, as the hardware numbers CTAs):
;   plane = id / grid_x, x = id - plane * grid_x,
;   z = plane / grid_y,  y = plane - z * grid_y
; with grid_x/y/z loaded from descriptor fields 0/1/2, gridDim.x/y/z reads
; replaced by those loads, and no run-time division: each quotient is
; mulhi(n + add, mul) >> shift with the runtime's constants from descriptor
; fields div_x_mul/add/shift (10/11/12) and div_y_mul/add/shift (13/14/15)
; (runtime/MagicDivision.h).  The first row (id < grid_x) skips it.
;
; RUN: %opt %load_smc -passes=smc-variant,smc-slice -S %s -o %t.ll
; RUN: FileCheck %s -DABI=%smc_abi_version --implicit-check-not=udiv --implicit-check-not=urem < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-DAG: @k1d__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 1, i32 0, i32 0, i32 6, i32 1, i32 0]
; CHECK-DAG: @k3d__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 1, i32 0, i32 0, i32 6, i32 1, i32 0]

; CHECK-LABEL: define ptx_kernel void @k1d__smc(ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc)
; CHECK-DAG:   %smc.gridDim.x.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 0
; CHECK-DAG:   %smc.gridDim.x = load i32, ptr %smc.gridDim.x.addr
; CHECK:     smc.chunk:
; CHECK:        %smc.first.row = icmp ult i32 %smc.chunk.id, %smc.gridDim.x
; CHECK:      smc.coords.divide:
; CHECK-NEXT:   %smc.div.x.add.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 11
; CHECK-NEXT:   %smc.div.x.add = load i32, ptr %smc.div.x.add.addr
; CHECK-NEXT:   %smc.div.x.mul.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 10
; CHECK-NEXT:   %smc.div.x.mul = load i32, ptr %smc.div.x.mul.addr
; CHECK-NEXT:   %smc.div.x.shift.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 12
; CHECK-NEXT:   %smc.div.x.shift = load i32, ptr %smc.div.x.shift.addr
; CHECK-NEXT:   %smc.plane.n = add nuw i32 %smc.chunk.id, %smc.div.x.add
; CHECK-NEXT:   %smc.plane.hi = call i32 @llvm.nvvm.mulhi.ui(i32 %smc.plane.n, i32 %smc.div.x.mul)
; CHECK-NEXT:   %smc.plane = lshr i32 %smc.plane.hi, %smc.div.x.shift
; CHECK-NEXT:   %smc.plane.start = mul nuw i32 %smc.plane, %smc.gridDim.x
; CHECK-NEXT:   %smc.x = sub nuw i32 %smc.chunk.id, %smc.plane.start
; CHECK-NEXT:   %smc.div.y.add.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 14
; CHECK-NEXT:   %smc.div.y.add = load i32, ptr %smc.div.y.add.addr
; CHECK-NEXT:   %smc.div.y.mul.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 13
; CHECK-NEXT:   %smc.div.y.mul = load i32, ptr %smc.div.y.mul.addr
; CHECK-NEXT:   %smc.div.y.shift.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 15
; CHECK-NEXT:   %smc.div.y.shift = load i32, ptr %smc.div.y.shift.addr
; CHECK-NEXT:   %smc.z.n = add nuw i32 %smc.plane, %smc.div.y.add
; CHECK-NEXT:   %smc.z.hi = call i32 @llvm.nvvm.mulhi.ui(i32 %smc.z.n, i32 %smc.div.y.mul)
; CHECK-NEXT:   %smc.z = lshr i32 %smc.z.hi, %smc.div.y.shift
; CHECK-NEXT:   %smc.z.start = mul nuw i32 %smc.z, %smc.gridDim.y
; CHECK-NEXT:   %smc.y = sub nuw i32 %smc.plane, %smc.z.start
; CHECK-NEXT:   br label %smc.coords
; CHECK:      smc.coords:
; CHECK-NEXT:   %smc.blockIdx.x = phi i32 [ %smc.chunk.id, %{{.*}} ], [ %smc.x, %smc.coords.divide ]
; CHECK-NEXT:   %smc.blockIdx.y = phi i32 [ 0, %{{.*}} ], [ %smc.y, %smc.coords.divide ]
; CHECK-NEXT:   %smc.blockIdx.z = phi i32 [ 0, %{{.*}} ], [ %smc.z, %smc.coords.divide ]
; CHECK:       %i = add i32 %smc.blockIdx.x, 7
; CHECK:       store i32 %i, ptr %out
; CHECK-LABEL: smc.exit:

; CHECK-LABEL: define ptx_kernel void @k3d__smc(ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc)
; CHECK-DAG:   %smc.gridDim.x.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 0
; CHECK-DAG:   %smc.gridDim.x = load i32, ptr %smc.gridDim.x.addr
; CHECK-DAG:   %smc.gridDim.y.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 1
; CHECK-DAG:   %smc.gridDim.y = load i32, ptr %smc.gridDim.y.addr
; CHECK-DAG:   %smc.gridDim.z.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 2
; CHECK-DAG:   %smc.gridDim.z = load i32, ptr %smc.gridDim.z.addr
; CHECK:     smc.chunk:
; CHECK:        %smc.first.row = icmp ult i32 %smc.chunk.id, %smc.gridDim.x
; CHECK:      smc.coords.divide:
; CHECK-NEXT:   %smc.div.x.add.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 11
; CHECK-NEXT:   %smc.div.x.add = load i32, ptr %smc.div.x.add.addr
; CHECK-NEXT:   %smc.div.x.mul.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 10
; CHECK-NEXT:   %smc.div.x.mul = load i32, ptr %smc.div.x.mul.addr
; CHECK-NEXT:   %smc.div.x.shift.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 12
; CHECK-NEXT:   %smc.div.x.shift = load i32, ptr %smc.div.x.shift.addr
; CHECK-NEXT:   %smc.plane.n = add nuw i32 %smc.chunk.id, %smc.div.x.add
; CHECK-NEXT:   %smc.plane.hi = call i32 @llvm.nvvm.mulhi.ui(i32 %smc.plane.n, i32 %smc.div.x.mul)
; CHECK-NEXT:   %smc.plane = lshr i32 %smc.plane.hi, %smc.div.x.shift
; CHECK-NEXT:   %smc.plane.start = mul nuw i32 %smc.plane, %smc.gridDim.x
; CHECK-NEXT:   %smc.x = sub nuw i32 %smc.chunk.id, %smc.plane.start
; CHECK-NEXT:   %smc.div.y.add.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 14
; CHECK-NEXT:   %smc.div.y.add = load i32, ptr %smc.div.y.add.addr
; CHECK-NEXT:   %smc.div.y.mul.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 13
; CHECK-NEXT:   %smc.div.y.mul = load i32, ptr %smc.div.y.mul.addr
; CHECK-NEXT:   %smc.div.y.shift.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 15
; CHECK-NEXT:   %smc.div.y.shift = load i32, ptr %smc.div.y.shift.addr
; CHECK-NEXT:   %smc.z.n = add nuw i32 %smc.plane, %smc.div.y.add
; CHECK-NEXT:   %smc.z.hi = call i32 @llvm.nvvm.mulhi.ui(i32 %smc.z.n, i32 %smc.div.y.mul)
; CHECK-NEXT:   %smc.z = lshr i32 %smc.z.hi, %smc.div.y.shift
; CHECK-NEXT:   %smc.z.start = mul nuw i32 %smc.z, %smc.gridDim.y
; CHECK-NEXT:   %smc.y = sub nuw i32 %smc.plane, %smc.z.start
; CHECK-NEXT:   br label %smc.coords
; CHECK:      smc.coords:
; CHECK-NEXT:   %smc.blockIdx.x = phi i32 [ %smc.chunk.id, %{{.*}} ], [ %smc.x, %smc.coords.divide ]
; CHECK-NEXT:   %smc.blockIdx.y = phi i32 [ 0, %{{.*}} ], [ %smc.y, %smc.coords.divide ]
; CHECK-NEXT:   %smc.blockIdx.z = phi i32 [ 0, %{{.*}} ], [ %smc.z, %smc.coords.divide ]
; linear = (z * gridDim.y + y) * gridDim.x + x, total = gridDim.x*y*z
; CHECK:       %zy = mul i32 %smc.blockIdx.z, %smc.gridDim.y
; CHECK-NEXT:  %zyy = add i32 %zy, %smc.blockIdx.y
; CHECK-NEXT:  %zyyx = mul i32 %zyy, %smc.gridDim.x
; CHECK-NEXT:  %lin = add i32 %zyyx, %smc.blockIdx.x
; CHECK-NEXT:  %gxy = mul i32 %smc.gridDim.x, %smc.gridDim.y
; CHECK-NEXT:  %total = mul i32 %gxy, %smc.gridDim.z
; CHECK-LABEL: smc.exit:

; The slice variant decomposes chunk = slice_offset + ctaid.x the same way
; past the first row; in it, blockIdx.y/z are ctaid.y/z plus
; slice_first_y/z (fields 19 and 20): whole rows have slice_offset 0, 1-D
; slices slice_first_y/z 0.
; CHECK-LABEL: define ptx_kernel void @k3d__slice(ptr %out, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc)
; CHECK:       %smc.chunk.id = add i32 %smc.slice.offset, %smc.slice.cta
; CHECK:       %smc.slice.first.y.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 19
; CHECK:       %smc.slice.first.z.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 20
; CHECK:        %smc.first.row = icmp ult i32 %smc.chunk.id, %smc.gridDim.x
; CHECK:      smc.coords.divide:
; CHECK-NEXT:   %smc.div.x.add.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 11
; CHECK-NEXT:   %smc.div.x.add = load i32, ptr %smc.div.x.add.addr
; CHECK-NEXT:   %smc.div.x.mul.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 10
; CHECK-NEXT:   %smc.div.x.mul = load i32, ptr %smc.div.x.mul.addr
; CHECK-NEXT:   %smc.div.x.shift.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 12
; CHECK-NEXT:   %smc.div.x.shift = load i32, ptr %smc.div.x.shift.addr
; CHECK-NEXT:   %smc.plane.n = add nuw i32 %smc.chunk.id, %smc.div.x.add
; CHECK-NEXT:   %smc.plane.hi = call i32 @llvm.nvvm.mulhi.ui(i32 %smc.plane.n, i32 %smc.div.x.mul)
; CHECK-NEXT:   %smc.plane = lshr i32 %smc.plane.hi, %smc.div.x.shift
; CHECK-NEXT:   %smc.plane.start = mul nuw i32 %smc.plane, %smc.gridDim.x
; CHECK-NEXT:   %smc.x = sub nuw i32 %smc.chunk.id, %smc.plane.start
; CHECK-NEXT:   %smc.div.y.add.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 14
; CHECK-NEXT:   %smc.div.y.add = load i32, ptr %smc.div.y.add.addr
; CHECK-NEXT:   %smc.div.y.mul.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 13
; CHECK-NEXT:   %smc.div.y.mul = load i32, ptr %smc.div.y.mul.addr
; CHECK-NEXT:   %smc.div.y.shift.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 15
; CHECK-NEXT:   %smc.div.y.shift = load i32, ptr %smc.div.y.shift.addr
; CHECK-NEXT:   %smc.z.n = add nuw i32 %smc.plane, %smc.div.y.add
; CHECK-NEXT:   %smc.z.hi = call i32 @llvm.nvvm.mulhi.ui(i32 %smc.z.n, i32 %smc.div.y.mul)
; CHECK-NEXT:   %smc.z = lshr i32 %smc.z.hi, %smc.div.y.shift
; CHECK-NEXT:   %smc.z.start = mul nuw i32 %smc.z, %smc.gridDim.y
; CHECK-NEXT:   %smc.y = sub nuw i32 %smc.plane, %smc.z.start
; CHECK-NEXT:   br label %smc.coords
; CHECK:      smc.coords:
; CHECK-NEXT:   %smc.blockIdx.x = phi i32 [ %smc.chunk.id, %{{.*}} ], [ %smc.x, %smc.coords.divide ]
; CHECK-NEXT:   %smc.blockIdx.y = phi i32 [ %smc.rows.by, %{{.*}} ], [ %smc.y, %smc.coords.divide ]
; CHECK-NEXT:   %smc.blockIdx.z = phi i32 [ %smc.rows.bz, %{{.*}} ], [ %smc.z, %smc.coords.divide ]
; CHECK:       %zy = mul i32 %smc.blockIdx.z, %smc.gridDim.y
; CHECK:       %total = mul i32 %gxy, %smc.gridDim.z

define ptx_kernel void @k1d(ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = add i32 %bx, 7
  store i32 %i, ptr %out
  ret void
}

define ptx_kernel void @k3d(ptr %out) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %gy = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  %gz = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
  %zy = mul i32 %bz, %gy
  %zyy = add i32 %zy, %by
  %zyyx = mul i32 %zyy, %gx
  %lin = add i32 %zyyx, %bx
  %gxy = mul i32 %gx, %gy
  %total = mul i32 %gxy, %gz
  %p = getelementptr inbounds i32, ptr %out, i32 %lin
  store i32 %total, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
