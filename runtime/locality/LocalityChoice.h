//===- LocalityChoice.h - Placements tried, the fastest kept -*- C++ -*-===//
//
// Policy locality (SMC_POLICY 'k=locality', smc::Policy::locality()) picks,
// per launch configuration, the placement of the kernel's CTAs that ran
// fastest: its original (no placement: the hardware's), its SM-centric
// variant in the interleaved order, and the order its CTA locality class
// (the pass's LocalityAnalysis) suggests - clusters of neighbours along x,
// along y or in tiles (CTA-Clustering, ASPLOS'17) for x, y and tile, the
// contiguous order (neighbouring chunk ids on one SM: the order that kept a
// banded sparse matrix's affinity) for irregular, z and unknown; the
// cluster orders also throttled to half the workers that fit.  On an H100
// no cache-size rule predicted which of these wins (clusters raised L1 hits
// and cut L2 traffic yet ran slower; docs/results/locality.md), so the choice
// is measured: the first launches of a configuration run the candidates in
// turn, each timed, and the fastest by median is kept if it beats the
// original by MinGain, else the original (measure/Trials.h keeps the
// times).  Pure logic: no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_LOCALITY_LOCALITYCHOICE_H
#define SMC_RUNTIME_LOCALITY_LOCALITYCHOICE_H

#include "measure/Trials.h"
#include "smc/smc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace smc {

struct LocalityCandidate {
  std::string Name; // "original", "smc", "smc(order=cluster(tile))", ...
  Policy Placement;
};

// The placements tried for a kernel of class Locality (an SmcLocality):
// the original first, then the interleaved SM-centric variant, then the
// class's order (none for class none), and for the cluster orders the same
// throttled to ThrottledWorkers per SM where that is not 0 (fewer workers
// sharing an SM's L1: CTA-Clustering's throttling, its degree left to the
// trials).  Each carries Urgent.
std::vector<LocalityCandidate>
localityCandidates(uint32_t Locality, bool Urgent = false,
                   unsigned ThrottledWorkers = 0);

} // namespace smc

#endif // SMC_RUNTIME_LOCALITY_LOCALITYCHOICE_H
