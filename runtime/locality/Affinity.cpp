//===- Affinity.cpp - Affinity-based placement: the public API ------------===//
//
// smc::affinityPolicy and smc::placeByAffinity (smc.h): check the options
// against the current device, build and partition the affinity graph
// (AffinityGraph.h), time each step, and keep the placements built by
// placeByAffinity per kernel, input signature and options.
//===----------------------------------------------------------------------===//
#include "locality/AffinityGraph.h"

#include "base/Cuda.h"
#include "base/Locks.h"
#include "base/Messages.h"

#include <cuda_runtime.h>

#include <chrono>
#include <map>
#include <optional>
#include <sstream>

namespace smc {
namespace {

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

// The SMs to place on: options.sms, or every SM of the current device.
bool placementSms(const AffinityOptions &Options, std::vector<unsigned> &Sms,
                  std::string &Error) {
  int Device = 0, Count = 0;
  cudaError_t Err = cudaGetDevice(&Device);
  if (Err == cudaSuccess)
    Err =
        cudaDeviceGetAttribute(&Count, cudaDevAttrMultiProcessorCount, Device);
  if (Err != cudaSuccess) {
    Error = failed("cudaDeviceGetAttribute", Err);
    return false;
  }
  if (Options.sms.empty()) {
    for (unsigned Sm = 0; Sm < unsigned(Count); ++Sm)
      Sms.push_back(Sm);
    return true;
  }
  std::vector<bool> Seen(size_t(Count), false);
  for (unsigned Sm : Options.sms) {
    if (Sm >= unsigned(Count)) {
      Error = "SM " + std::to_string(Sm) + " is not on the device (it has " +
              std::to_string(Count) + ")";
      return false;
    }
    if (Seen[Sm]) {
      Error = "SM " + std::to_string(Sm) + " is named twice";
      return false;
    }
    Seen[Sm] = true;
  }
  Sms = Options.sms;
  return true;
}

struct CachedPlacement {
  Policy Placement;
  AffinityReport Report;
};

struct AffinityCache {
  OrderedMutex Mutex{LockLevel::Affinity}; // guards Placements
  std::map<std::string, CachedPlacement> Placements;
};

AffinityCache &affinityCache() {
  static AffinityCache Cache;
  return Cache;
}

// The cache key: the kernel, the signature and every option.
std::string cacheKey(const std::string &Kernel, uint64_t Signature,
                     const AffinityOptions &Options) {
  std::ostringstream Key;
  Key << Kernel << '\n'
      << Signature << '\n'
      << Options.workersPerSM << ' ' << Options.minAffinity << ' '
      << Options.maxNeighbours << ' ' << Options.maxPairWork << ' '
      << Options.cheapestOrder;
  for (unsigned Sm : Options.sms)
    Key << ' ' << Sm;
  return Key.str();
}

// placeByAffinity for a kernel `Describe`d in messages, whose policy `Set`
// installs.
template <typename SetPolicy>
AffinityReport placeCached(const std::string &Kernel,
                           const std::string &Describe, uint64_t Signature,
                           const std::function<ChunkFootprint()> &Inspect,
                           const AffinityOptions &Options, SetPolicy Set) {
  AffinityCache &Cache = affinityCache();
  std::string Key = cacheKey(Kernel, Signature, Options);
  // The cache lock is a leaf: the policy is set after it is released.
  std::optional<CachedPlacement> Cached;
  {
    Guard Lock(Cache.Mutex);
    auto It = Cache.Placements.find(Key);
    if (It != Cache.Placements.end())
      Cached = It->second;
  }
  if (Cached) {
    Set(Cached->Placement);
    Cached->Report.cached = true;
    return Cached->Report;
  }
  AffinityReport Report;
  auto Start = std::chrono::steady_clock::now();
  ChunkFootprint Footprint = Inspect();
  double InspectSeconds = secondsSince(Start);
  Policy Placement;
  bool Built = affinityPolicy(Footprint, Options, Placement, &Report);
  Report.inspectSeconds = InspectSeconds;
  if (!Built) {
    tell("affinity placement for " + Describe + ": " + Report.error +
         "; the kernel keeps its policy");
    return Report;
  }
  Set(Placement);
  Guard Lock(Cache.Mutex);
  Cache.Placements[Key] = {Placement, Report};
  return Report;
}

} // namespace

bool affinityPolicy(const ChunkFootprint &Footprint,
                    const AffinityOptions &Options, Policy &Result,
                    AffinityReport *ReportOut) {
  AffinityReport Report;
  std::vector<unsigned> Sms;
  if (!affinity::checkFootprint(Footprint, Report.error) ||
      !placementSms(Options, Sms, Report.error)) {
    if (ReportOut)
      *ReportOut = Report;
    return false;
  }
  auto Start = std::chrono::steady_clock::now();
  affinity::Graph G =
      affinity::buildGraph(Footprint, Options.minAffinity, Options.maxPairWork,
                           Options.maxNeighbours);
  Report.graphSeconds = secondsSince(Start);
  Start = std::chrono::steady_clock::now();
  std::vector<uint32_t> PartOf;
  if (!affinity::partitionGraph(G, uint32_t(Sms.size()), PartOf,
                                Report.error)) {
    if (ReportOut)
      *ReportOut = Report;
    return false;
  }
  affinity::PlacementChoice Choice =
      affinity::choosePlacement(G, PartOf, uint32_t(Sms.size()));
  if (!Options.cheapestOrder)
    Choice.Order = ChunkOrder::Table;
  Policy Placement =
      Policy::smCentric(Options.workersPerSM, Options.sms, Choice.Order);
  if (Choice.Order == ChunkOrder::Table)
    Placement.chunkToSM = affinity::chunkTable(PartOf, Sms);
  Report.partitionSeconds = secondsSince(Start);
  Report.ok = true;
  Report.order = Choice.Order;
  Report.chunks = G.chunks();
  Report.parts = unsigned(Sms.size());
  Report.edges = G.edges();
  Report.sampleEvery = G.SampleEvery;
  Report.affinityPerChunk = Choice.PerChunk;
  Report.keptAffinity = Choice.Table;
  Report.interleavedAffinity = Choice.Interleaved;
  Report.contiguousAffinity = Choice.Contiguous;
  Result = std::move(Placement);
  if (ReportOut)
    *ReportOut = Report;
  return true;
}

AffinityReport
placeByAffinityForSymbol(const void *KernelSymbol, uint64_t Signature,
                         const std::function<ChunkFootprint()> &Inspect,
                         const AffinityOptions &Options) {
  std::ostringstream Describe;
  Describe << "the kernel of host symbol " << KernelSymbol;
  return placeCached(
      "symbol " + Describe.str(), Describe.str(), Signature, Inspect, Options,
      [&](const Policy &P) { setPolicyForSymbol(KernelSymbol, P); });
}

AffinityReport placeByAffinity(const std::string &Name, uint64_t Signature,
                               const std::function<ChunkFootprint()> &Inspect,
                               const AffinityOptions &Options) {
  return placeCached("name " + Name, "kernel '" + Name + "'", Signature,
                     Inspect, Options,
                     [&](const Policy &P) { setPolicy(Name, P); });
}

} // namespace smc
