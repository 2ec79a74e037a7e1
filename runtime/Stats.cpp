//===- Stats.cpp - SMC_STATS launch records -------------------------------===//
//
// Turns launch records into JSON (nlohmann::json) and writes the file named
// by SMC_STATS from an atexit handler.  Only host data is touched at exit:
// no CUDA call runs there.
//===----------------------------------------------------------------------===//
#include "Stats.h"

#include "smc/abi.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>

namespace smc {
namespace stats {
namespace {

struct Collector {
  std::string path;
  std::mutex mutex;
  std::string deviceName;
  bool haveDevice = false;
  std::vector<nlohmann::ordered_json> launches;
};

void writeAtExit();

// Null when SMC_STATS is unset or empty.  Never destroyed, so it outlives
// every static destructor that might still launch.
Collector *collector() {
  static Collector *instance = [] {
    const char *path = std::getenv("SMC_STATS");
    if (!path || !*path)
      return static_cast<Collector *>(nullptr);
    Collector *c = new Collector;
    c->path = path;
    std::atexit(writeAtExit);
    return c;
  }();
  return instance;
}

void writeAtExit() {
  Collector *c = collector();
  std::lock_guard<std::mutex> lock(c->mutex);
  // One launch per line: readable, and small for long runs.
  std::ofstream file(c->path);
  file << "{\"device\": " << nlohmann::json(c->deviceName).dump()
       << ",\n \"launches\": [";
  for (size_t i = 0; i < c->launches.size(); ++i)
    file << (i ? ",\n  " : "\n  ") << c->launches[i].dump();
  file << "\n ]}\n";
  file.close();
  if (!file)
    std::fprintf(stderr, "smc: cannot write SMC_STATS file '%s'\n",
                 c->path.c_str());
}

nlohmann::ordered_json toJson(const LaunchRecord &r) {
  nlohmann::ordered_json j;
  j["kernel"] = r.kernel;
  j["mangled"] = r.mangled;
  j["device"] = r.device;
  j["variant"] = r.variant;
  if (!r.reason.empty())
    j["reason"] = r.reason;
  j["grid"] = {r.grid[0], r.grid[1], r.grid[2]};
  j["block"] = {r.block[0], r.block[1], r.block[2]};
  j["shared_mem"] = r.sharedMem;
  if (r.mode) {
    j["mode"] = r.mode;
    j["ordered"] = r.ordered;
    j["target"] = r.target;
    j["workers"] = r.workers;
  }
  if (r.slices) {
    j["slices"] = r.slices;
    j["slice_size"] = r.sliceSize;
  }
  if (r.captured) {
    j["captured"] = true;
    if (r.mode)
      j["stats"] = "not collected: launched during stream capture";
  }
  size_t s = r.numSlots;
  if (r.mode && r.counts.size() == SMC_STATS_WORDS(s)) {
    const uint32_t *w = r.counts.data();
    j["chunks_per_sm"] = std::vector<uint32_t>(w + SMC_STATS_CHUNKS_ON(s, 0),
                                               w + SMC_STATS_CHUNKS_ON(s, s));
    j["workers_per_sm"] = std::vector<uint32_t>(w + SMC_STATS_WORKERS_ON(s, 0),
                                                w + SMC_STATS_WORKERS_ON(s, s));
    j["stolen"] = w[SMC_STATS_WORD(s, SMC_STATS_STOLEN)];
    j["retreated"] = w[SMC_STATS_WORD(s, SMC_STATS_RETREATED)];
    j["out_of_range_smid"] = w[SMC_STATS_WORD(s, SMC_STATS_OUT_OF_RANGE_SMID)];
  }
  if (!r.error.empty())
    j["error"] = r.error;
  return j;
}

} // namespace

bool enabled() { return collector() != nullptr; }

void record(const LaunchRecord &launch, const std::string &deviceName) {
  Collector *c = collector();
  if (!c)
    return;
  nlohmann::ordered_json j = toJson(launch);
  std::lock_guard<std::mutex> lock(c->mutex);
  if (!c->haveDevice) {
    c->deviceName = deviceName;
    c->haveDevice = true;
  }
  c->launches.push_back(std::move(j));
}

} // namespace stats
} // namespace smc
