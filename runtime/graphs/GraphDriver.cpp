//===- GraphDriver.cpp - The driver's graph functions, looked up once -----===//
#include "graphs/GraphDriver.h"

#include "base/Driver.h"

namespace smc::graphs {
namespace {

struct Resolved {
  GraphApi Functions{};
  bool Ok = false;
  std::string Error;
};

Resolved resolve() {
  using driver::lookUp;
  Resolved R;
  GraphApi &A = R.Functions;
  R.Ok =
      lookUp("cuGraphClone", 10000, A.Clone, R.Error) &&
      lookUp("cuGraphNodeFindInClone", 10000, A.FindInClone, R.Error) &&
      lookUp("cuGraphGetNodes", 10000, A.GetNodes, R.Error) &&
      lookUp("cuGraphGetEdges", 12030, A.GetEdges, R.Error) &&
      lookUp("cuGraphNodeGetType", 10000, A.NodeGetType, R.Error) &&
      lookUp("cuGraphNodeGetDependencies", 12030, A.NodeGetDependencies,
             R.Error) &&
      lookUp("cuGraphNodeGetDependentNodes", 12030, A.NodeGetDependents,
             R.Error) &&
      lookUp("cuGraphAddDependencies", 12030, A.AddDependencies, R.Error) &&
      lookUp("cuGraphAddChildGraphNode", 10000, A.AddChildGraphNode, R.Error) &&
      lookUp("cuGraphDestroyNode", 10000, A.DestroyNode, R.Error) &&
      lookUp("cuGraphDestroy", 10000, A.Destroy, R.Error);
  return R;
}

} // namespace

const GraphApi *graphApi(std::string *Error) {
  static const Resolved R = resolve();
  if (!R.Ok && Error)
    *Error = R.Error;
  return R.Ok ? &R.Functions : nullptr;
}

} // namespace smc::graphs
