//===- GraphEntries.cpp - The graph calls the host rewrite sends here -----===//
//
// cudaGraphInstantiate* and cudaGraphExecUpdate first give SM-centric nodes
// counter blocks of their own (core/GraphExec.h), then, where graph layouts
// are on, read the graph into the executable graph's Replays (a new one
// after an update: the search starts over).  cudaGraphLaunch runs what the
// executable graph's Replays chooses, cudaGraphExecDestroy drops it, and a
// cudaGraphExec*SetParams (or cudaGraphNodeSetEnabled) call stops it: the
// program's executable graph runs as changed from then on.  Graphs the
// runtime does not lay out keep their reason for graphLayoutReport, and
// the user is told each reason once.  Owns the executable graphs' Replays
// (the Graphs lock).
//===----------------------------------------------------------------------===//
#include "base/Locks.h"
#include "base/Messages.h"
#include "core/Devices.h"
#include "core/GraphExec.h"
#include "core/HostEntries.h"
#include "graphs/Replays.h"
#include "observe/Stats.h"
#include "policy/Config.h"

#include <atomic>
#include <map>

namespace smc {
namespace graphs {
namespace {

struct Registry {
  OrderedMutex Mutex{LockLevel::Graphs};
  std::map<cudaGraphExec_t, std::unique_ptr<Replays>> LaidOut;
  // The other executable graphs instantiated through the runtime: why not.
  std::map<cudaGraphExec_t, std::string> NotLaidOut;
  std::map<cudaGraphExec_t, unsigned long long> Flags;
};

Registry &registry() {
  static auto *R = new Registry; // graphs may outlive static destructors
  return *R;
}

// Whether any executable graph is laid out: replays of others skip the lock.
std::atomic<bool> AnyLaidOut{false};
// setGraphLayouts(); -1: SMC_GRAPH_LAYOUTS.
std::atomic<int> ModeOverride{-1};

GraphLayouts mode() {
  int Mode = ModeOverride.load(std::memory_order_relaxed);
  return Mode < 0 ? config().GraphLayoutMode : GraphLayouts(Mode);
}

// After the program's executable graph Exec was made (or updated) from
// Graph with Flags.
void adopt(cudaGraphExec_t Exec, cudaGraph_t Graph, unsigned long long Flags) {
  if (!Exec)
    return;
  GraphLayouts Mode = mode();
  std::string Why;
  std::unique_ptr<GraphModel> Model;
  if (config().Disabled || forwardAll())
    Why = "SMC is off (SMC_DISABLE)";
  else if (Mode == GraphLayouts::Off)
    Why = "graph layouts are off (SMC_GRAPH_LAYOUTS, smc::setGraphLayouts)";
  else if (Flags & cudaGraphInstantiateFlagDeviceLaunch)
    Why = "instantiated for device launch";
  else
    Model = GraphModel::read(Graph, Why);
  Registry &R = registry();
  Guard Lock(R.Mutex);
  if (auto Old = R.LaidOut.find(Exec); Old != R.LaidOut.end()) {
    // The next replay is not ordered after the old Replays' last one.
    Old->second->waitForLast();
    R.LaidOut.erase(Old);
  }
  R.NotLaidOut.erase(Exec);
  R.Flags[Exec] = Flags;
  if (!Model) {
    if (Mode != GraphLayouts::Off) {
      tell("graph layouts: a graph runs as instantiated: " + Why);
      stats::GraphRecord Record;
      Record.Reason = Why;
      Record.Layout = "original";
      stats::recordGraph(Record);
    }
    R.NotLaidOut[Exec] = Why;
    return;
  }
  R.LaidOut[Exec] = std::make_unique<Replays>(
      Exec, std::move(Model), Mode, Flags & ~cudaGraphInstantiateFlagUpload);
  AnyLaidOut.store(true, std::memory_order_relaxed);
}

// Instantiates through Call, then adopts the executable graph.
template <typename CudaCall, typename... Args>
cudaError_t instantiate(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                        unsigned long long Flags, CudaCall Call, Args... A) {
  cudaError_t Err = giveOwnCounters(Graph);
  if (Err == cudaSuccess)
    Err = Call(Exec, Graph, A...);
  if (Err == cudaSuccess)
    adopt(*Exec, Graph, Flags);
  return Err;
}

cudaError_t replay(cudaGraphExec_t Exec, cudaStream_t Stream, bool Ptsz) {
  auto Forward = [&] {
    return Ptsz ? cudaGraphLaunch_ptsz(Exec, Stream)
                : cudaGraphLaunch(Exec, Stream);
  };
  if (!AnyLaidOut.load(std::memory_order_relaxed))
    return Forward();
  if (Ptsz && !Stream)
    Stream = cudaStreamPerThread;
  Registry &R = registry();
  std::unique_lock<OrderedMutex> Lock(R.Mutex);
  auto It = R.LaidOut.find(Exec);
  if (It == R.LaidOut.end()) {
    Lock.unlock();
    return Forward();
  }
  // Launched into a capture, the program's graph becomes a child node of
  // the captured one as it is.
  cudaStreamCaptureStatus Status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(Stream, &Status) != cudaSuccess ||
      Status != cudaStreamCaptureStatusNone) {
    Lock.unlock();
    return Forward();
  }
  return It->second->launch(Stream);
}

// After the program changed a node of Exec through Call.
template <typename CudaCall, typename... Args>
cudaError_t changeNode(const char *What, CudaCall Call, cudaGraphExec_t Exec,
                       Args... A) {
  cudaError_t Err = Call(Exec, A...);
  if (Err != cudaSuccess || !AnyLaidOut.load(std::memory_order_relaxed))
    return Err;
  Registry &R = registry();
  Guard Lock(R.Mutex);
  if (auto It = R.LaidOut.find(Exec); It != R.LaidOut.end())
    It->second->stop(std::string("the program changed a node with ") + What);
  return Err;
}

} // namespace
} // namespace graphs

