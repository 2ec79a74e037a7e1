//===- QueuePlan.h - What one launch of a kernel runs -----------*- C++ -*-===//
//
// Turns a policy, what the plugin built for a kernel, what the device offers
// and the launch's grid into a plan: run the original, run the SM-centric
// variant with these per-SM chunk queues and targets, or run these slices.
// When the policy cannot be honoured the plan is refused with a reason and
// the runtime runs the original.  Pure C++: no CUDA, unit tested on the CPU.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_QUEUEPLAN_H
#define SMC_RUNTIME_QUEUEPLAN_H

#include "smc/abi.h"
#include "smc/smc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace smc {

// What the plugin left for the kernel (from its SmcKernelInfo record).
struct KernelFacts {
  bool hasSmc = false;
  bool hasSlice = false;
  bool oneChunk = false; // __smc must run in SMC_MODE_ONE_CHUNK
  bool ordered = false;  // __smc must claim chunks in blockIdx order
  uint32_t smcRefusal = SMC_REFUSAL_NONE;
  uint32_t sliceRefusal = SMC_REFUSAL_NONE;

  static KernelFacts fromInfo(const SmcKernelInfo &info);
};

// What the device offers this launch (block size and dynamic shared memory
// as given).
struct DeviceFacts {
  unsigned numSMs = 0;            // SMs = num_slots of the per-SM tables
  unsigned variantFitPerSM = 0;   // __smc workers that fit on one SM
  unsigned originalOccupancy = 0; // original CTAs that fit on one SM
};

struct GridSize {
  uint32_t x = 1, y = 1, z = 1;
};

// Launches of one grid dimension may have at most this many CTAs.
constexpr uint32_t kMaxGridX = 0x7fffffffu;
// The largest grid an SM-centric plan builds queues for (its chunk table
// takes 4 bytes per chunk on host and device).
constexpr uint32_t kMaxQueuedChunks = 1u << 27;

struct QueuePlan {
  Variant variant = Variant::Original;
  uint32_t numChunks = 0; // x * y * z of the original grid
  GridSize grid;

  // SMCentric.
  SmcMode mode = SMC_MODE_LOOP;
  uint32_t numSlots = 0;             // = DeviceFacts::numSMs
  uint32_t target = 0;               // active workers wanted per SM of the set
  uint32_t workers = 0;              // CTAs of the __smc launch
  std::vector<uint32_t> queueStart;  // [numSlots + 1]
  std::vector<uint32_t> queueChunks; // [numChunks]
  std::vector<uint32_t> slotTarget;  // [numSlots]
  // 0: queues are read from queueChunks; k > 0: queue s holds
  // first, first + k, ... (SmcDescriptor::queue_stride).
  uint32_t queueStride = 0;
  uint32_t busyQueues = 0; // queues with at least one chunk
  // Ordered mode (SmcDescriptor::ordered): queue 0 holds every chunk in
  // blockIdx order and every worker claims from it.
  bool ordered = false;
  // Set when the plan honours the policy only in part (one-chunk mode,
  // ordered mode).
  std::string note;

  // Slice: slice i covers chunks [i * sliceSize, min((i+1) * sliceSize, N)).
  uint32_t sliceSize = 0;
  uint32_t numSlices() const;
  uint32_t sliceOffset(uint32_t index) const;
  uint32_t sliceCount(uint32_t index) const;
};

// Plans one launch.  Returns true with `plan` filled in, or false with
// `reason` saying why the launch must run the original kernel instead.
bool makeQueuePlan(const Policy &policy, const KernelFacts &kernel,
                   const DeviceFacts &device, GridSize grid, QueuePlan &plan,
                   std::string &reason);

} // namespace smc

#endif // SMC_RUNTIME_QUEUEPLAN_H
