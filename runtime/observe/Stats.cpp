//===- Stats.cpp - SMC_STATS launch records -------------------------------===//
//
// Turns launch records into JSON (nlohmann::json) and writes the file named
// by SMC_STATS from an atexit handler.  Only host data is touched at exit:
// no CUDA call runs there.
//===----------------------------------------------------------------------===//
#include "observe/Stats.h"

#include "base/Files.h"
#include "base/Forever.h"
#include "base/Locks.h"
#include "base/Messages.h"
#include "policy/Config.h"
#include "smc/abi.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace smc {
namespace stats {
namespace {

struct Collector {
  std::string Path;
  OrderedMutex Mutex{LockLevel::Records}; // guards the rest
  std::string DeviceName;
  bool HaveDevice = false;
  std::vector<nlohmann::ordered_json> Launches;
  std::vector<nlohmann::ordered_json> Graphs;
};

void writeStatsAtExit();

// Null when SMC_STATS is unset or empty.  Never destroyed, so it outlives
// every static destructor that might still launch.
Collector *collector() {
  static Collector *Instance =
      writeAtExit(config().StatsPath, forever<Collector>().Path,
                  writeStatsAtExit)
          ? &forever<Collector>()
          : nullptr;
  return Instance;
}

void writeStatsAtExit() {
  Collector *C = collector();
  Guard Lock(C->Mutex);
  // One launch per line: readable, and small for long runs.
  std::ofstream File(C->Path);
  File << "{\"device\": " << nlohmann::json(C->DeviceName).dump()
       << ",\n \"launches\": [";
  for (size_t I = 0; I < C->Launches.size(); ++I)
    File << (I ? ",\n  " : "\n  ") << C->Launches[I].dump();
  File << "\n ]";
  if (!C->Graphs.empty()) {
    File << ",\n \"graphs\": [";
    for (size_t I = 0; I < C->Graphs.size(); ++I)
      File << (I ? ",\n  " : "\n  ") << C->Graphs[I].dump();
    File << "\n ]";
  }
  File << "}\n";
  File.close();
  if (!File)
    std::fprintf(stderr, "smc: cannot write SMC_STATS file '%s'\n",
                 C->Path.c_str());
}

nlohmann::ordered_json toJson(const LaunchRecord &R) {
  nlohmann::ordered_json J;
  J["kernel"] = R.Kernel;
  J["mangled"] = R.Mangled;
  if (R.Locality)
    J["locality"] = R.Locality;
  J["device"] = R.Device;
  J["variant"] = R.Variant;
  if (!R.Reason.empty())
    J["reason"] = R.Reason;
  if (!R.Auto.empty())
    J["auto"] = R.Auto;
  if (!R.LocalityChoice.empty())
    J["locality_choice"] = R.LocalityChoice;
  if (!R.Remap.empty())
    J["remap"] = R.Remap;
  J["grid"] = {R.Grid[0], R.Grid[1], R.Grid[2]};
  J["block"] = {R.Block[0], R.Block[1], R.Block[2]};
  J["shared_mem"] = R.SharedMem;
  if (R.Mode) {
    J["mode"] = R.Mode;
    if (R.Order)
      J["order"] = R.Order;
    J["ordered"] = R.Ordered;
    J["target"] = R.Target;
    J["claim_batch"] = R.ClaimBatch;
    J["workers"] = R.Workers;
  }
  if (R.Slices) {
    J["slices"] = R.Slices;
    J["slice_size"] = R.SliceSize;
  }
  if (R.Captured) {
    J["captured"] = true;
    if (R.Mode)
      J["stats"] = "not collected: launched during stream capture";
  }
  size_t S = R.NumSlots;
  if (R.Mode && R.Counts.size() == SMC_STATS_WORDS(S)) {
    const uint32_t *W = R.Counts.data();
    J["chunks_per_sm"] = std::vector<uint32_t>(W + SMC_STATS_CHUNKS_ON(s, 0),
                                               W + SMC_STATS_CHUNKS_ON(s, S));
    J["workers_per_sm"] = std::vector<uint32_t>(W + SMC_STATS_WORKERS_ON(S, 0),
                                                W + SMC_STATS_WORKERS_ON(S, S));
    J["stolen"] = W[SMC_STATS_WORD(S, SMC_STATS_STOLEN)];
    J["retreated"] = W[SMC_STATS_WORD(S, SMC_STATS_RETREATED)];
    J["out_of_range_smid"] = W[SMC_STATS_WORD(S, SMC_STATS_OUT_OF_RANGE_SMID)];
    J["left"] = W[SMC_STATS_WORD(S, SMC_STATS_LEFT)];
  }
  if (!R.Error.empty())
    J["error"] = R.Error;
  return J;
}

} // namespace

bool enabled() { return collector() != nullptr; }

void record(const LaunchRecord &Launch, const std::string &DeviceName) {
  Collector *C = collector();
  if (!C)
    return;
  nlohmann::ordered_json J = toJson(Launch);
  Guard Lock(C->Mutex);
  if (!C->HaveDevice) {
    C->DeviceName = DeviceName;
    C->HaveDevice = true;
  }
  C->Launches.push_back(std::move(J));
}

void recordGraph(const GraphRecord &Graph) {
  Collector *C = collector();
  if (!C)
    return;
  nlohmann::ordered_json J;
  J["laid_out"] = Graph.Reason.empty();
  if (!Graph.Reason.empty())
    J["reason"] = Graph.Reason;
  J["co_run_sets"] = Graph.CoRunSets;
  J["branches"] = Graph.Branches;
  J["trials"] = Graph.Trials;
  J["layout"] = Graph.Layout;
  J["original_ms"] = Graph.OriginalMs;
  J["layout_ms"] = Graph.LayoutMs;
  Guard Lock(C->Mutex);
  C->Graphs.push_back(std::move(J));
}

} // namespace stats
} // namespace smc
