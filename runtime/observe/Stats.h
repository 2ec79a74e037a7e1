//===- Stats.h - SMC_STATS launch records -----------------------*- C++ -*-===//
//
// With SMC_STATS=<file> the runtime records every launch it handles and
// writes them, at process exit, as
//   {"device": "<name>", "launches": [ {...}, ... ]}
// followed, where graph layouts recorded any, by "graphs": [ {...}, ... ].
// For an SM-centric launch the record holds the counts the variant wrote
// into its statistics block (chunks and active workers per SM, stolen
// chunks, retreated workers, workers on SMs outside the tables).  To read
// them the runtime synchronizes the launch's stream after each launch and
// holds a lock across launch and read-back: SMC_STATS serializes launches
// and costs their overlap.  Launches made while their stream is capturing
// are recorded without counts.  SMC_DISABLE=1 launches are not recorded.
//
// Internal to the runtime; CUDA-free.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_OBSERVE_STATS_H
#define SMC_RUNTIME_OBSERVE_STATS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace smc {
namespace stats {

// True when SMC_STATS names a file (read once, on the first call).
bool enabled();

// One launch, as the statistics file records it.
struct LaunchRecord {
  std::string Kernel;  // source name
  std::string Mangled; // mangled name
  // CTA locality class from the kernel's info record (smcLocalityText), or
  // null when the record could not be read.
  const char *Locality = nullptr;
  int Device = 0;
  const char *Variant = "original"; // "original", "smc" or "slice"
  std::string Reason; // why the original ran instead of the policy's choice
  std::string Auto;   // policy auto: what the co-run scheduler chose, and why
  // Policy locality: "trial of <placement>", or what was chosen and why.
  std::string LocalityChoice;
  std::string Remap; // policy remap's trial or choice
  unsigned Grid[3] = {1, 1, 1};
  unsigned Block[3] = {1, 1, 1};
  size_t SharedMem = 0;
  bool Captured = false; // launched during stream capture: no counts
  std::string Error;     // what went wrong launching or reading counts
  // SMCentric.
  const char *Mode = nullptr;  // "loop" or "one_chunk"
  const char *Order = nullptr; // the policy's chunk order (chunkOrderName)
  bool Ordered = false;        // chunks claimed in blockIdx order
  unsigned Target = 0;
  // Own-queue chunks one claim takes, as launched (the plan's, or 1 on a
  // partitioned stream).
  unsigned ClaimBatch = 1;
  unsigned Workers = 0;
  unsigned NumSlots = 0;
  std::vector<uint32_t> Counts; // SMC_STATS_WORDS(NumSlots) words, or empty
  // Slice.
  unsigned Slices = 0;
  unsigned SliceSize = 0;
};

// Adds a record.  The first record's DeviceName becomes the file's
// "device"; each record also carries its device ordinal.
void record(const LaunchRecord &Launch, const std::string &DeviceName);

// What graph layouts (graphs/) did with one executable graph: why it is not
// laid out, or the layout its search settled on.  Written as the file's
// "graphs" list.
struct GraphRecord {
  std::string Reason; // empty: laid out
  unsigned CoRunSets = 0;
  unsigned Branches = 0;
  unsigned Trials = 0;
  std::string Layout; // "original": the graph as instantiated
  double OriginalMs = 0;
  double LayoutMs = 0;
};
void recordGraph(const GraphRecord &Graph);

} // namespace stats
} // namespace smc

#endif // SMC_RUNTIME_OBSERVE_STATS_H
