//===- GraphDriver.h - The driver's graph functions graph layouts use -----===//
//
// Graphs that hold SM-centric nodes are read and edited through the driver
// API: the runtime API refused some calls on graphs of variant nodes
// (cudaErrorInvalidDeviceFunction, test/gpu/GraphTest.cu).  Looked up once,
// like base/Driver.h's table.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_GRAPHS_GRAPHDRIVER_H
#define SMC_RUNTIME_GRAPHS_GRAPHDRIVER_H

#include <cudaTypedefs.h>

#include <string>

namespace smc::graphs {

struct GraphApi {
  PFN_cuGraphClone_v10000 Clone;
  PFN_cuGraphNodeFindInClone_v10000 FindInClone;
  PFN_cuGraphGetNodes_v10000 GetNodes;
  PFN_cuGraphGetEdges_v12030 GetEdges;
  PFN_cuGraphNodeGetType_v10000 NodeGetType;
  PFN_cuGraphNodeGetDependencies_v12030 NodeGetDependencies;
  PFN_cuGraphNodeGetDependentNodes_v12030 NodeGetDependents;
  PFN_cuGraphAddDependencies_v12030 AddDependencies;
  PFN_cuGraphAddChildGraphNode_v10000 AddChildGraphNode;
  PFN_cuGraphDestroyNode_v10000 DestroyNode;
  PFN_cuGraphDestroy_v10000 Destroy;
};

// The functions, resolved on the first call; null (with Error) if any is
// missing.
const GraphApi *graphApi(std::string *Error = nullptr);

} // namespace smc::graphs

#endif // SMC_RUNTIME_GRAPHS_GRAPHDRIVER_H
