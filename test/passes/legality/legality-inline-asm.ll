; Inline assembly that reads %ctaid, %nctaid, %smid or %nsmid is refused:
; the pass cannot replace those reads.  The remark names kernel, reason and
; the assembly; no variant is built; the info record carries
; SMC_REFUSAL_INLINE_ASM (5).  Inline assembly that reads none of them
; (%laneid) is fine.
;
; RUN: %opt %load_smc -passes='print<smc-legality>' -disable-output %s | FileCheck %s -DABI=%smc_abi_version --check-prefix=LEGAL
; RUN: %opt %load_smc -passes=smc -smc-transforms=smc,slice -pass-remarks=smc -pass-remarks-missed=smc -S %s -o %t.ll 2>&1 | FileCheck %s -DABI=%smc_abi_version --check-prefix=REMARK
; RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LEGAL: kernel asmCtaid: refused: inline assembly reads %ctaid, %nctaid or %smid (inline assembly 'mov.u32 $0, %ctaid.x;')
; LEGAL-NEXT: kernel asmNctaid: refused: inline assembly reads %ctaid, %nctaid or %smid (inline assembly 'mov.u32 $0, %nctaid.y;')
; LEGAL-NEXT: kernel asmSmid: refused: inline assembly reads %ctaid, %nctaid or %smid (inline assembly 'mov.u32 $0, %smid;')
; LEGAL-NEXT: kernel asmLaneid: legal, loop

; REMARK-DAG: remark: <unknown>:0:0: kernel 'asmCtaid': no __smc variant: inline assembly reads %ctaid, %nctaid or %smid (inline assembly 'mov.u32 $0, %ctaid.x;')
; REMARK-DAG: remark: <unknown>:0:0: kernel 'asmCtaid': no __slice variant: inline assembly reads %ctaid, %nctaid or %smid (inline assembly 'mov.u32 $0, %ctaid.x;')
; REMARK-DAG: remark: <unknown>:0:0: kernel 'asmNctaid': no __smc variant: inline assembly reads %ctaid, %nctaid or %smid (inline assembly 'mov.u32 $0, %nctaid.y;')
; REMARK-DAG: remark: <unknown>:0:0: kernel 'asmSmid': no __slice variant: inline assembly reads %ctaid, %nctaid or %smid (inline assembly 'mov.u32 $0, %smid;')
; REMARK-DAG: remark: <unknown>:0:0: kernel 'asmLaneid': built asmLaneid__smc
; REMARK-DAG: remark: <unknown>:0:0: kernel 'asmLaneid': built asmLaneid__slice

; IR-DAG: @asmCtaid__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 5, i32 5, i32 0, i32 1, i32 0]
; IR-DAG: @asmNctaid__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 5, i32 5, i32 0, i32 1, i32 0]
; IR-DAG: @asmSmid__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 0, i32 1, i32 5, i32 5, i32 0, i32 1, i32 0]
; IR-DAG: @asmLaneid__smc_info = addrspace(1) constant [8 x i32] [i32 [[ABI]], i32 3, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0]
; IR-NOT: define {{.*}}@asm{{Ctaid|Nctaid|Smid}}__{{smc|slice}}(
; IR: define ptx_kernel void @asmLaneid__smc(
; IR-NOT: define {{.*}}@asm{{Ctaid|Nctaid|Smid}}__{{smc|slice}}(
; IR: define ptx_kernel void @asmLaneid__slice(
; IR-NOT: define {{.*}}@asm{{Ctaid|Nctaid|Smid}}__{{smc|slice}}(

define ptx_kernel void @asmCtaid(ptr %out) {
  %r = call i32 asm "mov.u32 $0, %ctaid.x;", "=r"()
  store i32 %r, ptr %out
  ret void
}

define ptx_kernel void @asmNctaid(ptr %out) {
  %r = call i32 asm "mov.u32 $0, %nctaid.y;", "=r"()
  store i32 %r, ptr %out
  ret void
}

define ptx_kernel void @asmSmid(ptr %out) {
  %r = call i32 asm sideeffect "mov.u32 $0, %smid;", "=r"()
  store i32 %r, ptr %out
  ret void
}

define ptx_kernel void @asmLaneid(ptr %out) {
  %r = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  store i32 %r, ptr %out
  ret void
}
