//===- GraphModel.cpp - Reading a graph, and building its layouts ---------===//
//
// read(): the copy, its nodes and edges (refusing what a second executable
// graph of it, or a layout, could break), the co-run sets, and each set's
// facts through smc::Batch's gatherFacts.  build(): the copy cloned, nodes
// replaced by captured launches, lane edges added, instantiated.
//===----------------------------------------------------------------------===//
#include "graphs/GraphModel.h"

#include "base/Cuda.h"
#include "base/Driver.h"
#include "base/Locks.h"
#include "core/Devices.h"
#include "core/GraphExec.h"
#include "core/Kernels.h"
#include "graphs/GraphDriver.h"

#include <cstring>
#include <map>

namespace smc::graphs {
namespace {

std::string failed(const char *What, CUresult R) {
  return std::string(What) + " failed with " + driver::resultText(R);
}

// Registry lock held.  The launch a kernel node makes, if the runtime may
// lay it out: a kernel of the program launched through the runtime on Dev,
// as its original or its __smc variant, under a policy other than
// `original`.  False: the node stays as it is.
bool kernelLaunch(CUgraphNode Node, DeviceState &Dev, RecordedLaunch &L) {
  const driver::Api &Api = *driver::api();
  CUDA_KERNEL_NODE_PARAMS P{};
  if (Api.GraphKernelNodeGetParams(Node, &P) != CUDA_SUCCESS || !P.func ||
      !P.kernelParams)
    return false;
  KernelEntry *K = kernelOfSmcVariant(P.func);
  bool Smc = K != nullptr;
  if (!K)
    K = kernelOfOriginal(P.func);
  if (!K || K->Device != &Dev || !K->InfoProblem.empty())
    return false;
  if (kernelPolicy(*K).variant == Variant::Original)
    return false;
  uint32_t NumParams = K->Info.num_params;
  std::vector<size_t> Sizes;
  CUresult Result;
  if (!paramSizes(K->Original, NumParams, Api, Sizes, Result))
    return false;
  L.Kind = OpKind::Launch;
  L.Func = K->Symbol;
  L.Kernel = K;
  L.Shape.Grid = dim3(P.gridDimX, P.gridDimY, P.gridDimZ);
  if (Smc) {
    SmcDescriptor Desc;
    std::memcpy(&Desc, P.kernelParams[NumParams], sizeof Desc);
    L.Shape.Grid = dim3(Desc.grid_x, Desc.grid_y, Desc.grid_z);
  }
  L.Shape.Block = dim3(P.blockDimX, P.blockDimY, P.blockDimZ);
  L.Shape.SharedMem = P.sharedMemBytes;
  L.Values = copyArgs(P.kernelParams, Sizes);
  for (std::vector<char> &Value : L.Values)
    L.Args.push_back(Value.data());
  return true;
}

} // namespace

GraphModel::~GraphModel() {
  if (const GraphApi *Api = graphApi(); Api && Copy)
    Api->Destroy(Copy);
}

std::unique_ptr<GraphModel> GraphModel::read(cudaGraph_t Graph,
                                             std::string &Why) {
  const GraphApi *Api = graphApi(&Why);
  if (!Api || !driver::api(&Why))
    return nullptr;
  std::unique_ptr<GraphModel> M(new GraphModel);
  // The program's graph is read first: what the runtime refuses, it names.
  CUgraph Program = reinterpret_cast<CUgraph>(Graph);
  if (!M->readNodes(Program, Why))
    return nullptr;
  if (CUresult R = Api->Clone(&M->Copy, Program)) {
    Why = failed("copying the graph", R);
    return nullptr;
  }
  for (CUgraphNode &Node : M->Nodes)
    if (CUresult R = Api->FindInClone(&Node, Node, M->Copy)) {
      Why = failed("finding a node in the graph's copy", R);
      return nullptr;
    }
  std::vector<CoRunSet> Sets = coRunSets(M->Shape, Why);
  for (CoRunSet &Set : Sets) {
    SetFacts S;
    S.Set = std::move(Set);
    if (!M->readSet(S, Why))
      return nullptr;
    M->Sets.push_back(std::move(S));
  }
  return M->Sets.empty() ? nullptr : std::move(M);
}

bool GraphModel::readNodes(CUgraph Graph, std::string &Why) {
  const GraphApi &Api = *graphApi();
  size_t Count = 0;
  if (CUresult R = Api.GetNodes(Graph, nullptr, &Count)) {
    Why = failed("listing the graph's nodes", R);
    return false;
  }
  if (Count > MaxGraphNodes) {
    Why = "more than " + std::to_string(MaxGraphNodes) + " nodes";
    return false;
  }
  Nodes.resize(Count);
  if (Count)
    Api.GetNodes(Graph, Nodes.data(), &Count);
  std::map<CUgraphNode, unsigned> Index;
  for (CUgraphNode Node : Nodes) {
    CUgraphNodeType Type;
    if (CUresult R = Api.NodeGetType(Node, &Type)) {
      Why = failed("reading a node's type", R);
      return false;
    }
    NodeKind Kind = NodeKind::Barrier;
    switch (Type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
      Kind = NodeKind::Kernel;
      break;
    case CU_GRAPH_NODE_TYPE_MEMSET:
      Kind = NodeKind::Memset;
      break;
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      Kind = NodeKind::Memcpy;
      break;
    case CU_GRAPH_NODE_TYPE_GRAPH:
      Kind = NodeKind::Child;
      break;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
      Why = "a conditional node (its bodies are not laid out)";
      return false;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
      Why = "a memory allocation node (a graph with one may have one "
            "executable graph at a time)";
      return false;
    default:
      break;
    }
    Index[Node] = Shape.addNode(Kind);
  }
  size_t Edges = 0;
  Api.GetEdges(Graph, nullptr, nullptr, nullptr, &Edges);
  std::vector<CUgraphNode> From(Edges), To(Edges);
  std::vector<CUgraphEdgeData> Data(Edges);
  if (Edges)
    if (CUresult R =
            Api.GetEdges(Graph, From.data(), To.data(), Data.data(), &Edges)) {
      Why = failed("listing the graph's edges", R);
      return false;
    }
  for (size_t I = 0; I < Edges; ++I) {
    if (Data[I].type != CU_GRAPH_DEPENDENCY_TYPE_DEFAULT || Data[I].from_port ||
        Data[I].to_port) {
      Why = "an edge of programmatic dependent launch";
      return false;
    }
    Shape.addEdge(Index[From[I]], Index[To[I]]);
  }
  return true;
}

bool GraphModel::readSet(SetFacts &S, std::string &Why) {
  int Ordinal = 0;
  cudaGetDevice(&Ordinal);
  DeviceState *Dev = deviceState(Ordinal);
  if (!Dev) {
    Why = "no state for device " + std::to_string(Ordinal);
    return false;
  }
  {
    Guard Lock(registryMutex());
    for (unsigned Chain = 0; Chain < S.Set.Chains.size(); ++Chain)
      for (unsigned Node : S.Set.Chains[Chain]) {
        RecordedLaunch L;
        L.Kind = OpKind::Memset; // stays as it is, unless a kernel below
        if (Shape.Kinds[Node] == NodeKind::Kernel)
          kernelLaunch(Nodes[Node], *Dev, L);
        L.Device = Ordinal;
        L.State = Dev;
        S.Launches.push_back(std::move(L));
        S.NodeOf.push_back(Node);
      }
  }
  if (!gatherFacts(S.Launches, S.F, Why, "graph layouts"))
    return false;
  size_t At = 0;
  for (unsigned Chain = 0; Chain < S.Set.Chains.size(); ++Chain)
    for (size_t I = 0; I < S.Set.Chains[Chain].size(); ++I)
      S.F.Pending[At++].Stream = Chain;
  return true;
}

unsigned GraphModel::branches() const {
  unsigned N = 0;
  for (const SetFacts &S : Sets)
    N += unsigned(S.Set.Chains.size());
  return N;
}

bool GraphModel::acyclic(const GraphLayout &L) const {
  std::vector<std::pair<unsigned, unsigned>> Edges;
  for (size_t K = 0; K < Sets.size() && K < L.size(); ++K)
    if (L[K])
      for (auto Edge : laneEdges(Sets[K].Set, *L[K]))
        Edges.push_back(Edge);
  return acyclicWith(Shape, Edges);
}

std::string GraphModel::text(const GraphLayout &L) {
  std::string Text;
  for (size_t K = 0; K < L.size(); ++K)
    Text += (K ? "; set " : "set ") + std::to_string(K) + ": " +
            (L[K] ? L[K]->text() : std::string("as instantiated"));
  return L.empty() ? "as instantiated" : Text;
}

namespace {

// Builds one layout into a clone G of the copy (node handles H, by shape
// index); the clone is destroyed with the builder.
class Builder {
public:
  Builder(const GraphApi &Api, CUgraph G, std::vector<CUgraphNode> H)
      : Api(Api), G(G), H(std::move(H)) {}
  ~Builder() { Api.Destroy(G); }

