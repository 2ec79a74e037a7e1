; An unoptimized (-O0) kernel: locals in allocas, the thread index computed by
; a noinline optnone helper (as clang -O0 emits
;   __device__ int globalIndex() { return blockIdx.x * blockDim.x + threadIdx.x; }
;   __global__ void countLoop(const int *count, const float *w, float *out, int n) {
;     int i = globalIndex();
;     if (i >= n) return;
;     float s = 0;
;     for (int k = 0; k < count[i]; ++k) s += w[k];
;     out[i] = s;
;   }
; ).  The pass builds the variant and the inspector from a simplified clone
; (helper inlined, locals promoted), so the key is found and the helper's
; thread-index reads are rewritten; the kernel and the helper are unchanged.
;
; RUN: %opt %load_smc -passes=smc-remap -S %s -o %t.ll
; RUN: FileCheck %s -DABI=%smc_abi_version < %t.ll
; RUN: %opt %load_smc -passes='print<smc-remap>' -disable-output %s | FileCheck %s --check-prefix=PRINT
; RUN: %opt %load_smc -passes=smc-remap -pass-remarks=smc -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; PRINT: kernel _Z9countLoopPKiPKfPfi: remap key loop trip count: load decides the branch{{$}}
; REMARK: remark: <unknown>:0:0: kernel 'countLoop': built _Z9countLoopPKiPKfPfi__remap (thread-data remapping by loop trip count: load decides the branch; inspector _Z9countLoopPKiPKfPfi__remap_keys)

; flags HAS_REMAP (32), 4 params, remap built (0) by a loop trip count (1).
; CHECK: @_Z9countLoopPKiPKfPfi__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 32, i32 4, i32 1, i32 1, i32 6, i32 0, i32 1], align 4

; The helper and the kernel are as they were.
; CHECK-LABEL: define dso_local noundef i32 @_Z11globalIndexv() #0 {
; CHECK-NEXT:    %1 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT:    %2 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-LABEL: define dso_local ptx_kernel void @_Z9countLoopPKiPKfPfi(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3) #1 {
; CHECK:         %5 = alloca ptr, align 8
; CHECK:         %12 = call noundef i32 @_Z11globalIndexv()

