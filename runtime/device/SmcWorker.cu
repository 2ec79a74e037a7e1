//===- SmcWorker.cu - Device side of SM-centric execution ------------------===//
//
// The worker protocol every K__smc variant runs, written once in CUDA C++.
// The plugin compiles this file to LLVM bitcode at build time, embeds it,
// links it into each device module it transforms and inlines these calls
// into the variants:
//
//   first = __smc_dev_first_chunk(desc, &state)   once per worker (CTA)
//   __smc_dev_chunk_begin(desc, &state)           at the start of a chunk
//   next  = __smc_dev_next_chunk(desc, &state)    when a chunk ends
//
// A chunk is one CTA of the original launch.  Every call returns the same
// chunk id to all threads of the worker, or SMC_DEV_NONE when the worker is
// done.  See abi.h for the descriptor and counter layouts.
//
// Exactly once: every chunk is handed out by one atomicAdd on its queue's
// position counter, and an active worker leaves only after finding every
// queue exhausted (own queue first, then stealing).  At least one worker is
// active: the last worker to arrive works if none did.  So whatever the
// hardware does with placement, every chunk runs exactly once.
//===----------------------------------------------------------------------===//
#include "smc/abi.h"

#define SMC_DEV_NONE 0xffffffffu

struct SmcWorkerState {
  unsigned smid;    // leader only: the SM this worker runs on
  unsigned pending; // leader only: own-queue position claimed ahead, or NONE
  unsigned parity;  // which broadcast slot the next chunk id goes through
  unsigned ownDone; // leader only: own queue found exhausted
};

static_assert(sizeof(SmcWorkerState) == 4 * SMC_WORKER_STATE_WORDS,
              "the pass allocates SMC_WORKER_STATE_WORDS words of state");

// Chunk ids travel from the leader thread to the whole worker through
// shared memory.  Two slots, used alternately, so that the leader never
// overwrites a slot that a slow thread has still to read (every thread
// reads slot p before it reaches the barrier after which p is written
// again).
__shared__ unsigned __smc_dev_slot[2];

namespace {

__device__ __forceinline__ bool isLeader() {
  return (threadIdx.x | threadIdx.y | threadIdx.z) == 0;
}

__device__ __forceinline__ unsigned readSmid() {
  return __nvvm_read_ptx_sreg_smid();
}

__device__ __forceinline__ unsigned loadRelaxed(const unsigned *p) {
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}

__device__ __forceinline__ void countStat(const SmcDescriptor *d,
                                          unsigned word) {
  if (d->stats)
    atomicAdd(&d->stats[word], 1u);
}

// The chunk at position pos of queue q, or NONE past its end.
__device__ __forceinline__ unsigned chunkAt(const SmcDescriptor *d, unsigned q,
                                            unsigned pos) {
  unsigned begin = d->queue_start[q];
  unsigned length = d->queue_start[q + 1] - begin;
  return pos < length ? d->queue_chunks[begin + pos] : SMC_DEV_NONE;
}

// Claims the next chunk of queue q, or NONE if it is exhausted.
__device__ __forceinline__ unsigned claimFrom(const SmcDescriptor *d,
                                              unsigned q) {
  unsigned length = d->queue_start[q + 1] - d->queue_start[q];
  if (loadRelaxed(&d->queue_next[q]) >= length)
    return SMC_DEV_NONE;
  return chunkAt(d, q, atomicAdd(&d->queue_next[q], 1u));
}

// Records that the chunk runs on this SM, stolen or not.
__device__ __forceinline__ unsigned ranOn(const SmcDescriptor *d,
                                          unsigned smid, unsigned chunk,
                                          bool stolen) {
  if (chunk != SMC_DEV_NONE && d->stats) {
    if (smid < d->num_slots)
      atomicAdd(&d->stats[smid], 1u);
    if (stolen)
      atomicAdd(&d->stats[2 * d->num_slots], 1u);
  }
  return chunk;
}

// Own queue first (unless known empty), then every other queue in turn.
__device__ unsigned claimAny(const SmcDescriptor *d, SmcWorkerState *w) {
  unsigned slots = d->num_slots;
  bool inRange = w->smid < slots;
  if (inRange && !w->ownDone) {
    unsigned chunk = claimFrom(d, w->smid);
    if (chunk != SMC_DEV_NONE)
      return ranOn(d, w->smid, chunk, false);
    w->ownDone = 1;
  }
  unsigned start = inRange ? w->smid + 1 : 0;
  for (unsigned k = 0; k < slots; ++k) {
    unsigned q = start + k;
    if (q >= slots)
      q -= slots;
    if (inRange && q == w->smid)
      continue;
    unsigned chunk = claimFrom(d, q);
    if (chunk != SMC_DEV_NONE)
      return ranOn(d, w->smid, chunk, true);
  }
  return SMC_DEV_NONE;
}

// The worker will touch no counter again.  The last one of the launch
// zeroes them, so the block is clean for the next launch ordered after it.
__device__ void workerDone(const SmcDescriptor *d) {
  __threadfence();
  unsigned workers = gridDim.x;
  if (atomicAdd(&d->launch_counters[SMC_COUNTER_EXITED], 1u) != workers - 1)
    return;
  for (unsigned s = 0; s < d->num_slots; ++s) {
    d->worker_count[s] = 0;
    d->queue_next[s] = 0;
  }
  for (unsigned c = 0; c < SMC_LAUNCH_COUNTERS; ++c)
    d->launch_counters[c] = 0;
  __threadfence();
}

// Filling-retreating: is this worker one of the first `target` on its SM?
// The last worker to arrive works if no other does, so chunks cannot be
// left behind when every worker lands outside the SM set.
__device__ bool decideActive(const SmcDescriptor *d, unsigned smid) {
  bool active = false;
  if (smid < d->num_slots) {
    unsigned rank = atomicAdd(&d->worker_count[smid], 1u);
    active = rank < d->slot_target[smid];
  } else {
    countStat(d, 2 * d->num_slots + 2);
  }
  if (active) {
    atomicAdd(&d->launch_counters[SMC_COUNTER_ACTIVE], 1u);
    __threadfence();
  }
  unsigned arrived =
      atomicAdd(&d->launch_counters[SMC_COUNTER_ARRIVED], 1u);
  if (!active && arrived == gridDim.x - 1) {
    __threadfence();
    if (loadRelaxed(&d->launch_counters[SMC_COUNTER_ACTIVE]) == 0) {
      atomicAdd(&d->launch_counters[SMC_COUNTER_ACTIVE], 1u);
      active = true;
    }
  }
  return active;
}

__device__ __forceinline__ unsigned broadcast(SmcWorkerState *w,
                                              unsigned chunk) {
  unsigned p = w->parity;
  if (isLeader())
    __smc_dev_slot[p] = chunk;
  __syncthreads();
  w->parity = p ^ 1u;
  return __smc_dev_slot[p];
}

} // namespace

