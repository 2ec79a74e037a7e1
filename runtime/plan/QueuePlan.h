//===- QueuePlan.h - What one launch of a kernel runs -----------*- C++ -*-===//
//
// Turns a policy, what the plugin built for a kernel, what the device offers
// and the launch's grid into a plan: run the original, run the SM-centric
// variant with these per-SM chunk queues and targets, or run these slices.
// When the policy cannot be honoured the plan is refused with a reason and
// the runtime runs the original.  Pure C++: no CUDA, unit tested on the CPU.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PLAN_QUEUEPLAN_H
#define SMC_RUNTIME_PLAN_QUEUEPLAN_H

#include "smc/abi.h"
#include "smc/smc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace smc {

// What the plugin left for the kernel (from its SmcKernelInfo record).
struct KernelFacts {
  bool HasSmc = false;
  bool HasSlice = false;
  bool OneChunk = false; // __smc must run in SMC_MODE_ONE_CHUNK
  bool Ordered = false;  // __smc must claim chunks in blockIdx order
  uint32_t SmcRefusal = SMC_REFUSAL_NONE;
  uint32_t SliceRefusal = SMC_REFUSAL_NONE;
  // Which neighbouring CTAs share data (SmcLocality): for placement policies
  // that cluster CTAs, and for the statistics.
  uint32_t Locality = SMC_LOCALITY_UNKNOWN;

  static KernelFacts fromInfo(const SmcKernelInfo &Info);
};

// What the device offers this launch (block size and dynamic shared memory
// as given).
struct DeviceFacts {
  unsigned NumSMs = 0;            // SMs = num_slots of the per-SM tables
  unsigned VariantFitPerSm = 0;   // __smc workers that fit on one SM
  unsigned OriginalOccupancy = 0; // original CTAs that fit on one SM
};

struct GridSize {
  uint32_t X = 1, Y = 1, Z = 1;
};

// Launches of one grid dimension may have at most this many CTAs.
constexpr uint32_t MaxGridX = 0x7fffffffu;
// The largest grid an SM-centric plan builds queues for (its chunk table
// takes 4 bytes per chunk on host and device).
constexpr uint32_t MaxQueuedChunks = 1u << 27;

// The grid one slice of a __slice launch runs as, and the descriptor fields
// it needs (abi.h); the variant's CTA (x, y, z) runs blockIdx (Offset + x,
// y + FirstY, z + FirstZ) while Offset + x is below the grid's width, else
// Offset + x decomposed with the grid.  A slice of two or more whole rows of
// a 2-D or 3-D grid runs as a grid of that shape (Offset 0), whose CTAs find
// their blockIdx with adds: rows within one z plane as (X, rows, 1) from
// row FirstY of plane FirstZ, or whole planes as (X, Y, planes) from plane
// FirstZ.  Any other slice (and every slice of a 1-D grid, which never
// decomposes) runs as a 1-D grid of its chunks from Offset (FirstY and
// FirstZ 0).
struct SliceLaunch {
  uint32_t X = 0, Y = 1, Z = 1;    // the launch's grid
  uint32_t Offset = 0;             // slice_offset (1-D; rows: 0)
  uint32_t FirstY = 0, FirstZ = 0; // slice_first_y / _z (rows; 1-D: 0)
};

struct QueuePlan {
  Variant Variant = Variant::Original;
  uint32_t NumChunks = 0; // x * y * z of the original grid
  GridSize Grid;

