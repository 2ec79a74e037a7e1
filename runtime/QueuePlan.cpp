//===- QueuePlan.cpp - What one launch of a kernel runs -------------------===//
//
// Builds the per-SM chunk queues (contiguous, interleaved or from a table),
// the per-SM targets and the worker count of an SM-centric launch, and the
// slice split of a sliced one.  See QueuePlan.h.
//===----------------------------------------------------------------------===//
#include "QueuePlan.h"

#include <algorithm>

namespace smc {
namespace {

std::string missingVariant(const char *variant, uint32_t refusal) {
  if (refusal == SMC_REFUSAL_NONE)
    return std::string("the plugin built no ") + variant;
  return std::string("no ") + variant + ": " + smcRefusalText(refusal);
}

const char *kShapeText = "at this block size and dynamic shared memory";

// The launch's SM set in policy order, duplicates removed; empty policy set
// means every SM.
bool smSet(const Policy &policy, unsigned numSMs, std::vector<uint32_t> &set,
           std::string &reason) {
  set.clear();
  if (policy.sms.empty()) {
    for (unsigned sm = 0; sm < numSMs; ++sm)
      set.push_back(sm);
    return true;
  }
  std::vector<bool> seen(numSMs, false);
  for (unsigned sm : policy.sms) {
    if (sm >= numSMs) {
      reason = "SM " + std::to_string(sm) +
               " in sms is out of range: the device has " +
               std::to_string(numSMs) + " SMs (0-" +
               std::to_string(numSMs - 1) + ")";
      return false;
    }
    if (!seen[sm]) {
      seen[sm] = true;
      set.push_back(sm);
    }
  }
  return true;
}

// Fills queueStart and queueChunks: chunk c goes to the queue of SM
// `smOfChunk(c)`; chunks are in increasing order within each queue.
template <typename SmOfChunk>
void fillQueues(QueuePlan &plan, SmOfChunk smOfChunk) {
  uint32_t n = plan.numChunks;
  std::vector<uint32_t> counts(plan.numSlots, 0);
  for (uint32_t c = 0; c < n; ++c)
    ++counts[smOfChunk(c)];
  plan.queueStart.assign(plan.numSlots + 1, 0);
  for (uint32_t s = 0; s < plan.numSlots; ++s)
    plan.queueStart[s + 1] = plan.queueStart[s] + counts[s];
  std::vector<uint32_t> cursor(plan.queueStart.begin(),
                               plan.queueStart.end() - 1);
  plan.queueChunks.assign(n, 0);
  for (uint32_t c = 0; c < n; ++c)
    plan.queueChunks[cursor[smOfChunk(c)]++] = c;
}

bool planQueues(const Policy &policy, const std::vector<uint32_t> &set,
                QueuePlan &plan, std::string &reason) {
  uint32_t n = plan.numChunks;
  uint32_t k = static_cast<uint32_t>(set.size());
  switch (policy.order) {
  case ChunkOrder::Contiguous: {
    // The i-th SM of the set gets the i-th of k ranges whose sizes differ
    // by at most one: the first `extra` ranges have base + 1 chunks.  When
    // base is 0 every chunk lies in the first part.
    uint32_t base = n / k, extra = n % k;
    auto rangeOf = [=](uint32_t c) -> uint32_t {
      uint64_t bigPart = uint64_t(extra) * (base + 1);
      if (c < bigPart)
        return c / (base + 1);
      return extra + (c - uint32_t(bigPart)) / base;
    };
    fillQueues(plan, [&](uint32_t c) { return set[rangeOf(c)]; });
    plan.queueStride = 1;
    return true;
  }
  case ChunkOrder::Interleaved:
    fillQueues(plan, [&](uint32_t c) { return set[c % k]; });
    plan.queueStride = k;
    return true;
  case ChunkOrder::Table: {
    const std::vector<unsigned> &table = policy.chunkToSM;
    if (table.size() != n) {
      reason = "the chunk table has " + std::to_string(table.size()) +
               " entries but the grid has " + std::to_string(n) + " chunks";
      return false;
    }
    std::vector<bool> inSet(plan.numSlots, false);
    for (uint32_t sm : set)
      inSet[sm] = true;
    for (uint32_t c = 0; c < n; ++c) {
      if (table[c] >= plan.numSlots || !inSet[table[c]]) {
        reason = "the chunk table puts chunk " + std::to_string(c) + " on SM " +
                 std::to_string(table[c]) +
                 ", which is not in the launch's SM set";
        return false;
      }
    }
    fillQueues(plan, [&](uint32_t c) { return table[c]; });
    return true;
  }
  }
  reason = "unknown chunk order";
  return false;
}

bool planSmCentric(const Policy &policy, const KernelFacts &kernel,
                   const DeviceFacts &device, QueuePlan &plan,
                   std::string &reason) {
  if (!kernel.hasSmc) {
    reason = missingVariant("SM-centric variant", kernel.smcRefusal);
    return false;
  }
  if (device.numSMs == 0) {
    reason = "the device reports no SMs";
    return false;
  }
  if (plan.numChunks > kMaxQueuedChunks) {
    reason = "the grid of " + std::to_string(plan.numChunks) +
             " CTAs is larger than SM-centric queues allow (" +
             std::to_string(kMaxQueuedChunks) + ")";
    return false;
  }
  std::vector<uint32_t> set;
  if (!smSet(policy, device.numSMs, set, reason))
    return false;

  unsigned fit = device.variantFitPerSM;
  if (fit == 0) {
    reason = std::string("the SM-centric variant does not fit on an SM ") +
             kShapeText;
    return false;
  }
  plan.mode = kernel.oneChunk ? SMC_MODE_ONE_CHUNK : SMC_MODE_LOOP;
  uint32_t target;
  if (policy.workersPerSM != 0) {
    target = policy.workersPerSM;
    if (plan.mode == SMC_MODE_LOOP && target > fit) {
      reason = "workers=" + std::to_string(target) + " is more than the " +
               std::to_string(fit) + " SM-centric workers that fit on one SM " +
               kShapeText;
      return false;
    }
  } else {
    target = std::min(device.originalOccupancy, fit);
    if (target == 0) {
      reason = std::string("the original kernel does not fit on an SM ") +
               kShapeText;
      return false;
    }
  }

  plan.variant = Variant::SMCentric;
  plan.numSlots = device.numSMs;
  plan.target = target;
  plan.ordered = kernel.ordered;
  if (plan.ordered) {
    // One grid-wide sequence: queue 0 is every chunk in blockIdx order.
    plan.queueStart.assign(plan.numSlots + 1, plan.numChunks);
    plan.queueStart[0] = 0;
    plan.queueChunks = {0};
    plan.queueStride = 1;
    if (policy.order != ChunkOrder::Interleaved)
      plan.note = "ordered mode (its CTAs wait on each other) claims chunks "
                  "in blockIdx order from one grid-wide sequence: the "
                  "chunk order of the policy does not apply";
  } else if (!planQueues(policy, set, plan, reason)) {
    return false;
  }
  plan.slotTarget.assign(plan.numSlots, 0);
  for (uint32_t sm : set)
    plan.slotTarget[sm] = target;
  plan.busyQueues = 0;
  for (uint32_t s = 0; s < plan.numSlots; ++s)
    plan.busyQueues += plan.queueStart[s + 1] > plan.queueStart[s];

  if (plan.mode == SMC_MODE_LOOP) {
    // Filling-retreating: fill every SM with as many workers as fit; on
    // each SM those beyond its target retreat at once.
    plan.workers = fit * plan.numSlots;
  } else {
    plan.workers = plan.numChunks;
    if (policy.workersPerSM != 0 || !policy.sms.empty()) {
      if (!plan.note.empty())
        plan.note += "; ";
      plan.note += "one-chunk mode (threads may exit before a barrier) gives "
                   "every chunk its own worker, wherever it runs: workers= "
                   "and sms= are not honoured";
      if (!plan.ordered)
        plan.note += "; chunk queues follow the SM set and workers on other "
                     "SMs steal from them";
    }
  }
  return true;
}

bool planSlice(const Policy &policy, const KernelFacts &kernel, QueuePlan &plan,
               std::string &reason) {
  if (!kernel.hasSlice) {
    reason = missingVariant("slice variant", kernel.sliceRefusal);
    return false;
  }
  uint32_t size = policy.sliceSize == 0
                      ? plan.numChunks
                      : std::min<uint32_t>(policy.sliceSize, plan.numChunks);
  if (size > kMaxGridX) {
    size = kMaxGridX;
    plan.note = "slices are limited to " + std::to_string(kMaxGridX) +
                " chunks (the largest grid)";
  }
  plan.variant = Variant::Slice;
  plan.sliceSize = size;
  return true;
}

} // namespace

KernelFacts KernelFacts::fromInfo(const SmcKernelInfo &info) {
  KernelFacts facts;
  facts.hasSmc = (info.flags & SMC_INFO_HAS_SMC) != 0;
  facts.hasSlice = (info.flags & SMC_INFO_HAS_SLICE) != 0;
  facts.oneChunk = (info.flags & SMC_INFO_ONE_CHUNK) != 0;
  facts.ordered = (info.flags & SMC_INFO_ORDERED) != 0;
  facts.smcRefusal = info.smc_refusal;
  facts.sliceRefusal = info.slice_refusal;
  return facts;
}

uint32_t QueuePlan::numSlices() const {
  if (sliceSize == 0)
    return 0;
  return static_cast<uint32_t>((uint64_t(numChunks) + sliceSize - 1) /
                               sliceSize);
}

uint32_t QueuePlan::sliceOffset(uint32_t index) const {
  return static_cast<uint32_t>(uint64_t(index) * sliceSize);
}

uint32_t QueuePlan::sliceCount(uint32_t index) const {
  uint64_t begin = uint64_t(index) * sliceSize;
  uint64_t end = std::min<uint64_t>(begin + sliceSize, numChunks);
  return begin < end ? static_cast<uint32_t>(end - begin) : 0;
}

bool makeQueuePlan(const Policy &policy, const KernelFacts &kernel,
                   const DeviceFacts &device, GridSize grid, QueuePlan &plan,
                   std::string &reason) {
  plan = QueuePlan();
  plan.grid = grid;
  uint64_t chunks = uint64_t(grid.x) * grid.y * grid.z;
  if (policy.variant == Variant::Original) {
    plan.numChunks =
        static_cast<uint32_t>(std::min<uint64_t>(chunks, UINT32_MAX));
    return true;
  }
  if (chunks == 0) {
    reason = "the grid is empty";
    return false;
  }
  if (chunks > UINT32_MAX) {
    reason =
        "the grid's " + std::to_string(chunks) + " CTAs do not fit in 32 bits";
    return false;
  }
  plan.numChunks = static_cast<uint32_t>(chunks);
  bool ok = policy.variant == Variant::Slice
                ? planSlice(policy, kernel, plan, reason)
                : planSmCentric(policy, kernel, device, plan, reason);
  if (!ok) {
    QueuePlan empty;
    empty.grid = grid;
    empty.numChunks = plan.numChunks;
    plan = std::move(empty);
  }
  return ok;
}

} // namespace smc
