//===- GraphExec.cpp - Counter blocks of their own for executable graphs --===//
//
// A launch captured into a graph gets a fresh counter block (see
// DeviceResources.cpp), and the variant's last worker zeroes it again, so
// replays of one executable graph may share it: CUDA runs the launches of
// one executable graph one after another.  Two executable graphs
// instantiated from one graph would share it too, and they may run at the
// same time.
//
// So the host rewrite sends cudaGraphInstantiate* and cudaGraphExecUpdate
// here first.  Every __smc kernel node of the graph (in child graphs too)
// keeps its counter block if no executable graph uses that block yet;
// otherwise the node, in the caller's graph, is given a new block before
// CUDA copies the graph's parameters into the executable graph.  Only the
// descriptor's counter pointers change, which no one but the variant reads.
// A node for which no block can be had runs the original kernel, and the
// user is told.  Costs nothing on the GPU; instantiation walks the graph
// once.
//===----------------------------------------------------------------------===//
#include "HostEntries.h"
#include "RuntimeState.h"

#include <cstring>

namespace smc {
namespace {

// Makes `ordinal` the current device while the runtime allocates for it,
// then restores the caller's device.
class OnDevice {
public:
  explicit OnDevice(int ordinal) {
    if (cudaGetDevice(&Saved) != cudaSuccess) {
      cudaGetLastError();
      Saved = -1;
    }
    Switched = Saved != ordinal && cudaSetDevice(ordinal) == cudaSuccess;
  }
  ~OnDevice() {
    if (Switched)
      cudaSetDevice(Saved);
  }
  OnDevice(const OnDevice &) = delete;
  OnDevice &operator=(const OnDevice &) = delete;

private:
  int Saved = -1;
  bool Switched = false;
};

// Gives the __smc kernel nodes of one graph, and of the graphs nested in it,
// counter blocks no executable graph uses yet.  Globals::mutex held.
class CounterAssigner {
public:
  explicit CounterAssigner(const driver::Api &api) : api(api) {}

  cudaError_t walk(cudaGraph_t graph) {
    size_t count = 0;
    cudaError_t err = cudaGraphGetNodes(graph, nullptr, &count);
    std::vector<cudaGraphNode_t> nodes(count);
    if (err == cudaSuccess && count)
      err = cudaGraphGetNodes(graph, nodes.data(), &count);
    for (size_t i = 0; err == cudaSuccess && i < count; ++i) {
      cudaGraphNodeType type;
      err = cudaGraphNodeGetType(nodes[i], &type);
      if (err != cudaSuccess)
        break;
      if (type == cudaGraphNodeTypeKernel) {
        err = kernelNode(nodes[i]);
      } else if (type == cudaGraphNodeTypeGraph) {
        cudaGraph_t child = nullptr;
        err = cudaGraphChildGraphNodeGetGraph(nodes[i], &child);
        if (err == cudaSuccess)
          err = walk(child);
      } else if (type == cudaGraphNodeTypeConditional) {
        tell("a graph with conditional nodes: SM-centric kernels in their "
             "bodies keep the counter blocks of their capture, so two "
             "executable graphs of one such graph must not run at once");
      }
    }
    return err;
  }

private:
  cudaError_t kernelNode(cudaGraphNode_t node) {
    Globals &g = globals();
    CUDA_KERNEL_NODE_PARAMS params{};
    // A node the driver cannot describe was not made by an SMC launch.
    if (api.graphKernelNodeGetParams(node, &params) != CUDA_SUCCESS)
      return cudaSuccess;
    auto variant = g.smcVariants.find(params.func);
    if (variant == g.smcVariants.end() || !params.kernelParams)
      return cudaSuccess;
    KernelEntry &k = *variant->second;
    DeviceState &dev = *k.device;
    uint32_t numParams = k.info.num_params;
    SmcDescriptor desc;
    std::memcpy(&desc, params.kernelParams[numParams], sizeof desc);
    if (g.graphCounters.insert({&dev, desc.worker_count}).second)
      return cudaSuccess; // the first executable graph to use this block

    // The parameters are copied, as setting them replaces what the node's
    // kernelParams point to.
    std::vector<std::vector<char>> values(numParams);
    std::vector<void *> pointers(numParams + 1);
    for (uint32_t i = 0; i < numParams; ++i) {
      size_t offset = 0, size = 0;
      CUresult r = api.funcGetParamInfo(params.func, i, &offset, &size);
      if (r != CUDA_SUCCESS)
        return fail(k, "reading its parameters", r);
      const char *value = static_cast<const char *>(params.kernelParams[i]);
      values[i].assign(value, value + size);
      pointers[i] = values[i].data();
    }
    uint32_t *block;
    {
      OnDevice on(dev.ordinal);
      block = newCounterBlock(dev);
    }
    if (block) {
      useCounterBlock(desc, block, dev.numSMs);
      g.graphCounters.insert({&dev, block});
    } else {
      tellKernel(k, "a graph node runs the original: no counter block of its "
                    "own for it");
      params.func = k.original;
      params.gridDimX = desc.grid_x;
      params.gridDimY = desc.grid_y;
      params.gridDimZ = desc.grid_z;
    }
    pointers[numParams] = &desc;
    params.kernelParams = pointers.data();
    CUresult r = api.graphKernelNodeSetParams(node, &params);
    if (r != CUDA_SUCCESS)
      return fail(k, "giving its graph node a counter block", r);
    return cudaSuccess;
  }

