//===- Config.h - Every SMC_* environment variable, read once ---*- C++ -*-===//
//
// The one place the runtime reads its environment.  config() reads every
// SMC_* variable on its first call (the first launch, or the first API call
// that needs one), checks each value and keeps the result for the process;
// a bad value is told once, with what is used instead.  docs/reference.md
// has the table of variables.  Pure C++: no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_POLICY_CONFIG_H
#define SMC_RUNTIME_POLICY_CONFIG_H

#include "policy/PolicyText.h"
#include "smc/smc.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace smc {

struct Config {
  // SMC_DISABLE=1 (any value but empty and 0): every launch goes straight
  // to the original kernel.
  bool Disabled = false;
  // SMC_POLICY: the rules, in text order.  PolicyBroken when the text does
  // not parse: every kernel then runs the original.
  std::vector<PolicyRule> PolicyRules;
  bool PolicyBroken = false;
  // SMC_STATS=<file>: launch records written at exit (empty: none).
  std::string StatsPath;
  // SMC_TRACE=<file>: per-chunk trace written at exit (empty: none), with
  // room for TraceRecords records per device (SMC_TRACE_RECORDS).
  std::string TracePath;
  uint32_t TraceRecords = DefaultTraceRecords;
  // SMC_PRIORITY: auto, on or off.
  PriorityMode Priority = PriorityMode::Auto;
  // SMC_PROFILE=<file>: kernel profiles for policy auto and smc::Batch.
  std::string ProfilePath;
  // SMC_PROFILE_RECORD=<file>: launches of policy auto record profiles into
  // it instead of being decided.
  std::string ProfileRecordPath;
  // SMC_AUTO_SEARCH: on (co-runs that recur are measured) or off.
  bool AutoSearch = true;
  // SMC_GRAPH_LAYOUTS: off, search or random (docs/graphs.md).
  GraphLayouts GraphLayoutMode = GraphLayouts::Off;
  // SMC_TENANTS: on (processes sharing the GPU meet on a board: tenants/)
  // or off.
  bool Tenants = false;

  static constexpr uint32_t DefaultTraceRecords = 1u << 20;
  static constexpr uint32_t MaxTraceRecords = 1u << 27;
};

// The process's configuration, read from the environment on the first call
// (thread-safe); each bad value is told once on stderr ("smc: ...").
const Config &config();

// The configuration `Lookup` gives (a variable's value, or null when it is
// unset), and one message per bad value in `Messages`: what config() reads.
Config readConfig(const std::function<const char *(const char *)> &Lookup,
                  std::vector<std::string> &Messages);

// SMC_PRIORITY's text ("auto", "on", "off", any case) as a mode.  False with
// `Error` set for anything else.
bool parsePriorityMode(const std::string &Text, PriorityMode &Mode,
                       std::string &Error);

} // namespace smc

#endif // SMC_RUNTIME_POLICY_CONFIG_H
