//===- LocalityChoice.cpp - Placements tried, the fastest kept ----------===//
//
// The candidates of each CTA locality class and the bookkeeping of their
// timed trials.  See LocalityChoice.h.
//===----------------------------------------------------------------------===//
#include "locality/LocalityChoice.h"

#include "smc/abi.h"

#include <algorithm>
#include <cstdio>

namespace smc {

std::vector<LocalityCandidate>
localityCandidates(uint32_t Locality, bool Urgent, unsigned ThrottledWorkers) {
  std::vector<LocalityCandidate> Out = {{"original", Policy::original()},
                                        {"smc", Policy::smCentric()}};
  auto Clusters = [&](ClusterDir Dir, const char *Name) {
    Out.push_back({std::string("smc(order=cluster(") + Name + "))",
                   Policy::clustered(Dir)});
    if (ThrottledWorkers)
      Out.push_back({"smc(workers=" + std::to_string(ThrottledWorkers) +
                         ",order=cluster(" + Name + "))",
                     Policy::clustered(Dir, 0, ThrottledWorkers)});
  };
  switch (Locality) {
  case SMC_LOCALITY_NONE:
    break;
  case SMC_LOCALITY_X:
    Clusters(ClusterDir::X, "x");
    break;
  case SMC_LOCALITY_Y:
    Clusters(ClusterDir::Y, "y");
    break;
  case SMC_LOCALITY_TILE:
    Clusters(ClusterDir::Tile, "tile");
    break;
  default: // irregular, z (clusters never span z planes), unknown
    Out.push_back({"smc(order=contiguous)",
                   Policy::smCentric(0, {}, ChunkOrder::Contiguous)});
    break;
  }
  for (LocalityCandidate &C : Out)
    C.Placement.urgent = Urgent;
  return Out;
}

} // namespace smc
