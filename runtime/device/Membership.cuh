//===- Membership.cuh - Arriving, leaving and handing out ------*- CUDA -*-===//
//
// Filling-retreating (which workers of an SM work), top-up workers joining a
// running launch, live partitions' leavers, the last worker's reset of the
// counter block, and the barrier that hands a chunk to the whole worker.
// Part of SmcWorker.cu.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_DEVICE_MEMBERSHIP_CUH
#define SMC_RUNTIME_DEVICE_MEMBERSHIP_CUH

#include "Claims.cuh"

namespace {

// Zeroes the counter block for the next launch ordered after this one.
__device__ __forceinline__ void resetCounters(const SmcDescriptor *d) {
  for (unsigned s = 0; s < d->num_slots; ++s) {
    *workerCount(d, s) = 0;
    *queueNext(d, s) = 0;
  }
  for (unsigned c = 0; c < SMC_LAUNCH_COUNTERS; ++c)
    if (c != SMC_COUNTER_JOIN)
      d->launch_counters[c * SMC_COUNTER_STRIDE] = 0;
  *joinWord(d) = 0;
  __threadfence();
}

// Leader of a top-up worker: joins the launch tagged d->launch_tag if it
// runs now on the counter block: its first worker has arrived and published
// the tag (so it has started: a top-up must not run chunks ahead of the
// launches stream-ordered before it), and its own workers have not all
// exited.  The check and the join are one CAS on the JOIN word, which the
// closing and the reset both change.
__device__ __forceinline__ bool joinLaunch(const SmcDescriptor *d) {
  unsigned long long *word = joinWord(d);
  unsigned long long seen = atomicAdd(word, 0ull);
  for (;;) {
    if ((seen >> JOIN_TAG_SHIFT) != (d->launch_tag & JOIN_TAG_MASK) ||
        (seen & JOIN_CLOSED) ||
        ((seen >> JOIN_JOINED_SHIFT) & JOIN_COUNT_MASK) ==
            JOIN_COUNT_MASK) // count full
      return false;
    unsigned long long before = atomicCAS(word, seen, seen + JOIN_JOINED_ONE);
    if (before == seen)
      return true;
    seen = before;
  }
}

// Loop mode: the worker will touch no counter again.  A top-up worker says
// so on the JOIN word.  The last of the launch's own workers closes the
// launch to top-ups, waits for those that joined to exit (so that the
// launch, which stream order waits for, ends after all of its chunks), and
// resets the counters.
__device__ __forceinline__ void workerDone(const SmcDescriptor *d,
                                           const SmcLeaderState *w) {
  if (w->ownDone & NOT_JOINED)
    return;
  trace(d, SMC_TRACE_WORKER_END, w->smid, SMC_NO_CHUNK, 0);
  if (w->ownDone & LEAVING)
    countStat(d, SMC_STATS_WORD(d->num_slots, SMC_STATS_LEFT));
  __threadfence();
  if (d->top_up) {
    atomicAdd(joinWord(d), JOIN_EXITED_ONE);
    return;
  }
  unsigned workers = gridDim.x;
  if (atomicAdd(launchCounter(d, SMC_COUNTER_EXITED), 1u) != workers - 1)
    return;
  unsigned long long seen = atomicOr(joinWord(d), JOIN_CLOSED);
  while (((seen >> JOIN_JOINED_SHIFT) & JOIN_COUNT_MASK) !=
         (seen & JOIN_COUNT_MASK))
    seen = atomicAdd(joinWord(d), 0ull);
  __threadfence();
  resetCounters(d);
}

// The active workers wanted on SM s now: the plan's target, capped by the
// live partition's (partition/PartitionRules.h).
__device__ __forceinline__ unsigned targetOn(const SmcDescriptor *d,
                                             unsigned s) {
  unsigned target = d->slot_target[s];
  if (d->live_target) {
    unsigned live = loadRelaxed(d->live_target + s);
    target = live < target ? live : target;
  }
  return target;
}

// Filling-retreating: is this worker one of the first `target` on its SM?
// A worker whose SM has no chunks of its own retreats too: stealing at once
// would pile the chunks of a small grid onto a few SMs, where the owners
// would have spread them (owners steal once their own queue is done).  The
// last worker to arrive works if no other does, so chunks cannot be left
// behind when every worker lands outside the SM set or on empty queues.
// A retreating worker takes itself off its SM's count again, so that the
// count is the SM's active workers (what live partitions compare).  The
// first worker to become active is the launch's keeper.
__device__ __forceinline__ bool decideActive(const SmcDescriptor *d,
                                             SmcLeaderState *w, bool ownWork) {
  unsigned smid = w->smid;
  bool active = false;
  if (smid < d->num_slots) {
    unsigned rank = atomicAdd(workerCount(d, smid), 1u);
    // A top-up worker on an SM without a queue of its own works too: it
    // was launched for SMs a partition gained, and steals.
    active = (ownWork || d->top_up) && rank < targetOn(d, smid);
    if (!active)
      atomicSub(workerCount(d, smid), 1u);
  } else {
    countStat(d, SMC_STATS_WORD(d->num_slots, SMC_STATS_OUT_OF_RANGE_SMID));
  }
  unsigned before = 1;
  if (active) {
    before = atomicAdd(launchCounter(d, SMC_COUNTER_ACTIVE), 1u);
    __threadfence();
  }
  // The last-arrival rule is the launch's own: a top-up worker joined a
  // launch that has started, whose own workers apply it.
  if (d->top_up) {
    if (before == 0)
      w->ownDone |= KEEPER;
    return active;
  }
  unsigned arrived = atomicAdd(launchCounter(d, SMC_COUNTER_ARRIVED), 1u);
  // The first arrival opens the launch to top-up workers.  Nobody else
  // writes the JOIN word before it: top-ups join only a published tag, and
  // the closing comes after every worker of the launch arrived.
  if (arrived == 0 && d->launch_tag)
    atomicExch(joinWord(d), (d->launch_tag & JOIN_TAG_MASK) << JOIN_TAG_SHIFT);
  if (!active && arrived == gridDim.x - 1) {
    __threadfence();
    if (loadRelaxed(launchCounter(d, SMC_COUNTER_ACTIVE)) == 0) {
      before = atomicAdd(launchCounter(d, SMC_COUNTER_ACTIVE), 1u);
      active = true;
      if (smid < d->num_slots) // counted again: it is active on its SM
        atomicAdd(workerCount(d, smid), 1u);
    }
  }
  if (before == 0)
    w->ownDone |= KEEPER;
  return active;
}

// Leader only, live partitions: does this worker leave its SM?  Yes when
// the SM has more active workers than its live target (an SM outside the
// partition has target 0).  The plan's target needs no look: no SM ever has
// more active workers than that.  A leaver takes itself off the count at
// once, so that the workers ending a chunk after it see the excess gone and
// stay (one leaver per excess worker); of two that race for the last
// excess, the one whose decrement found no excess counts itself back in.
__device__ __forceinline__ bool leaves(const SmcDescriptor *d, unsigned smid) {
  if (smid >= d->num_slots) // not counted on any SM: only the last-arrival
    return false;           // rule put it to work
  unsigned *count = workerCount(d, smid);
  unsigned target = loadRelaxed(d->live_target + smid);
  if (loadRelaxed(count) <= target)
    return false;
  if (atomicSub(count, 1u) > target)
    return true;
  atomicAdd(count, 1u);
  return false;
}

// Hands the chunk (the first of a batch of `batch` chunks) from the leader
// (thread `self` 0) to every thread of the worker.
__device__ __forceinline__ unsigned broadcast(const SmcDescriptor *d,
                                              SmcWorkerState *state,
                                              unsigned self, unsigned chunk,
                                              unsigned batch) {
  unsigned p = state->word >> STATE_PARITY_SHIFT;
  if (self == 0) {
    __smc_dev_shared.slot[p] = chunk;
    __smc_dev_shared.batch[p] = batch;
  }
  __syncthreads();
  unsigned handed = __smc_dev_shared.slot[p];
  state->word = (p ^ 1u) << STATE_PARITY_SHIFT |
                (__smc_dev_shared.batch[p] - 1u) * STATE_LEFT_ONE |
                (handed & STATE_CHUNK);
  return chunkOf(d, handed);
}

} // namespace

#endif // SMC_RUNTIME_DEVICE_MEMBERSHIP_CUH