void setGraphLayouts(GraphLayouts Mode) {
  graphs::ModeOverride.store(int(Mode), std::memory_order_relaxed);
}

bool graphLayoutReport(cudaGraphExec_t Exec, GraphLayoutReport &Report) {
  graphs::Registry &R = graphs::registry();
  Guard Lock(R.Mutex);
  Report = GraphLayoutReport();
  if (auto It = R.LaidOut.find(Exec); It != R.LaidOut.end()) {
    It->second->report(Report);
    return true;
  }
  if (auto It = R.NotLaidOut.find(Exec); It != R.NotLaidOut.end()) {
    Report.reason = It->second;
    Report.layout = "original";
    return true;
  }
  return false;
}

} // namespace smc

using smc::graphs::changeNode;
using smc::graphs::instantiate;

extern "C" cudaError_t __smc_graph_instantiate(cudaGraphExec_t *Exec,
                                               cudaGraph_t Graph,
                                               unsigned long long Flags) {
  return instantiate(Exec, Graph, Flags, cudaGraphInstantiate, Flags);
}

extern "C" cudaError_t
__smc_graph_instantiate_with_flags(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                                   unsigned long long Flags) {
  return instantiate(Exec, Graph, Flags, cudaGraphInstantiateWithFlags, Flags);
}

extern "C" cudaError_t
__smc_graph_instantiate_with_params(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                                    cudaGraphInstantiateParams *Params) {
  return instantiate(Exec, Graph, Params ? Params->flags : 0,
                     cudaGraphInstantiateWithParams, Params);
}

extern "C" cudaError_t
__smc_graph_instantiate_with_params_ptsz(cudaGraphExec_t *Exec,
                                         cudaGraph_t Graph,
                                         cudaGraphInstantiateParams *Params) {
  return instantiate(Exec, Graph, Params ? Params->flags : 0,
                     cudaGraphInstantiateWithParams_ptsz, Params);
}

extern "C" cudaError_t
__smc_graph_exec_update(cudaGraphExec_t Exec, cudaGraph_t Graph,
                        cudaGraphExecUpdateResultInfo *ResultInfo) {
  cudaError_t Err = smc::giveOwnCounters(Graph);
  if (Err == cudaSuccess)
    Err = cudaGraphExecUpdate(Exec, Graph, ResultInfo);
  if (Err != cudaSuccess)
    return Err;
  unsigned long long Flags = 0;
  {
    smc::graphs::Registry &R = smc::graphs::registry();
    smc::Guard Lock(R.Mutex);
    Flags = R.Flags.count(Exec) ? R.Flags[Exec] : 0;
  }
  smc::graphs::adopt(Exec, Graph, Flags);
  return Err;
}

