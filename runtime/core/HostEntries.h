//===- HostEntries.h - Entries the host rewrite calls -----------*- C++ -*-===//
//
// The SMC runtime's extern "C" functions named in SMC_HOST_ENTRIES
// (smc/abi.h), each with the signature of the CUDA runtime function the
// plugin's host launch rewrite replaces with it; the static_asserts below
// fail the build if a name or a signature drifts.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORE_HOSTENTRIES_H
#define SMC_RUNTIME_CORE_HOSTENTRIES_H

#include "smc/abi.h"

#include <cuda_runtime_api.h>

#include <type_traits>

#define SMC_EXPORT __attribute__((visibility("default")))

extern "C" {
// Exported by cudart; cuda_runtime_api.h declares them only for translation
// units built with per-thread default streams.
cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void *Func, dim3 GridDim,
                                            dim3 BlockDim, void **Args,
                                            size_t SharedMem,
                                            cudaStream_t Stream);
cudaError_t CUDARTAPI cudaMemsetAsync_ptsz(void *DevPtr, int Value,
                                           size_t Count, cudaStream_t Stream);
cudaError_t CUDARTAPI cudaMemcpyAsync_ptsz(void *Dst, const void *Src,
                                           size_t Count, cudaMemcpyKind Kind,
                                           cudaStream_t Stream);
cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(
    cudaGraphExec_t *PGraphExec, cudaGraph_t Graph,
    cudaGraphInstantiateParams *InstantiateParams);
cudaError_t CUDARTAPI cudaGraphLaunch_ptsz(cudaGraphExec_t GraphExec,
                                           cudaStream_t Stream);

// dispatch/Dispatcher.cpp
SMC_EXPORT cudaError_t __smc_launch_kernel(const void *Func, dim3 Grid,
                                           dim3 Block, void **Args,
                                           size_t SharedMem,
                                           cudaStream_t Stream);
SMC_EXPORT cudaError_t __smc_launch_kernel_ptsz(const void *Func, dim3 Grid,
                                                dim3 Block, void **Args,
                                                size_t SharedMem,
                                                cudaStream_t Stream);
SMC_EXPORT cudaError_t __smc_device_reset();

// graphs/GraphEntries.cpp
SMC_EXPORT cudaError_t __smc_graph_instantiate(cudaGraphExec_t *Exec,
                                               cudaGraph_t Graph,
                                               unsigned long long Flags);
SMC_EXPORT cudaError_t __smc_graph_instantiate_with_flags(
    cudaGraphExec_t *Exec, cudaGraph_t Graph, unsigned long long Flags);
SMC_EXPORT cudaError_t
__smc_graph_instantiate_with_params(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                                    cudaGraphInstantiateParams *Params);
SMC_EXPORT cudaError_t __smc_graph_instantiate_with_params_ptsz(
    cudaGraphExec_t *Exec, cudaGraph_t Graph,
    cudaGraphInstantiateParams *Params);
SMC_EXPORT cudaError_t
__smc_graph_exec_update(cudaGraphExec_t Exec, cudaGraph_t Graph,
                        cudaGraphExecUpdateResultInfo *ResultInfo);
SMC_EXPORT cudaError_t __smc_graph_launch(cudaGraphExec_t Exec,
                                          cudaStream_t Stream);
SMC_EXPORT cudaError_t __smc_graph_launch_ptsz(cudaGraphExec_t Exec,
                                               cudaStream_t Stream);
SMC_EXPORT cudaError_t __smc_graph_exec_destroy(cudaGraphExec_t Exec);
SMC_EXPORT cudaError_t __smc_graph_exec_kernel_node_set_params(
    cudaGraphExec_t Exec, cudaGraphNode_t Node,
    const cudaKernelNodeParams *Params);
SMC_EXPORT cudaError_t __smc_graph_exec_memcpy_node_set_params(
    cudaGraphExec_t Exec, cudaGraphNode_t Node,
    const cudaMemcpy3DParms *Params);
SMC_EXPORT cudaError_t __smc_graph_exec_memcpy_node_set_params_1d(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, void *Dst, const void *Src,
    size_t Count, cudaMemcpyKind Kind);
SMC_EXPORT cudaError_t __smc_graph_exec_memset_node_set_params(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, const cudaMemsetParams *Params);
SMC_EXPORT cudaError_t __smc_graph_exec_host_node_set_params(
    cudaGraphExec_t Exec, cudaGraphNode_t Node,
    const cudaHostNodeParams *Params);
SMC_EXPORT cudaError_t __smc_graph_exec_child_graph_node_set_params(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, cudaGraph_t Child);
SMC_EXPORT cudaError_t __smc_graph_exec_event_record_node_set_event(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, cudaEvent_t Event);
SMC_EXPORT cudaError_t __smc_graph_exec_event_wait_node_set_event(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, cudaEvent_t Event);
SMC_EXPORT cudaError_t __smc_graph_exec_ext_semaphores_signal_node_set_params(
    cudaGraphExec_t Exec, cudaGraphNode_t Node,
    const cudaExternalSemaphoreSignalNodeParams *Params);
SMC_EXPORT cudaError_t __smc_graph_exec_ext_semaphores_wait_node_set_params(
    cudaGraphExec_t Exec, cudaGraphNode_t Node,
    const cudaExternalSemaphoreWaitNodeParams *Params);
SMC_EXPORT cudaError_t __smc_graph_exec_node_set_params(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, cudaGraphNodeParams *Params);
SMC_EXPORT cudaError_t __smc_graph_node_set_enabled(cudaGraphExec_t Exec,
                                                    cudaGraphNode_t Node,
                                                    unsigned int IsEnabled);

// batch/Recording.cpp: recorded into an smc::Batch while one records on the
// calling thread, else forwarded.
SMC_EXPORT cudaError_t __smc_memset_async(void *DevPtr, int Value, size_t Count,
                                          cudaStream_t Stream);
SMC_EXPORT cudaError_t __smc_memset_async_ptsz(void *DevPtr, int Value,
                                               size_t Count,
                                               cudaStream_t Stream);
SMC_EXPORT cudaError_t __smc_memcpy_async(void *Dst, const void *Src,
                                          size_t Count, cudaMemcpyKind Kind,
                                          cudaStream_t Stream);
SMC_EXPORT cudaError_t __smc_memcpy_async_ptsz(void *Dst, const void *Src,
                                               size_t Count,
                                               cudaMemcpyKind Kind,
                                               cudaStream_t Stream);

// priority/Priorities.cpp
SMC_EXPORT cudaError_t __smc_stream_create_with_priority(cudaStream_t *Stream,
                                                         unsigned int Flags,
                                                         int Priority);
}

#define SMC_CHECK_HOST_ENTRY(Cuda, Entry)                                      \
  static_assert(std::is_same_v<decltype(&Cuda), decltype(&Entry)>,             \
                #Entry " must have the signature of " #Cuda);
SMC_HOST_ENTRIES(SMC_CHECK_HOST_ENTRY)
#undef SMC_CHECK_HOST_ENTRY

#endif // SMC_RUNTIME_CORE_HOSTENTRIES_H
