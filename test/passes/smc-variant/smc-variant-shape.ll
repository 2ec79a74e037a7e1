; Shape of the SM-centric variant: K stays as it was; K__smc is added with the
; trailing `ptr byval(%SmcDescriptor) align 8` parameter and K's attributes;
; it loops over chunks (smc.entry -> smc.dispatch -> smc.chunk -> body ->
; smc.next -> smc.dispatch, smc.exit); every blockIdx/gridDim read of the
; body is replaced (blockIdx from the chunk id, divided by the grid with
; mul.hi and the descriptor's constants, no udiv/urem; gridDim from the
; descriptor)
; and every `ret` of the body ends the chunk; K's static allocas move to the
; new entry block; K__smc_info records the variant.
;
; RUN: %opt %load_smc -passes=smc-variant -S %s -o %t.ll
; RUN: FileCheck %s -DABI=%smc_abi_version --implicit-check-not=udiv --implicit-check-not=urem < %t.ll
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=BODY < %t.ll
; RUN: %opt %load_smc -passes=smc-variant -pass-remarks=smc -disable-output %s 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The info record: abi_version, flags HAS_SMC, 2 params, smc built (0),
; slice not requested (1), locality unknown (6: smc-variant alone does not
; run the locality analysis), remap not requested (1) so no remap key (0);
; kept by llvm.compiler.used.
; CHECK: @K__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 1, i32 2, i32 0, i32 1, i32 6, i32 1, i32 0], align 4
; CHECK: @llvm.compiler.used = appending global {{.*}}@K__smc_info

; K itself is unchanged: it still reads the hardware registers and returns.
; CHECK: define ptx_kernel void @K(ptr %out, i32 %n) [[ATTRS:#[0-9]+]] {
; CHECK-NEXT: {{^}}entry:
; CHECK-NEXT:   %tmp = alloca i32, align 4
; CHECK-NEXT:   %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT:   %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
; CHECK-NEXT:   %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK:      early:
; CHECK-NEXT:   ret void
; CHECK:      work:
; CHECK:        ret void
; CHECK-NEXT: }

; CHECK: define ptx_kernel void @K__smc(ptr %out, i32 %n, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) [[ATTRS]] {
; CHECK-NEXT: smc.entry:
; CHECK-DAG:    %smc.gridDim.x.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 0
; CHECK-DAG:    %smc.gridDim.x = load i32, ptr %smc.gridDim.x.addr
; CHECK-DAG:    %smc.gridDim.y.addr = getelementptr inbounds nuw %SmcDescriptor, ptr %smc.desc, i32 0, i32 1
; CHECK-DAG:    %smc.gridDim.y = load i32, ptr %smc.gridDim.y.addr
; CHECK-DAG:    %tmp = alloca i32, align 4
; CHECK-DAG:    %smc.state = alloca [{{[0-9]+}} x i32]
; CHECK:      smc.dispatch:
; CHECK-NEXT:   %smc.chunk.id = phi i32 [ %{{.*}}, %__smc_dev_first_chunk.exit ], [ %{{.*}}, %__smc_dev_next_chunk.exit ]
; CHECK-NEXT:   %smc.done = icmp eq i32 %smc.chunk.id, -1
; CHECK-NEXT:   br i1 %smc.done, label %smc.exit, label %smc.chunk
; CHECK:      smc.chunk:
; CHECK:        %smc.first.row = icmp ult i32 %smc.chunk.id, %smc.gridDim.x
; CHECK:      smc.coords.divide:
; CHECK:        %smc.plane.hi = call i32 @llvm.nvvm.mulhi.ui(i32 %smc.plane.n, i32 %smc.div.x.mul)
; CHECK:        %smc.x = sub nuw i32 %smc.chunk.id, %smc.plane.start
; CHECK:        %smc.z.hi = call i32 @llvm.nvvm.mulhi.ui(i32 %smc.z.n, i32 %smc.div.y.mul)
; CHECK:        %smc.y = sub nuw i32 %smc.plane, %smc.z.start
; CHECK-NEXT:   br label %smc.coords
; CHECK:      smc.coords:
; CHECK-NEXT:   %smc.blockIdx.x = phi i32 [ %smc.chunk.id, %{{.*}} ], [ %smc.x, %smc.coords.divide ]
; CHECK-NEXT:   %smc.blockIdx.y = phi i32 [ 0, %{{.*}} ], [ %smc.y, %smc.coords.divide ]
; CHECK-NEXT:   %smc.blockIdx.z = phi i32 [ 0, %{{.*}} ], [ %smc.z, %smc.coords.divide ]
; The body: blockIdx.y * gridDim.x + blockIdx.x of the chunk.
; CHECK:      {{^}}entry:
; CHECK:        %row = mul i32 %smc.blockIdx.y, %smc.gridDim.x
; CHECK-NEXT:   %blk = add i32 %row, %smc.blockIdx.x
; CHECK:      early:
; CHECK-NEXT:   br label %smc.next
; CHECK:      work:
; CHECK:        store i32 %tx, ptr %p
; CHECK-NEXT:   br label %smc.next
; CHECK:      smc.next:
; CHECK:      smc.exit:
; CHECK-NEXT:   ret void
; CHECK-NEXT: }

; The kernel attributes are K's, shared by the variant.
; CHECK: attributes [[ATTRS]] = { "nvvm.maxntid"="128" "target-cpu"="sm_90" }

; Inside K__smc nothing reads %ctaid (the worker protocol does not either),
; and between the chunk's start and its end nothing reads %nctaid: the only
; %nctaid.x reads left are the worker protocol's (its own worker count), in
; the chunk-claiming code before smc.dispatch and after smc.next.
; BODY-LABEL: define ptx_kernel void @K__smc(
; BODY-NOT:     sreg.ctaid
; BODY:       smc.dispatch:
; BODY-NOT:     sreg.ctaid
; BODY-NOT:     sreg.nctaid
; BODY:       smc.next:
; BODY-NOT:     sreg.ctaid
; BODY-NOT:     sreg.nctaid.y
; BODY-NOT:     sreg.nctaid.z
; BODY:       smc.exit:
; BODY-NEXT:    ret void
; BODY-NEXT:  }

; REMARK: remark: <unknown>:0:0: kernel 'K': built K__smc (persistent workers; 3 blockIdx/gridDim reads replaced)

define ptx_kernel void @K(ptr %out, i32 %n) #0 {
entry:
  %tmp = alloca i32, align 4
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store volatile i32 %tx, ptr %tmp
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

attributes #0 = { "nvvm.maxntid"="128" "target-cpu"="sm_90" }