extern "C" __device__ unsigned __smc_dev_first_chunk(const SmcDescriptor *d,
                                                     SmcWorkerState *w) {
  w->parity = 0;
  w->pending = SMC_DEV_NONE;
  w->ownDone = 0;
  unsigned chunk = SMC_DEV_NONE;
  if (isLeader()) {
    w->smid = readSmid();
    bool active = d->mode == SMC_MODE_ONE_CHUNK || decideActive(d, w->smid);
    if (active) {
      if (d->stats && w->smid < d->num_slots)
        atomicAdd(&d->stats[d->num_slots + w->smid], 1u);
      chunk = claimAny(d, w);
    } else {
      countStat(d, 2 * d->num_slots + 1);
    }
    if (chunk == SMC_DEV_NONE || d->mode == SMC_MODE_ONE_CHUNK)
      workerDone(d);
  }
  return broadcast(w, chunk);
}

// Loop mode: the leader claims its next own-queue position now, so that the
// atomic's latency overlaps the chunk instead of delaying the next claim.
extern "C" __device__ void __smc_dev_chunk_begin(const SmcDescriptor *d,
                                                 SmcWorkerState *w) {
  if (d->mode == SMC_MODE_LOOP && isLeader() && !w->ownDone &&
      w->smid < d->num_slots)
    w->pending = atomicAdd(&d->queue_next[w->smid], 1u);
}

extern "C" __device__ unsigned __smc_dev_next_chunk(const SmcDescriptor *d,
                                                    SmcWorkerState *w) {
  // One-chunk mode: the worker ends with its chunk, like the original CTA.
  if (d->mode == SMC_MODE_ONE_CHUNK)
    return SMC_DEV_NONE;
  unsigned chunk = SMC_DEV_NONE;
  if (isLeader()) {
    if (w->pending != SMC_DEV_NONE) {
      chunk = ranOn(d, w->smid, chunkAt(d, w->smid, w->pending), false);
      w->pending = SMC_DEV_NONE;
      if (chunk == SMC_DEV_NONE)
        w->ownDone = 1;
    }
    if (chunk == SMC_DEV_NONE)
      chunk = claimAny(d, w);
    if (chunk == SMC_DEV_NONE)
      workerDone(d);
  }
  return broadcast(w, chunk);
}
