//===- GraphExec.h - Counter blocks of their own for executable graphs ----===//
//
// What GraphExec.cpp gives the graph entries (graphs/): before a graph is
// instantiated, or an executable graph updated from it, its SM-centric
// kernel nodes get counter blocks no other executable graph uses.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORE_GRAPHEXEC_H
#define SMC_RUNTIME_CORE_GRAPHEXEC_H

#include <cuda_runtime_api.h>

namespace smc {

// No lock held.  Gives every __smc kernel node of Graph (and of the graphs
// nested in it) a counter block of its own where an executable graph uses
// its block already; an error of the CUDA calls that did so.
cudaError_t giveOwnCounters(cudaGraph_t Graph);

} // namespace smc

#endif // SMC_RUNTIME_CORE_GRAPHEXEC_H