extern "C" cudaError_t __smc_graph_launch(cudaGraphExec_t Exec,
                                          cudaStream_t Stream) {
  return smc::graphs::replay(Exec, Stream, false);
}

extern "C" cudaError_t __smc_graph_launch_ptsz(cudaGraphExec_t Exec,
                                               cudaStream_t Stream) {
  return smc::graphs::replay(Exec, Stream, true);
}

extern "C" cudaError_t __smc_graph_exec_destroy(cudaGraphExec_t Exec) {
  std::unique_ptr<smc::graphs::Replays> Dropped;
  {
    smc::graphs::Registry &R = smc::graphs::registry();
    smc::Guard Lock(R.Mutex);
    if (auto It = R.LaidOut.find(Exec); It != R.LaidOut.end()) {
      Dropped = std::move(It->second);
      R.LaidOut.erase(It);
    }
    R.NotLaidOut.erase(Exec);
    R.Flags.erase(Exec);
  }
  Dropped.reset(); // the runtime's executable graphs, freed when they end
  return cudaGraphExecDestroy(Exec);
}

// The calls that change an executable graph's nodes.
#define SMC_CHANGE_NODE(Entry, Cuda, Value)                                    \
  extern "C" cudaError_t Entry(cudaGraphExec_t Exec, cudaGraphNode_t Node,     \
                               Value V) {                                      \
    return changeNode(#Cuda, Cuda, Exec, Node, V);                             \
  }
SMC_CHANGE_NODE(__smc_graph_exec_kernel_node_set_params,
                cudaGraphExecKernelNodeSetParams, const cudaKernelNodeParams *)
SMC_CHANGE_NODE(__smc_graph_exec_memcpy_node_set_params,
                cudaGraphExecMemcpyNodeSetParams, const cudaMemcpy3DParms *)
SMC_CHANGE_NODE(__smc_graph_exec_memset_node_set_params,
                cudaGraphExecMemsetNodeSetParams, const cudaMemsetParams *)
SMC_CHANGE_NODE(__smc_graph_exec_host_node_set_params,
                cudaGraphExecHostNodeSetParams, const cudaHostNodeParams *)
SMC_CHANGE_NODE(__smc_graph_exec_child_graph_node_set_params,
                cudaGraphExecChildGraphNodeSetParams, cudaGraph_t)
SMC_CHANGE_NODE(__smc_graph_exec_event_record_node_set_event,
                cudaGraphExecEventRecordNodeSetEvent, cudaEvent_t)
SMC_CHANGE_NODE(__smc_graph_exec_event_wait_node_set_event,
                cudaGraphExecEventWaitNodeSetEvent, cudaEvent_t)
SMC_CHANGE_NODE(__smc_graph_exec_node_set_params, cudaGraphExecNodeSetParams,
                cudaGraphNodeParams *)
SMC_CHANGE_NODE(__smc_graph_node_set_enabled, cudaGraphNodeSetEnabled,
                unsigned int)
SMC_CHANGE_NODE(__smc_graph_exec_ext_semaphores_signal_node_set_params,
                cudaGraphExecExternalSemaphoresSignalNodeSetParams,
                const cudaExternalSemaphoreSignalNodeParams *)
SMC_CHANGE_NODE(__smc_graph_exec_ext_semaphores_wait_node_set_params,
                cudaGraphExecExternalSemaphoresWaitNodeSetParams,
                const cudaExternalSemaphoreWaitNodeParams *)
#undef SMC_CHANGE_NODE

extern "C" cudaError_t __smc_graph_exec_memcpy_node_set_params_1d(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, void *Dst, const void *Src,
    size_t Count, cudaMemcpyKind Kind) {
  return changeNode("cudaGraphExecMemcpyNodeSetParams1D",
                    cudaGraphExecMemcpyNodeSetParams1D, Exec, Node, Dst, Src,
                    Count, Kind);
}
