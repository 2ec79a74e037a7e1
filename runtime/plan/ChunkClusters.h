//===- ChunkClusters.h - Clusters of neighbouring chunks --------*- C++ -*-===//
//
// The cluster chunk order (ChunkOrder::Cluster, after CTA-Clustering,
// ASPLOS'17): cuts a grid of chunks into clusters of neighbours (runs along
// x or y, or x-y tiles) and deals the clusters to the SMs of a launch's SM
// set, each SM's queue holding whole clusters one after the other.  Pure
// C++: no CUDA, unit tested on the CPU.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PLAN_CHUNKCLUSTERS_H
#define SMC_RUNTIME_PLAN_CHUNKCLUSTERS_H

#include "plan/QueuePlan.h"
#include "smc/smc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace smc {

// The chunks along x and along y of one whole cluster.  A cluster never
// spans two z planes.
struct ClusterExtent {
  uint32_t X = 1, Y = 1;
};

// A tile of `Size` chunks: height the largest divisor of Size not above its
// square root, width Size / height (4: 2 x 2, 8: 4 x 2, 12: 4 x 3, 7: 7 x 1).
// Wider than high because x is the dimension whose neighbours are adjacent
// in memory in most kernels.  Size must be positive.
ClusterExtent tileExtent(uint32_t Size);

// The extent of the policy's clusters (Policy::clusterDir, clusterSize,
// clusterWidth, clusterHeight); `DefaultSize` stands for a clusterSize of
// 0.  False with `Reason` set when the policy contradicts itself.
bool clusterExtent(const Policy &Policy, uint32_t DefaultSize,
                   ClusterExtent &Extent, std::string &Reason);

// Fills `QueueStart` ([NumSlots + 1]) and `QueueChunks` ([chunks of Grid])
// with the grid (at most 2^32 - 1 chunks) cut into clusters of `Extent`
// (both sides positive) and dealt to the SMs of `Set` (distinct SMs below
// NumSlots, at least one).  Clusters are taken in grid order (x fastest,
// then y, then z), each to the SM with the fewest chunks so far, ties to
// the first in set order: round robin while clusters are whole, and no SM
// has more than one cluster's chunks more than another.  Within a cluster
// chunks are in linear order; each queue is its clusters in the order
// dealt.
void dealClusters(GridSize Grid, ClusterExtent Extent,
                  const std::vector<uint32_t> &Set, uint32_t NumSlots,
                  std::vector<uint32_t> &QueueStart,
                  std::vector<uint32_t> &QueueChunks);

} // namespace smc

#endif // SMC_RUNTIME_PLAN_CHUNKCLUSTERS_H
