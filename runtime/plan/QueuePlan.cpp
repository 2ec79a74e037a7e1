//===- QueuePlan.cpp - What one launch of a kernel runs -------------------===//
//
// Builds the per-SM chunk queues (contiguous, interleaved, from a table or
// from clusters of neighbouring chunks), the per-SM targets and the worker
// count of an SM-centric launch, and the slice split of a sliced one.  See
// QueuePlan.h.
//===----------------------------------------------------------------------===//
#include "plan/QueuePlan.h"
#include "plan/ChunkClusters.h"

#include <algorithm>

namespace smc {

uint32_t contiguousRange(uint32_t Chunk, uint32_t Chunks, uint32_t Ranges) {
  // The first `Extra` ranges have Base + 1 chunks.  When Base is 0 every
  // chunk lies in the first part.
  uint32_t Base = Chunks / Ranges, Extra = Chunks % Ranges;
  uint64_t BigPart = uint64_t(Extra) * (Base + 1);
  if (Chunk < BigPart)
    return Chunk / (Base + 1);
  return Extra + (Chunk - uint32_t(BigPart)) / Base;
}

namespace {

std::string missingVariant(const char *Variant, uint32_t Refusal) {
  if (Refusal == SMC_REFUSAL_NONE)
    return std::string("the plugin built no ") + Variant;
  return std::string("no ") + Variant + ": " + smcRefusalText(Refusal);
}

const char *ShapeText = "at this block size and dynamic shared memory";

// The launch's SM set in policy order, duplicates removed; empty policy set
// means every SM.
bool smSet(const Policy &Policy, unsigned NumSMs, std::vector<uint32_t> &Set,
           std::string &Reason) {
  Set.clear();
  if (Policy.sms.empty()) {
    for (unsigned Sm = 0; Sm < NumSMs; ++Sm)
      Set.push_back(Sm);
    return true;
  }
  std::vector<bool> Seen(NumSMs, false);
  for (unsigned Sm : Policy.sms) {
    if (Sm >= NumSMs) {
      Reason = "SM " + std::to_string(Sm) +
               " in sms is out of range: the device has " +
               std::to_string(NumSMs) + " SMs (0-" +
               std::to_string(NumSMs - 1) + ")";
      return false;
    }
    if (!Seen[Sm]) {
      Seen[Sm] = true;
      Set.push_back(Sm);
    }
  }
  return true;
}

// Fills QueueStart and QueueChunks: chunk c goes to the queue of SM
// `SmOfChunk(c)`; chunks are in increasing order within each queue.
template <typename ChunkToSm>
void fillQueues(QueuePlan &Plan, ChunkToSm SmOfChunk) {
  uint32_t N = Plan.NumChunks;
  std::vector<uint32_t> Counts(Plan.NumSlots, 0);
  for (uint32_t C = 0; C < N; ++C)
    ++Counts[SmOfChunk(C)];
  Plan.QueueStart.assign(Plan.NumSlots + 1, 0);
  for (uint32_t S = 0; S < Plan.NumSlots; ++S)
    Plan.QueueStart[S + 1] = Plan.QueueStart[S] + Counts[S];
  std::vector<uint32_t> Cursor(Plan.QueueStart.begin(),
                               Plan.QueueStart.end() - 1);
  Plan.QueueChunks.assign(N, 0);
  for (uint32_t C = 0; C < N; ++C)
    Plan.QueueChunks[Cursor[SmOfChunk(C)]++] = C;
}

bool planQueues(const Policy &Policy, const std::vector<uint32_t> &Set,
                QueuePlan &Plan, std::string &Reason) {
  uint32_t N = Plan.NumChunks;
  uint32_t K = static_cast<uint32_t>(Set.size());
  switch (Policy.order) {
  case ChunkOrder::Contiguous: {
    // The i-th SM of the set gets the i-th of k ranges.
    fillQueues(Plan, [&](uint32_t C) { return Set[contiguousRange(C, N, K)]; });
    Plan.QueueStride = 1;
    return true;
  }
  case ChunkOrder::Interleaved:
    fillQueues(Plan, [&](uint32_t C) { return Set[C % K]; });
    Plan.QueueStride = K;
    return true;
  case ChunkOrder::Table: {
    const std::vector<unsigned> &Table = Policy.chunkToSM;
    if (Table.size() != N) {
      Reason = "the chunk table has " + std::to_string(Table.size()) +
               " entries but the grid has " + std::to_string(N) + " chunks";
      return false;
    }
    std::vector<bool> InSet(Plan.NumSlots, false);
    for (uint32_t Sm : Set)
      InSet[Sm] = true;
    for (uint32_t C = 0; C < N; ++C) {
      if (Table[C] >= Plan.NumSlots || !InSet[Table[C]]) {
        Reason = "the chunk table puts chunk " + std::to_string(C) + " on SM " +
                 std::to_string(Table[C]) +
                 ", which is not in the launch's SM set";
        return false;
      }
    }
    fillQueues(Plan, [&](uint32_t C) { return Table[C]; });
    return true;
  }
  case ChunkOrder::Cluster: {
    // Default size: the per-SM target, so that each wave of an SM's active
    // workers takes one cluster.
    ClusterExtent Extent;
    if (!clusterExtent(Policy, Plan.Target, Extent, Reason))
      return false;
    dealClusters(Plan.Grid, Extent, Set, Plan.NumSlots, Plan.QueueStart,
                 Plan.QueueChunks);
    return true;
  }
  }
  Reason = "unknown chunk order";
  return false;
}

bool planSmCentric(const Policy &Policy, const KernelFacts &Kernel,
                   const DeviceFacts &Device, QueuePlan &Plan,
                   std::string &Reason) {
  if (!Kernel.HasSmc) {
    Reason = missingVariant("SM-centric variant", Kernel.SmcRefusal);
    return false;
  }
  if (Device.NumSMs == 0) {
    Reason = "the device reports no SMs";
    return false;
  }
  if (Plan.NumChunks > MaxQueuedChunks) {
    Reason = "the grid of " + std::to_string(Plan.NumChunks) +
             " CTAs is larger than SM-centric queues allow (" +
             std::to_string(MaxQueuedChunks) + ")";
    return false;
  }
  std::vector<uint32_t> Set;
  if (!smSet(Policy, Device.NumSMs, Set, Reason))
    return false;

  unsigned Fit = Device.VariantFitPerSm;
  if (Fit == 0) {
    Reason = std::string("the SM-centric variant does not fit on an SM ") +
             ShapeText;
    return false;
  }
  Plan.Mode = Kernel.OneChunk ? SMC_MODE_ONE_CHUNK : SMC_MODE_LOOP;
  uint32_t Target;
  if (Policy.workersPerSM != 0) {
    Target = Policy.workersPerSM;
    if (Plan.Mode == SMC_MODE_LOOP && Target > Fit) {
      Reason = "workers=" + std::to_string(Target) + " is more than the " +
               std::to_string(Fit) + " SM-centric workers that fit on one SM " +
               ShapeText;
      return false;
    }
  } else {
    Target = std::min(Device.OriginalOccupancy, Fit);
    if (Target == 0) {
      Reason =
          std::string("the original kernel does not fit on an SM ") + ShapeText;
      return false;
    }
  }

  Plan.OriginalReason =
      originalSuffices(Policy, Plan.Mode == SMC_MODE_ONE_CHUNK, Plan.NumChunks,
                       Target, Device.NumSMs);
  if (!Plan.OriginalReason.empty())
    return true; // Variant::Original

  Plan.Variant = Variant::SMCentric;
  Plan.NumSlots = Device.NumSMs;
  Plan.Target = Target;
  Plan.FitPerSM = Fit;
  Plan.Ordered = Kernel.Ordered;
  if (Plan.Ordered) {
    // One grid-wide sequence: queue 0 is every chunk in blockIdx order.
    Plan.QueueStart.assign(Plan.NumSlots + 1, Plan.NumChunks);
    Plan.QueueStart[0] = 0;
    Plan.QueueChunks = {0};
    Plan.QueueStride = 1;
    if (Policy.order != ChunkOrder::Interleaved)
      Plan.Note = "ordered mode (its CTAs wait on each other) claims chunks "
                  "in blockIdx order from one grid-wide sequence: the "
                  "chunk order of the policy does not apply";
  } else if (!planQueues(Policy, Set, Plan, Reason)) {
    return false;
  }
  Plan.SlotTarget.assign(Plan.NumSlots, 0);
  for (uint32_t Sm : Set)
    Plan.SlotTarget[Sm] = Target;
  Plan.BusyQueues = 0;
  for (uint32_t S = 0; S < Plan.NumSlots; ++S)
    Plan.BusyQueues += Plan.QueueStart[S + 1] > Plan.QueueStart[S];

  if (Plan.Mode == SMC_MODE_LOOP) {
    // Filling-retreating: fill every SM with as many workers as fit; on
    // each SM those beyond its target retreat at once.  On every SM no
    // more workers than chunks, but at least the target on each SM, so
    // that every SM's queue has its workers.
    Plan.Workers = Fit * Plan.NumSlots;
    if (Set.size() == Plan.NumSlots)
      Plan.Workers = std::min(Plan.Workers,
                              std::max(Plan.NumChunks, Target * Plan.NumSlots));
    if (!Plan.Ordered)
      Plan.ClaimBatch =
          claimBatch(Plan.NumChunks, static_cast<uint32_t>(Set.size()), Target);
  } else {
    Plan.Workers = Plan.NumChunks;
    if (Policy.workersPerSM != 0 || !Policy.sms.empty()) {
      if (!Plan.Note.empty())
        Plan.Note += "; ";
      Plan.Note += "one-chunk mode (threads may exit before a barrier) gives "
                   "every chunk its own worker, wherever it runs: workers= "
                   "and sms= are not honoured";
      if (!Plan.Ordered)
        Plan.Note += "; chunk queues follow the SM set and workers on other "
                     "SMs steal from them";
    }
  }
  return true;
}

bool planSlice(const Policy &Policy, const KernelFacts &Kernel, QueuePlan &Plan,
               std::string &Reason) {
  if (!Kernel.HasSlice) {
    Reason = missingVariant("slice variant", Kernel.SliceRefusal);
    return false;
  }
  uint32_t Size = Policy.sliceSize == 0
                      ? Plan.NumChunks
                      : std::min<uint32_t>(Policy.sliceSize, Plan.NumChunks);
  if (Size > MaxGridX) {
    Size = MaxGridX;
    Plan.Note = "slices are limited to " + std::to_string(MaxGridX) +
                " chunks (the largest grid)";
  }
  Plan.Variant = Variant::Slice;
  Plan.SliceSize = Size;
  return true;
}

} // namespace

std::string originalSuffices(const Policy &Policy, bool OneChunk,
                             uint32_t NumChunks, uint32_t Target,
                             unsigned NumSMs) {
  if (!Policy.sms.empty() || Policy.order != ChunkOrder::Interleaved)
    return "";
  if (OneChunk)
    return "one chunk per worker: every CTA runs where the hardware puts it, "
           "as the original's; workers would only add their claims";
  bool Fits =
      NumChunks <= Target || (Policy.workersPerSM == 0 &&
                              uint64_t(NumChunks) <= uint64_t(Target) * NumSMs);
  if (!Fits)
    return "";
  return "one wave: its " + std::to_string(NumChunks) +
         (NumChunks == 1 ? " CTA runs" : " CTAs run") + " at most " +
         std::to_string(Target) + " per SM as the original; workers would " +
         "only add their claims";
}

uint32_t claimBatch(uint32_t NumChunks, uint32_t Sms, uint32_t Target) {
  uint64_t Workers = uint64_t(std::max(Sms, 1u)) * std::max(Target, 1u);
  uint64_t PerWorker = NumChunks / Workers;
  return static_cast<uint32_t>(
      std::clamp<uint64_t>(PerWorker / 8, 1, MaxClaimBatch));
}

KernelFacts KernelFacts::fromInfo(const SmcKernelInfo &Info) {
  KernelFacts Facts;
  Facts.HasSmc = (Info.flags & SMC_INFO_HAS_SMC) != 0;
  Facts.HasSlice = (Info.flags & SMC_INFO_HAS_SLICE) != 0;
  Facts.OneChunk = (Info.flags & SMC_INFO_ONE_CHUNK) != 0;
  Facts.Ordered = (Info.flags & SMC_INFO_ORDERED) != 0;
  Facts.SmcRefusal = Info.smc_refusal;
  Facts.SliceRefusal = Info.slice_refusal;
  Facts.Locality =
      Info.locality < SMC_LOCALITY_COUNT ? Info.locality : SMC_LOCALITY_UNKNOWN;
  return Facts;
}

uint32_t QueuePlan::numSlices() const {
  if (SliceSize == 0)
    return 0;
  return static_cast<uint32_t>((uint64_t(NumChunks) + SliceSize - 1) /
                               SliceSize);
}

uint32_t QueuePlan::sliceOffset(uint32_t Index) const {
  return static_cast<uint32_t>(uint64_t(Index) * SliceSize);
}

uint32_t QueuePlan::sliceCount(uint32_t Index) const {
  uint64_t Begin = uint64_t(Index) * SliceSize;
  uint64_t End = std::min<uint64_t>(Begin + SliceSize, NumChunks);
  return Begin < End ? static_cast<uint32_t>(End - Begin) : 0;
}

SliceLaunch QueuePlan::sliceLaunch(uint32_t Index) const {
  SliceLaunch L;
  L.Offset = sliceOffset(Index);
  L.X = sliceCount(Index);
  uint32_t X = Grid.X, Y = Grid.Y;
  if (uint64_t(Y) * Grid.Z == 1 || L.X == 0 || L.Offset % X || L.X % X)
    return L;
  uint32_t Rows = L.X / X, Row = L.Offset / X;
  uint32_t FirstY = Row % Y, FirstZ = Row / Y;
  if (Rows < 2)
    return L;
  if (FirstY + Rows <= Y) { // rows within one plane
    L = SliceLaunch{X, Rows, 1, 0, FirstY, FirstZ};
  } else if (FirstY == 0 && Rows % Y == 0) { // whole planes
    L = SliceLaunch{X, Y, Rows / Y, 0, 0, FirstZ};
  }
  return L;
}

bool makeQueuePlan(const Policy &Policy, const KernelFacts &Kernel,
                   const DeviceFacts &Device, GridSize Grid, QueuePlan &Plan,
                   std::string &Reason) {
  Plan = QueuePlan();
  Plan.Grid = Grid;
  uint64_t Chunks = uint64_t(Grid.X) * Grid.Y * Grid.Z;
  if (Policy.variant == Variant::Original) {
    Plan.NumChunks =
        static_cast<uint32_t>(std::min<uint64_t>(Chunks, UINT32_MAX));
    return true;
  }
  if (Chunks == 0) {
    Reason = "the grid is empty";
    return false;
  }
  if (Chunks > UINT32_MAX) {
    Reason =
        "the grid's " + std::to_string(Chunks) + " CTAs do not fit in 32 bits";
    return false;
  }
  Plan.NumChunks = static_cast<uint32_t>(Chunks);
  bool Ok = Policy.variant == Variant::Slice
                ? planSlice(Policy, Kernel, Plan, Reason)
                : planSmCentric(Policy, Kernel, Device, Plan, Reason);
  if (!Ok) {
    QueuePlan Empty;
    Empty.Grid = Grid;
    Empty.NumChunks = Plan.NumChunks;
    Plan = std::move(Empty);
  }
  return Ok;
}

} // namespace smc
