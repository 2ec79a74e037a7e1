//===- Workload.cpp - Names, parameters and results of the workload suite -===//
//
// The parts of Workload.h that are not the registry itself: size, category
// and feature names, parameter resolution and overrides, CheckResult
// formatting.  Plain C++, no CUDA.
//===----------------------------------------------------------------------===//
#include "Workload.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace smc {
namespace workloads {

bool Workload::chunkReads(ChunkReads &) const { return false; }

Workload::~Workload() = default;

const char *sizeName(Size size) {
  switch (size) {
  case Size::Small:
    return "small";
  case Size::Default:
    return "default";
  case Size::Large:
    return "large";
  }
  return "?";
}

bool parseSize(const std::string &text, Size &out) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  for (Size s : {Size::Small, Size::Default, Size::Large}) {
    if (lower == sizeName(s)) {
      out = s;
      return true;
    }
  }
  return false;
}

const char *regularityName(Regularity regularity) {
  return regularity == Regularity::Regular ? "regular" : "irregular";
}

const char *localityName(Locality locality) {
  switch (locality) {
  case Locality::Unclassified:
    return "-";
  case Locality::AlgorithmRelated:
    return "algorithm-related";
  case Locality::CacheLineRelated:
    return "cache-line-related";
  case Locality::DataRelated:
    return "data-related";
  case Locality::WriteRelated:
    return "write-related";
  case Locality::Streaming:
    return "streaming";
  }
  return "?";
}

std::string paperList(unsigned papers) {
  std::string out;
  auto add = [&](unsigned bit, const char *name) {
    if (!(papers & bit))
      return;
    if (!out.empty())
      out += ",";
    out += name;
  };
  add(PaperSmCentric, "sm-centric");
  add(PaperKernelet, "kernelet");
  add(PaperCtaClustering, "cta-clustering");
  add(PaperGStreamline, "g-streamline");
  return out;
}

std::string featureList(unsigned features) {
  static const std::pair<unsigned, const char *> names[] = {
      {FeatureSharedMemory, "shared"},
      {FeatureBarriers, "barriers"},
      {FeatureEarlyExitBeforeBarrier, "early-exit-before-barrier"},
      {FeatureGridStride, "grid-stride"},
      {FeatureIndexArrays, "index-arrays"},
      {FeatureAtomics, "atomics"},
      {FeatureMultiLaunch, "multi-launch"},
      {FeatureWarpShuffle, "warp-shuffle"},
  };
  std::string out;
  for (const auto &entry : names) {
    if (!(features & entry.first))
      continue;
    if (!out.empty())
      out += ",";
    out += entry.second;
  }
  return out;
}

int64_t Params::get(const std::string &name) const {
  for (const auto &entry : entries)
    if (entry.first == name)
      return entry.second;
  throw std::invalid_argument("workload parameter '" + name + "' is not set");
}

bool Params::has(const std::string &name) const {
  for (const auto &entry : entries)
    if (entry.first == name)
      return true;
  return false;
}

void Params::set(const std::string &name, int64_t value) {
  for (auto &entry : entries) {
    if (entry.first == name) {
      entry.second = value;
      return;
    }
  }
  entries.emplace_back(name, value);
}

std::string Params::str() const {
  std::string out;
  for (const auto &entry : entries) {
    if (!out.empty())
      out += ",";
    out += entry.first + "=" + std::to_string(entry.second);
  }
  return out;
}

void CheckResult::merge(const CheckResult &other) {
  if (checked == 0 && failures == 0 && metric.empty()) {
    *this = other;
    return;
  }
  bool wasOk = ok;
  ok = ok && other.ok;
  if (other.metric != metric && !other.metric.empty())
    metric += "; " + other.metric;
  maxError = std::max(maxError, other.maxError);
  tolerance = std::max(tolerance, other.tolerance);
  checked += other.checked;
  failures += other.failures;
  if (wasOk && !other.ok)
    detail = other.detail + (detail.empty() ? "" : "; " + detail);
  else if (!other.detail.empty() && (ok || !other.ok))
    detail += (detail.empty() ? "" : "; ") + other.detail;
}

std::string CheckResult::summary() const {
  std::ostringstream os;
  os.precision(3);
  os << (ok ? "ok" : "FAILED") << " max_err=" << maxError
     << " tol=" << tolerance << " (" << metric << ") checked=" << checked;
  if (failures)
    os << " failures=" << failures;
  if (!detail.empty())
    os << " [" << detail << "]";
  return os.str();
}

Params WorkloadInfo::params(Size size) const {
  Params p;
  for (const ParamSpec &spec : paramSpecs) {
    int64_t value = size == Size::Small     ? spec.small
                    : size == Size::Default ? spec.normal
                                            : spec.large;
    p.set(spec.name, value);
  }
  return p;
}

Params WorkloadInfo::params(Size size, const std::string &overrides) const {
  Params p = params(size);
  std::stringstream items(overrides);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.empty())
      continue;
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq);
    if (eq == std::string::npos || !p.has(key))
      throw std::invalid_argument(std::string("workload ") + name +
                                  ": bad parameter override '" + item +
                                  "' (parameters: " + params(size).str() + ")");
    std::string text = item.substr(eq + 1);
    size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(text, &used, 0);
    } catch (const std::exception &) {
      used = 0;
    }
    if (used == 0 || used != text.size())
      throw std::invalid_argument(std::string("workload ") + name +
                                  ": bad value in '" + item + "'");
    p.set(key, value);
  }
  return p;
}

std::unique_ptr<Workload> setUpWorkload(const WorkloadInfo &info, Size size,
                                        uint64_t seed) {
  std::unique_ptr<Workload> workload = info.create();
  workload->setup(info.params(size), seed);
  return workload;
}

const WorkloadInfo *findWorkload(const std::string &name) {
  for (const WorkloadInfo *info : allWorkloads())
    if (name == info->name)
      return info;
  return nullptr;
}

} // namespace workloads
} // namespace smc