  cudaError_t fail(const KernelEntry &k, const char *what, CUresult r) {
    tellKernel(k, std::string(what) + " failed with " + driver::resultText(r) +
                      "; the graph is not instantiated");
    // Runtime and driver error codes share their values.
    return static_cast<cudaError_t>(r);
  }

  const driver::Api &api;
};

// Before `graph` is instantiated, or an executable graph updated from it.
cudaError_t giveOwnCounters(cudaGraph_t graph) {
  if (!graph || smcDisabled() || forwardAll.load(std::memory_order_relaxed))
    return cudaSuccess;
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  // No __smc variant was ever launched, so none can be in the graph.
  if (g.smcVariants.empty())
    return cudaSuccess;
  const driver::Api *api = driver::api();
  if (!api)
    return cudaSuccess;
  RelaxedCaptureMode relaxed;
  return CounterAssigner(*api).walk(graph);
}

} // namespace
} // namespace smc

extern "C" cudaError_t __smc_graph_instantiate(cudaGraphExec_t *exec,
                                               cudaGraph_t graph,
                                               unsigned long long flags) {
  cudaError_t err = smc::giveOwnCounters(graph);
  return err != cudaSuccess ? err : cudaGraphInstantiate(exec, graph, flags);
}

extern "C" cudaError_t
__smc_graph_instantiate_with_flags(cudaGraphExec_t *exec, cudaGraph_t graph,
                                   unsigned long long flags) {
  cudaError_t err = smc::giveOwnCounters(graph);
  return err != cudaSuccess ? err
                            : cudaGraphInstantiateWithFlags(exec, graph, flags);
}

extern "C" cudaError_t
__smc_graph_instantiate_with_params(cudaGraphExec_t *exec, cudaGraph_t graph,
                                    cudaGraphInstantiateParams *params) {
  cudaError_t err = smc::giveOwnCounters(graph);
  return err != cudaSuccess
             ? err
             : cudaGraphInstantiateWithParams(exec, graph, params);
}

extern "C" cudaError_t
__smc_graph_instantiate_with_params_ptsz(cudaGraphExec_t *exec,
                                         cudaGraph_t graph,
                                         cudaGraphInstantiateParams *params) {
  cudaError_t err = smc::giveOwnCounters(graph);
  return err != cudaSuccess
             ? err
             : cudaGraphInstantiateWithParams_ptsz(exec, graph, params);
}

extern "C" cudaError_t
__smc_graph_exec_update(cudaGraphExec_t exec, cudaGraph_t graph,
                        cudaGraphExecUpdateResultInfo *resultInfo) {
  cudaError_t err = smc::giveOwnCounters(graph);
  return err != cudaSuccess ? err
                            : cudaGraphExecUpdate(exec, graph, resultInfo);
}
