; Graph instantiation and update go through the SMC runtime, which gives each
; executable graph's SM-centric kernel nodes counter blocks of their own and
; reads the graph for graph layouts: cudaGraphInstantiate,
; cudaGraphInstantiateWithFlags, cudaGraphInstantiateWithParams (and its
; _ptsz form, used with per-thread default streams) and cudaGraphExecUpdate
; become the __smc_graph_* entries with the same arguments, each with a
; remark.  So do cudaGraphLaunch (and its _ptsz form), which a layout may
; replace, cudaGraphExecDestroy, and the calls that change an executable
; graph's nodes, which stop its layouts.  cudaGraphUpload is left alone.
;
; RUN: %opt %load_smc -passes=smc-launch-rewrite -pass-remarks=smc -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
; RUN: FileCheck %s < %t.ll

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @_Z5graphP14CUgraphExec_stP10CUgraph_st(ptr %exec, ptr %graph)
; CHECK-NEXT:    %a = call i32 @__smc_graph_instantiate(ptr %exec, ptr %graph, i64 0)
; CHECK-NEXT:    %b = call i32 @__smc_graph_instantiate_with_flags(ptr %exec, ptr %graph, i64 1)
; CHECK-NEXT:    %c = call i32 @__smc_graph_instantiate_with_params(ptr %exec, ptr %graph, ptr null)
; CHECK-NEXT:    %d = call i32 @__smc_graph_instantiate_with_params_ptsz(ptr %exec, ptr %graph, ptr null)
; CHECK-NEXT:    %e = load ptr, ptr %exec
; CHECK-NEXT:    %f = call i32 @__smc_graph_exec_update(ptr %e, ptr %graph, ptr null)
; CHECK-NEXT:    %g = call i32 @__smc_graph_launch(ptr %e, ptr null)
; CHECK-NEXT:    %h = call i32 @__smc_graph_launch_ptsz(ptr %e, ptr null)
; CHECK-NEXT:    %i = call i32 @__smc_graph_exec_kernel_node_set_params(ptr %e, ptr null, ptr null)
; CHECK-NEXT:    %j = call i32 @__smc_graph_node_set_enabled(ptr %e, ptr null, i32 0)
; CHECK-NEXT:    %k = call i32 @__smc_graph_exec_node_set_params(ptr %e, ptr null, ptr null)
; CHECK-NEXT:    %l = call i32 @cudaGraphUpload(ptr %e, ptr null)
; CHECK-NEXT:    %m = call i32 @__smc_graph_exec_destroy(ptr %e)
; CHECK-NEXT:    ret void

; REMARK-DAG: remark: <unknown>:0:0: cudaGraphInstantiate in graph goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaGraphInstantiateWithFlags in graph goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaGraphInstantiateWithParams in graph goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaGraphInstantiateWithParams_ptsz in graph goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaGraphExecUpdate in graph goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaGraphLaunch in graph goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaGraphLaunch_ptsz in graph goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaGraphExecKernelNodeSetParams in graph goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaGraphNodeSetEnabled in graph goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaGraphExecNodeSetParams in graph goes through the SMC runtime
; REMARK-DAG: remark: <unknown>:0:0: cudaGraphExecDestroy in graph goes through the SMC runtime

define void @_Z5graphP14CUgraphExec_stP10CUgraph_st(ptr %exec, ptr %graph) {
  %a = call i32 @cudaGraphInstantiate(ptr %exec, ptr %graph, i64 0)
  %b = call i32 @cudaGraphInstantiateWithFlags(ptr %exec, ptr %graph, i64 1)
  %c = call i32 @cudaGraphInstantiateWithParams(ptr %exec, ptr %graph, ptr null)
  %d = call i32 @cudaGraphInstantiateWithParams_ptsz(ptr %exec, ptr %graph, ptr null)
  %e = load ptr, ptr %exec
  %f = call i32 @cudaGraphExecUpdate(ptr %e, ptr %graph, ptr null)
  %g = call i32 @cudaGraphLaunch(ptr %e, ptr null)
  %h = call i32 @cudaGraphLaunch_ptsz(ptr %e, ptr null)
  %i = call i32 @cudaGraphExecKernelNodeSetParams(ptr %e, ptr null, ptr null)
  %j = call i32 @cudaGraphNodeSetEnabled(ptr %e, ptr null, i32 0)
  %k = call i32 @cudaGraphExecNodeSetParams(ptr %e, ptr null, ptr null)
  %l = call i32 @cudaGraphUpload(ptr %e, ptr null)
  %m = call i32 @cudaGraphExecDestroy(ptr %e)
  ret void
}

declare i32 @cudaGraphInstantiate(ptr, ptr, i64)
declare i32 @cudaGraphInstantiateWithFlags(ptr, ptr, i64)
declare i32 @cudaGraphInstantiateWithParams(ptr, ptr, ptr)
declare i32 @cudaGraphInstantiateWithParams_ptsz(ptr, ptr, ptr)
declare i32 @cudaGraphExecUpdate(ptr, ptr, ptr)
declare i32 @cudaGraphLaunch(ptr, ptr)
declare i32 @cudaGraphLaunch_ptsz(ptr, ptr)
declare i32 @cudaGraphExecKernelNodeSetParams(ptr, ptr, ptr)
declare i32 @cudaGraphNodeSetEnabled(ptr, ptr, i32)
declare i32 @cudaGraphExecNodeSetParams(ptr, ptr, ptr)
declare i32 @cudaGraphUpload(ptr, ptr)
declare i32 @cudaGraphExecDestroy(ptr)