  // SMCentric.
  SmcMode Mode = SMC_MODE_LOOP;
  uint32_t NumSlots = 0; // = DeviceFacts::NumSMs
  uint32_t Target = 0;   // active workers wanted per SM of the set
  uint32_t FitPerSM = 0; // __smc workers that fit on one SM
  // CTAs of the __smc launch.  Loop mode on every SM: no more than the
  // chunks, and never fewer than Target per SM (filling); confined to some
  // SMs: FitPerSM per SM (ConfinedLaunches.h sizes the grid at launch).
  uint32_t Workers = 0;
  std::vector<uint32_t> QueueStart;  // [NumSlots + 1]
  std::vector<uint32_t> QueueChunks; // [NumChunks]
  std::vector<uint32_t> SlotTarget;  // [NumSlots]
  // 0: queues are read from QueueChunks; k > 0: queue s holds
  // first, first + k, ... (SmcDescriptor::queue_stride).
  uint32_t QueueStride = 0;
  uint32_t BusyQueues = 0; // queues with at least one chunk
  // Loop mode, arithmetic queues, not ordered: own-queue positions a worker
  // claims at once (SmcDescriptor::claim_batch, claimBatch below); else 1.
  uint32_t ClaimBatch = 1;
  // Ordered mode (SmcDescriptor::ordered): queue 0 holds every chunk in
  // blockIdx order and every worker claims from it.
  bool Ordered = false;
  // Set when the plan honours the policy only in part (one-chunk mode,
  // ordered mode).
  std::string Note;
  // Variant Original although the policy asked for the SM-centric variant:
  // why the original gives what it asks (originalSuffices below).
  std::string OriginalReason;

  // Slice: slice i covers chunks [i * SliceSize, min((i+1) * SliceSize, N)).
  uint32_t SliceSize = 0;
  uint32_t numSlices() const;
  uint32_t sliceOffset(uint32_t Index) const;
  uint32_t sliceCount(uint32_t Index) const;
  // How slice `Index` is launched (SliceLaunch).
  SliceLaunch sliceLaunch(uint32_t Index) const;
};

// ChunkOrder::Contiguous: the range (0 .. Ranges - 1) that chunk `Chunk` of
// `Chunks` falls in, when the chunks are cut into `Ranges` (at least one)
// ranges in order whose sizes differ by at most one, the first ones the
// larger.  When there are fewer chunks than ranges every chunk lies in a
// range of its own.
uint32_t contiguousRange(uint32_t Chunk, uint32_t Chunks, uint32_t Ranges);

// The largest batch of chunks a worker claims at once.
constexpr uint32_t MaxClaimBatch = SMC_MAX_CLAIM_BATCH;

// Batched claims: how many own-queue positions a worker claims with one
// atomic when \p NumChunks chunks go to \p Sms SMs of \p Target active
// workers each.  An eighth of the chunks each worker would run, between 1
// and MaxClaimBatch: claims and hand-off barriers drop by up to that factor
// for short chunks, while a worker's last batch stays a small part of its
// work, so the launch's tail (which stealing, one chunk at a time, evens
// out) grows by at most about an eighth.
uint32_t claimBatch(uint32_t NumChunks, uint32_t Sms, uint32_t Target);

// Why the original kernel gives exactly what an SM-centric policy asks of
// a grid of `NumChunks` CTAs, or "" when it does not.  It does when the
// policy leaves placement to the hardware (no sms=, the interleaved order)
// and either
//  - the variant runs one chunk per worker (`OneChunk`: it honours neither
//    workers= nor sms=, so each CTA runs where the hardware puts it, as
//    the original's would), or
//  - the grid is one wave that cannot exceed the per-SM target: at most
//    `Target` CTAs, or, when the target is the original's own occupancy
//    (workers not given), at most Target per SM of `NumSMs`.
// Each CTA then is its own worker: the workers' claims, retreats and
// counter resets only add to its time (a one-CTA kernel in a launch loop
// paid about 6 us per launch for them).
std::string originalSuffices(const Policy &Policy, bool OneChunk,
                             uint32_t NumChunks, uint32_t Target,
                             unsigned NumSMs);

// Plans one launch.  Returns true with `plan` filled in, or false with
// `reason` saying why the launch must run the original kernel instead.
bool makeQueuePlan(const Policy &Policy, const KernelFacts &Kernel,
                   const DeviceFacts &Device, GridSize Grid, QueuePlan &Plan,
                   std::string &Reason);

} // namespace smc

#endif // SMC_RUNTIME_PLAN_QUEUEPLAN_H