  // Node Node replaced by a child-graph node of the launches of run R.
  bool replace(unsigned Node, const RecordedLaunch &L, const Prepared *Slice,
               const batch::SliceRun &R, cudaStream_t Stream,
               std::string &Error) {
    CUgraph Sub = nullptr;
    {
      RelaxedCaptureMode Relaxed;
      if (cudaError_t Err =
              cudaStreamBeginCapture(Stream, cudaStreamCaptureModeRelaxed)) {
        Error = failed("capturing a layout's launches", Err);
        return false;
      }
      bool Ok = launchRun(L, Slice, R, Stream, "a graph node", Error);
      cudaError_t Err =
          cudaStreamEndCapture(Stream, reinterpret_cast<cudaGraph_t *>(&Sub));
      if (!Ok || Err) {
        if (Ok)
          Error = failed("capturing a layout's launches", Err);
        if (Sub)
          Api.Destroy(Sub);
        return false;
      }
    }
    std::vector<CUgraphNode> Before = neighbours(H[Node], true);
    std::vector<CUgraphNode> After = neighbours(H[Node], false);
    CUgraphNode Child = nullptr;
    CUresult Res =
        Api.AddChildGraphNode(&Child, G, Before.data(), Before.size(), Sub);
    Api.Destroy(Sub);
    for (CUgraphNode Next : After)
      if (Res == CUDA_SUCCESS)
        Res = Api.AddDependencies(G, &Child, &Next, nullptr, 1);
    if (Res == CUDA_SUCCESS)
      Res = Api.DestroyNode(H[Node]);
    if (Res != CUDA_SUCCESS) {
      Error = failed("replacing a graph node", Res);
      return false;
    }
    H[Node] = Child;
    return true;
  }

