//===- GraphExec.cpp - Counter blocks of their own for executable graphs --===//
//
// A launch captured into a graph gets a fresh counter block (see
// Devices.h), and the variant's last worker zeroes it again, so
// replays of one executable graph may share it: CUDA runs the launches of
// one executable graph one after another.  Two executable graphs
// instantiated from one graph would share it too, and they may run at the
// same time.
//
// So the host rewrite's entries for cudaGraphInstantiate* and
// cudaGraphExecUpdate (graphs/GraphEntries.cpp) come here first.  Every __smc
// kernel node of the graph (in child graphs too) keeps its counter block if no
// executable graph uses that block yet; otherwise the node, in the caller's
// graph, is given a new block before CUDA copies the graph's parameters into
// the executable graph.  Only the descriptor's counter pointers change, which
// no one but the variant reads. A node for which no block can be had runs the
// original kernel, and the user is told.  Costs nothing on the GPU;
// instantiation walks the graph once.
//===----------------------------------------------------------------------===//
#include "core/GraphExec.h"
#include "base/Cuda.h"
#include "base/Messages.h"
#include "core/Devices.h"
#include "core/HostEntries.h"
#include "core/Kernels.h"
#include "policy/Config.h"

#include <cstring>
#include <set>

namespace smc {
namespace {

// Counter blocks some executable graph's node uses (the registry lock);
// never destroyed, as graphs may be instantiated from static destructors.
std::set<std::pair<const DeviceState *, uint32_t *>> &graphCounters() {
  static auto *Counters =
      new std::set<std::pair<const DeviceState *, uint32_t *>>;
  return *Counters;
}

// Gives the __smc kernel nodes of one graph, and of the graphs nested in it,
// counter blocks no executable graph uses yet.  The registry lock held.
class CounterAssigner {
public:
  explicit CounterAssigner(const driver::Api &Api) : Api(Api) {}

  cudaError_t walk(cudaGraph_t Graph) {
    size_t Count = 0;
    cudaError_t Err = cudaGraphGetNodes(Graph, nullptr, &Count);
    std::vector<cudaGraphNode_t> Nodes(Count);
    if (Err == cudaSuccess && Count)
      Err = cudaGraphGetNodes(Graph, Nodes.data(), &Count);
    for (size_t I = 0; Err == cudaSuccess && I < Count; ++I) {
      cudaGraphNodeType Type;
      Err = cudaGraphNodeGetType(Nodes[I], &Type);
      if (Err != cudaSuccess)
        break;
      if (Type == cudaGraphNodeTypeKernel) {
        Err = kernelNode(Nodes[I]);
      } else if (Type == cudaGraphNodeTypeGraph) {
        cudaGraph_t Child = nullptr;
        Err = cudaGraphChildGraphNodeGetGraph(Nodes[I], &Child);
        if (Err == cudaSuccess)
          Err = walk(Child);
      } else if (Type == cudaGraphNodeTypeConditional) {
        tell("a graph with conditional nodes: SM-centric kernels in their "
             "bodies keep the counter blocks of their capture, so two "
             "executable graphs of one such graph must not run at once");
      }
    }
    return Err;
  }

private:
  cudaError_t kernelNode(cudaGraphNode_t Node) {
    CUDA_KERNEL_NODE_PARAMS Params{};
    // A node the driver cannot describe was not made by an SMC launch.
    if (Api.GraphKernelNodeGetParams(Node, &Params) != CUDA_SUCCESS)
      return cudaSuccess;
    KernelEntry *Variant = kernelOfSmcVariant(Params.func);
    if (!Variant || !Params.kernelParams)
      return cudaSuccess;
    KernelEntry &K = *Variant;
    DeviceState &Dev = *K.Device;
    uint32_t NumParams = K.Info.num_params;
    SmcDescriptor Desc;
    std::memcpy(&Desc, Params.kernelParams[NumParams], sizeof Desc);
    if (graphCounters().insert({&Dev, Desc.worker_count}).second)
      return cudaSuccess; // the first executable graph to use this block

    // The parameters are copied, as setting them replaces what the node's
    // kernelParams point to.
    std::vector<size_t> Sizes;
    CUresult SizesResult;
    if (!paramSizes(Params.func, NumParams, Api, Sizes, SizesResult))
      return fail(K, "reading its parameters", SizesResult);
    std::vector<std::vector<char>> Values =
        copyArgs(Params.kernelParams, Sizes);
    std::vector<void *> Pointers(NumParams + 1);
    for (uint32_t I = 0; I < NumParams; ++I)
      Pointers[I] = Values[I].data();
    uint32_t *Block;
    {
      OnDevice On(Dev.Ordinal);
      Block = newCounterBlock(Dev);
    }
    if (Block) {
      useCounterBlock(Desc, Block, Dev.NumSMs);
      graphCounters().insert({&Dev, Block});
    } else {
      tellKernel(K, "a graph node runs the original: no counter block of its "
                    "own for it");
      Params.func = K.Original;
      Params.gridDimX = Desc.grid_x;
      Params.gridDimY = Desc.grid_y;
      Params.gridDimZ = Desc.grid_z;
    }
    Pointers[NumParams] = &Desc;
    Params.kernelParams = Pointers.data();
    CUresult R = Api.GraphKernelNodeSetParams(Node, &Params);
    if (R != CUDA_SUCCESS)
      return fail(K, "giving its graph node a counter block", R);
    return cudaSuccess;
  }

  cudaError_t fail(const KernelEntry &K, const char *What, CUresult R) {
    tellKernel(K, std::string(What) + " failed with " + driver::resultText(R) +
                      "; the graph is not instantiated");
    // Runtime and driver error codes share their values.
    return static_cast<cudaError_t>(R);
  }

  const driver::Api &Api;
};

} // namespace

cudaError_t giveOwnCounters(cudaGraph_t Graph) {
  if (!Graph || config().Disabled || forwardAll())
    return cudaSuccess;
  Guard Lock(registryMutex());
  // No __smc variant was ever launched, so none can be in the graph.
  if (!anySmcVariant())
    return cudaSuccess;
  const driver::Api *Api = driver::api();
  if (!Api)
    return cudaSuccess;
  RelaxedCaptureMode Relaxed;
  return CounterAssigner(*Api).walk(Graph);
}

} // namespace smc
