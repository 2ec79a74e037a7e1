; Invariant 4, one ABI: the descriptor and info record layouts the pass
; builds for nvptx64 (smc-print-abi, from the struct type the variants use)
; are exactly those the host runtime compiles from include/smc/abi.h
; (smc-abi-dump): every field's offset and size, both sizes, the version.
;
; RUN: %opt %load_smc -passes=smc-print-abi -disable-output %s > %t.pass
; RUN: %abi_dump > %t.host
; RUN: diff %t.pass %t.host
; RUN: FileCheck %s -DABI=%smc_abi_version < %t.pass

; A few anchors, so that an empty or truncated output cannot pass.
; CHECK:      desc grid_x 0 4
; CHECK:      desc grid_z 8 4
; CHECK:      desc slice_offset {{[0-9]+}} 4
; CHECK:      desc div_x_mul 40 4
; CHECK-NEXT: desc div_x_add 44 4
; CHECK-NEXT: desc div_x_shift 48 4
; CHECK-NEXT: desc div_y_mul 52 4
; CHECK-NEXT: desc div_y_add 56 4
; CHECK-NEXT: desc div_y_shift 60 4
; CHECK-NEXT: desc claim_batch 64 4
; CHECK-NEXT: desc launch_tag 68 4
; CHECK-NEXT: desc top_up 72 4
; CHECK-NEXT: desc slice_first_y 76 4
; CHECK-NEXT: desc slice_first_z 80 4
; CHECK-NEXT: desc trace_launch 84 4
; CHECK-NEXT: desc remap_count 88 4
; CHECK-NEXT: desc queue_start 96 8
; CHECK:      desc stats 152 8
; CHECK-NEXT: desc trace 160 8
; CHECK-NEXT: desc remap_table 168 8
; CHECK-NEXT: desc remap_keys 176 8
; CHECK-NEXT: desc-size 184
; CHECK:      info abi_version 0 4
; CHECK:      info slice_refusal 16 4
; CHECK-NEXT: info locality 20 4
; CHECK-NEXT: info remap_refusal 24 4
; CHECK-NEXT: info remap_key 28 4
; CHECK-NEXT: info-size 32
; CHECK-NEXT: abi-version [[ABI]]

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