  bool addEdge(unsigned From, unsigned To, std::string &Error) {
    if (CUresult R = Api.AddDependencies(G, &H[From], &H[To], nullptr, 1)) {
      Error = failed("adding a lane edge", R);
      return false;
    }
    return true;
  }

  CUgraph graph() const { return G; }

private:
  std::vector<CUgraphNode> neighbours(CUgraphNode Node, bool Before) {
    auto Get = Before ? Api.NodeGetDependencies : Api.NodeGetDependents;
    size_t Count = 0;
    Get(Node, nullptr, nullptr, &Count);
    std::vector<CUgraphNode> Found(Count);
    if (Count)
      Get(Node, Found.data(), nullptr, &Count);
    return Found;
  }

  static std::string failed(const char *What, cudaError_t Err) {
    return std::string(What) + " failed with " + cudaGetErrorName(Err);
  }
  static std::string failed(const char *What, CUresult R) {
    return std::string(What) + " failed with " + driver::resultText(R);
  }

  const GraphApi &Api;
  CUgraph G;
  std::vector<CUgraphNode> H;
};

// A stream of its own for capturing a layout's launches.
struct CaptureStream {
  cudaStream_t S = nullptr;
  CaptureStream() { cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking); }
  ~CaptureStream() {
    if (S)
      cudaStreamDestroy(S);
  }
};

} // namespace

cudaGraphExec_t GraphModel::build(const GraphLayout &L,
                                  unsigned long long Flags,
                                  std::string &Error) const {
  const GraphApi &Api = *graphApi();
  CUgraph G = nullptr;
  if (CUresult R = Api.Clone(&G, Copy)) {
    Error = failed("copying the graph", R);
    return nullptr;
  }
  std::vector<CUgraphNode> H(Nodes.size());
  for (size_t I = 0; I < Nodes.size(); ++I)
    Api.FindInClone(&H[I], Nodes[I], G);
  Builder B(Api, G, std::move(H));
  CaptureStream Capture;
  if (!Capture.S) {
    Error = "no stream to capture a layout's launches on";
    return nullptr;
  }
  for (size_t K = 0; K < Sets.size() && K < L.size(); ++K) {
    if (!L[K])
      continue;
    const SetFacts &S = Sets[K];
    for (const batch::SliceRun &R :
         batch::layoutRuns(S.F.Plan, S.F.Pending, *L[K])) {
      const RecordedLaunch &Launch = S.Launches[R.launch];
      bool Changed = R.workersPerSm || R.sliceCtas < R.ctas;
      if (Launch.Kind == OpKind::Launch && Changed &&
          !B.replace(S.NodeOf[R.launch], Launch, S.F.Slices[R.launch], R,
                     Capture.S, Error))
        return nullptr;
    }
    for (auto [From, To] : laneEdges(S.Set, *L[K]))
      if (!B.addEdge(From, To, Error))
        return nullptr;
  }
  cudaGraph_t Graph = reinterpret_cast<cudaGraph_t>(B.graph());
  cudaGraphExec_t Exec = nullptr;
  cudaError_t Err = giveOwnCounters(Graph);
  if (Err == cudaSuccess)
    Err = cudaGraphInstantiateWithFlags(&Exec, Graph, Flags);
  if (Err != cudaSuccess) {
    Error = std::string("instantiating a layout failed with ") +
            cudaGetErrorName(Err);
    return nullptr;
  }
  return Exec;
}

} // namespace smc::graphs