; The variant: no alloca, no call of the helper, no optnone; the only reads
; of the thread index are the prologue's.
; CHECK-LABEL: define dso_local ptx_kernel void @_Z9countLoopPKiPKfPfi__remap(
; CHECK-SAME:    ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3, ptr noundef readonly byval(%SmcDescriptor) align 8 %smc.desc) [[VATTRS:#[0-9]+]] {
; CHECK-NEXT:  remap.entry:
; CHECK-NEXT:    %remap.ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT:    %remap.cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT:    %remap.tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NOT:     alloca
; CHECK-NOT:     @llvm.nvvm.read.ptx.sreg
; CHECK-NOT:     @_Z11globalIndexv
; CHECK:         %remap.job.id = phi i32 [ %remap.mapped, %remap.lookup ], [ %remap.thread, %remap.entry ]
; CHECK-NOT:     alloca
; CHECK-NOT:     @llvm.nvvm.read.ptx.sreg
; CHECK-NOT:     @_Z11globalIndexv
; CHECK:         mul i32 %remap.blockIdx.x, %remap.ntid
; CHECK-NOT:     alloca
; CHECK-NOT:     @llvm.nvvm.read.ptx.sreg
; CHECK-NOT:     @_Z11globalIndexv
; CHECK:         ret void
; CHECK-NEXT:  }

; The inspector: the key is count[i], loaded in the loop's header; the
; bounds test's other way returns; nothing but the key is stored.
; CHECK-LABEL: define dso_local ptx_kernel void @_Z9countLoopPKiPKfPfi__remap_keys(
; CHECK-NOT:     alloca
; CHECK-NOT:     {{^ +store }}
; CHECK-NOT:     @_Z11globalIndexv
; CHECK:         br i1 %{{.+}}, label %[[KEYBLOCK:.+]], label %remap.nokey
; CHECK:       [[KEYBLOCK]]:
; CHECK:         %[[KEY:.+]] = load i32, ptr %{{.+}}, align 4
; CHECK-NOT:     {{^ +store }}
; CHECK:         %remap.key = xor i32 %[[KEY]], -2147483648
; CHECK-NOT:     {{^ +store }}
; CHECK-NOT:     fadd
; CHECK:       remap.nokey:
; CHECK-NEXT:    ret void
; CHECK:       remap.store:
; CHECK-NOT:     {{^ +store }}
; CHECK:         store i32 %remap.key, ptr %{{.+}}, align 4
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; CHECK: attributes #0 = { {{.*}}noinline {{.*}}optnone
; CHECK: attributes [[VATTRS]] = {
; CHECK-NOT: optnone
; CHECK-SAME: }

%struct.__cuda_builtin_blockIdx_t = type { i8 }
%struct.__cuda_builtin_blockDim_t = type { i8 }
%struct.__cuda_builtin_threadIdx_t = type { i8 }

@blockIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockIdx_t, align 1
@blockDim = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockDim_t, align 1
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1

define dso_local noundef i32 @_Z11globalIndexv() #0 {
  %1 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %2 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %3 = mul i32 %1, %2
  %4 = call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = add i32 %3, %4
  ret i32 %5
}

define dso_local ptx_kernel void @_Z9countLoopPKiPKfPfi(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3) #1 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca float, align 4
  %11 = alloca i32, align 4
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store ptr %2, ptr %7, align 8
  store i32 %3, ptr %8, align 4
  %12 = call noundef i32 @_Z11globalIndexv() #3
  store i32 %12, ptr %9, align 4
  %13 = load i32, ptr %9, align 4
  %14 = load i32, ptr %8, align 4
  %15 = icmp sge i32 %13, %14
  br i1 %15, label %16, label %17

16:                                               ; preds = %4
  br label %43

17:                                               ; preds = %4
  store float 0.000000e+00, ptr %10, align 4
  store i32 0, ptr %11, align 4
  br label %18

18:                                               ; preds = %34, %17
  %19 = load i32, ptr %11, align 4
  %20 = load ptr, ptr %5, align 8
  %21 = load i32, ptr %9, align 4
  %22 = sext i32 %21 to i64
  %23 = getelementptr inbounds i32, ptr %20, i64 %22
  %24 = load i32, ptr %23, align 4
  %25 = icmp slt i32 %19, %24
  br i1 %25, label %26, label %37

26:                                               ; preds = %18
  %27 = load ptr, ptr %6, align 8
  %28 = load i32, ptr %11, align 4
  %29 = sext i32 %28 to i64
  %30 = getelementptr inbounds float, ptr %27, i64 %29
  %31 = load float, ptr %30, align 4
  %32 = load float, ptr %10, align 4
  %33 = fadd contract float %32, %31
  store float %33, ptr %10, align 4
  br label %34

34:                                               ; preds = %26
  %35 = load i32, ptr %11, align 4
  %36 = add nsw i32 %35, 1
  store i32 %36, ptr %11, align 4
  br label %18

37:                                               ; preds = %18
  %38 = load float, ptr %10, align 4
  %39 = load ptr, ptr %7, align 8
  %40 = load i32, ptr %9, align 4
  %41 = sext i32 %40 to i64
  %42 = getelementptr inbounds float, ptr %39, i64 %41
  store float %38, ptr %42, align 4
  br label %43

43:                                               ; preds = %37, %16
  ret void
}

declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

attributes #0 = { convergent mustprogress noinline nounwind optnone "target-cpu"="sm_90" }
attributes #1 = { convergent mustprogress noinline norecurse nounwind optnone "target-cpu"="sm_90" "uniform-work-group-size"="true" }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nounwind }
