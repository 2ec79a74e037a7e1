//===- SmcWorker.cu - Device side of SM-centric execution -----------------===//
//
// The worker protocol every K__smc variant runs, written once in CUDA C++.
// The plugin compiles this file to LLVM bitcode at build time, embeds it,
// links it into each device module it transforms and inlines these calls
// into the variants:
//
//   first = __smc_dev_first_chunk(desc, &state)   once per worker (CTA)
//   __smc_dev_chunk_begin(desc, &state)           at the start of a chunk
//   next  = __smc_dev_next_chunk(desc, &state, independent)
//                                                 when a chunk ends
//
// A chunk is one CTA of the original launch.  Every call returns the same
// chunk id to all threads of the worker, or SMC_NO_CHUNK when the worker is
// done.  See abi.h for the descriptor and counter layouts.  It is compiled
// with -nocudalib: use compiler builtins, never libdevice (__nv_*) functions.
//
// Exactly once: every chunk is handed out by one atomicAdd on its queue's
// position counter, and an active worker leaves only after finding every
// queue exhausted (own queue first, then stealing).  At least one worker is
// active: the last worker to arrive works if none did.  So whatever the
// hardware does with placement, every chunk runs exactly once.
//
// In order (ordered mode, descriptor field `ordered`): for kernels whose CTAs
// wait on each other (CUB's decoupled look-back scan, select, reduce-by-key;
// stream-K fix-ups; any loop the plugin finds waiting on memory another CTA
// writes).  The original relies on the hardware starting CTAs in blockIdx
// order, so a CTA only waits for CTAs that have started.  In ordered mode
// every worker claims from one queue, queue 0, which holds all chunks in
// linear blockIdx order, and claims its next chunk only when its current one
// has ended (no claim ahead).  So when chunk c is claimed, chunks 0..c-1 were
// all claimed before it, each by a worker that was resident and is running
// it or has finished it.  The lowest unfinished chunk therefore has no
// unfinished predecessor and runs to its end (it waits for nothing that is
// not done); by induction every chunk finishes, whatever the hardware does
// with placement, however few workers are resident (one is enough), and
// whatever other kernels hold SMs.  Filling-retreating still applies, so
// workers= and sms= are honoured; per-SM queues, their orders and stealing
// do not (there is nothing to steal from one queue).
//
// Batched claims (descriptor field `claim_batch` > 1, loop mode, not
// ordered): one atomic on its queue's position counter gives a worker up
// to claim_batch consecutive positions of its own queue.  In arithmetic
// queues their chunks follow each other by queue_stride; in tables
// (queue_stride 0: chunk tables, clusters) the leader hands out the
// position's table index instead of the chunk id, the indices of a batch
// follow each other by 1, and every thread loads the chunk id of its index
// (handOut, chunkOf).  The batch's first chunk (or index) and length
// travel through the broadcast like a single chunk id; every thread then
// steps to the batch's next chunk by itself (its state word), with a
// barrier between the chunks only where the body uses shared memory or
// barriers (`independent` = 0: the barrier keeps shared memory safe as the
// broadcast's does).  Exactly once is unchanged: the positions of a batch
// are handed out by one atomic, and a worker runs each of them once.  A
// worker decides on leaving (live partitions) and steals at batch ends only;
// steals take one chunk.  The claim ahead is made at the start of a batch's
// last chunk.
//
// Live partitions (descriptor field `live_target` not null): the runtime may
// rewrite the per-SM targets while the launch runs.  At the end of every
// chunk the leader compares its SM's active workers with the live target;
// when there are more, it claims nothing more and leaves (after the chunk it
// had already claimed ahead, if any).  Its SM's queue is left to the workers
// that stay, which steal it.  Exactly once still holds: a leaving worker
// holds no claimed chunk, and the launch's first active worker (the keeper)
// never leaves, so from the first claim to the last some worker is active
// and the stealing rule above still finds every chunk.  The keeper may so
// stay on an SM the partition no longer has, until its launch ends.
//
// Grow-back (descriptor field `top_up`): when a live partition gains SMs
// while a launch on its stream runs, the runtime launches a top-up grid of
// workers with the same descriptor (top_up = 1, a slot_target that wants
// the plan's per-SM target on every SM) on a stream of its own.  A top-up
// worker first joins the launch through the JOIN word (abi.h): only the
// launch whose tag its first worker published, and only until the launch's
// own workers have all exited; otherwise it touches no counter and ends.
// Joined, it is a worker like the others: it counts itself on its SM, works
// where the SM is under its target (stealing where the SM has no queue of
// its own), may leave, and says when it is done.  The last of the launch's
// own workers closes the launch to top-ups, waits until every joined top-up
// worker is done, and only then resets the counters: so the launch, which
// stream order waits for, ends after every chunk, and a top-up never finds
// the counters of a later launch (their tag differs).  Exactly once is
// unchanged: claims are the same atomics, and the keeper rule still keeps
// one worker active from the first claim to the last.
//===----------------------------------------------------------------------===//
#include "smc/abi.h"

// Per-thread state of a worker: what the pass allocates
// (SMC_WORKER_STATE_WORDS), kept in registers across the chunk body.
// One word: registers live across the chunk body are registers the kernel's
// own code cannot use.
//   bits 0-26   the chunk it runs (a plan has at most 2^27 chunks)
//   bits 27-30  chunks of its batch after this one (at most
//               SMC_MAX_CLAIM_BATCH - 1)
//   bit 31      which broadcast slot the next chunk id goes through
struct SmcWorkerState {
  unsigned word;
};

static_assert(sizeof(SmcWorkerState) == 4 * SMC_WORKER_STATE_WORDS,
              "the pass allocates SMC_WORKER_STATE_WORDS words of state");

// The worker's own state, one per CTA in shared memory: written by the
// leader (smid also read by warp 0).  Not per-thread state: registers live
// across the chunk body are registers the kernel's own code cannot use, and
// seven of them made ptxas issue mvt's column loads two at a time instead of
// eight (2.5x).
struct SmcLeaderState {
  unsigned smid;     // the SM this worker runs on (warp 0 reads it)
  unsigned ownQueue; // the queue it claims from (its SM's, or 0)
  unsigned pending;  // own-queue position claimed ahead, or NONE
  unsigned ownDone;  // OWN_EXHAUSTED, LEAVING, KEEPER, FIRST_CHUNK,
                     // NOT_JOINED, NO_CLAIM_AHEAD
  unsigned ownFirst; // first chunk of its own queue
  unsigned ownSize;  // length of its own queue (0 if none)
  unsigned batch;    // chunks of the batch ownChunkAt last handed out
  unsigned step;     // own-queue positions one claim takes: claimStep, once
                     // per worker (at every claim it cost syr2k 6 registers)
};

// The worker's shared memory (SMC_DEVICE_SHARED; the plugin counts its size
// against the 48 KiB of static shared memory).  Chunk ids travel from the
// leader thread to the whole worker through `slot`: two slots, used
// alternately, so that the leader never overwrites a slot that a slow
// thread has still to read (every thread reads slot p before it reaches the
// barrier after which p is written again).
struct SmcWorkerShared {
  unsigned slot[2];
  unsigned batch[2]; // the length of the batch that starts at slot[p]
  SmcLeaderState leader;
};
static_assert(sizeof(SmcWorkerShared) == SMC_DEVICE_SHARED_BYTES,
              "abi.h: SMC_DEVICE_SHARED_BYTES");
__shared__ SmcWorkerShared __smc_dev_shared;

namespace {

constexpr unsigned STATE_CHUNK = (1u << 27) - 1u;
constexpr unsigned STATE_LEFT_ONE = 1u << 27;
constexpr unsigned STATE_LEFT = 0xfu << 27;
constexpr unsigned STATE_PARITY_SHIFT = 31;
static_assert(SMC_MAX_CLAIM_BATCH - 1u <= STATE_LEFT >> 27,
              "a batch's remaining chunks fit in the state word");

// Bits of SmcLeaderState::ownDone.  The first two make the worker claim
// nothing more from its own queue.
constexpr unsigned OWN_EXHAUSTED = 1u; // its own queue is known exhausted
constexpr unsigned LEAVING = 2u;       // live partition: leave at chunk end
constexpr unsigned NO_OWN_CLAIMS = OWN_EXHAUSTED | LEAVING;
constexpr unsigned KEEPER = 4u;      // the launch's first active worker, which
                                     // never leaves
constexpr unsigned FIRST_CHUNK = 8u; // in its first chunk: no claim ahead
constexpr unsigned NOT_JOINED = 16u; // a top-up worker that found no launch to
                                     // join: it touches no counter
constexpr unsigned NO_CLAIM_AHEAD = 32u; // claim_batch 0: never claims ahead

// The JOIN word (SMC_COUNTER_JOIN in abi.h).
constexpr unsigned long long JOIN_EXITED_ONE = 1ull;
constexpr unsigned JOIN_JOINED_SHIFT = 20;
constexpr unsigned long long JOIN_JOINED_ONE = 1ull << JOIN_JOINED_SHIFT;
constexpr unsigned long long JOIN_COUNT_MASK = (1ull << 20) - 1ull;
constexpr unsigned long long JOIN_CLOSED = 1ull << 40;
constexpr unsigned JOIN_TAG_SHIFT = 41;
constexpr unsigned long long JOIN_TAG_MASK = (1ull << 23) - 1ull;

// The thread's coordinates, read from their special registers where the
// worker needs them (at chunk boundaries), with inline assembly that LLVM
// neither hoists nor merges.  Read through threadIdx and blockDim, they are
// loop-invariant: LLVM hoists them to the kernel's entry and their values
// stay live in registers across every chunk body, registers the kernel's own
// code cannot use (nbody_accel needed 38 registers instead of 32 and
// bpnn_adjust_weights 40 instead of 26: fewer CTAs per SM; register_parity
// checks).  The price is a few special register reads per claim, which
// workloads of many short chunks pay (README, "Performance").
#define SMC_SPECIAL_REGISTER(Name, Reg)                                        \
  __device__ __forceinline__ unsigned Name() {                                 \
    unsigned value;                                                            \
    asm volatile("mov.u32 %0, %%" Reg ";" : "=r"(value));                      \
    return value;                                                              \
  }
SMC_SPECIAL_REGISTER(tidX, "tid.x")
SMC_SPECIAL_REGISTER(tidY, "tid.y")
SMC_SPECIAL_REGISTER(tidZ, "tid.z")
SMC_SPECIAL_REGISTER(ntidX, "ntid.x")
SMC_SPECIAL_REGISTER(ntidY, "ntid.y")
SMC_SPECIAL_REGISTER(ntidZ, "ntid.z")
// The leader warp's slot on its SM: SMC_TRACE tells workers apart by it (a
// variant reads no %ctaid: every blockIdx read is a chunk's).
SMC_SPECIAL_REGISTER(warpId, "warpid")
#undef SMC_SPECIAL_REGISTER

__device__ __forceinline__ unsigned readSmid() {
  return __nvvm_read_ptx_sreg_smid();
}

// The counters, one per 128-byte line (SMC_COUNTER_STRIDE).
__device__ __forceinline__ unsigned *queueNext(const SmcDescriptor *d,
                                               unsigned q) {
  return d->queue_next + q * SMC_COUNTER_STRIDE;
}
__device__ __forceinline__ unsigned *workerCount(const SmcDescriptor *d,
                                                 unsigned s) {
  return d->worker_count + s * SMC_COUNTER_STRIDE;
}
__device__ __forceinline__ unsigned *launchCounter(const SmcDescriptor *d,
                                                   unsigned c) {
  return d->launch_counters + c * SMC_COUNTER_STRIDE;
}

__device__ __forceinline__ unsigned loadRelaxed(const unsigned *p) {
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}

__device__ __forceinline__ unsigned long long *
joinWord(const SmcDescriptor *d) {
  return reinterpret_cast<unsigned long long *>(
      launchCounter(d, SMC_COUNTER_JOIN));
}

__device__ __forceinline__ void countStat(const SmcDescriptor *d,
                                          unsigned word) {
  if (d->stats)
    atomicAdd(&d->stats[word], 1u);
}

// What the leader hands out for position pos of a queue that starts at
// table index begin: the chunk id where queues are arithmetic; where they
// are tables, the table index, which every thread turns into the chunk id
// itself (chunkOf), so that a batch of table positions steps like an
// arithmetic queue of stride 1.
__device__ __forceinline__ unsigned
handOut(const SmcDescriptor *d, unsigned begin, unsigned first, unsigned pos) {
  return d->queue_stride ? first + pos * d->queue_stride : begin + pos;
}

// The chunk id of what the leader handed out (handOut), in every thread.
__device__ __forceinline__ unsigned chunkOf(const SmcDescriptor *d,
                                            unsigned handed) {
  return d->queue_stride || handed == SMC_NO_CHUNK ? handed
                                                   : d->queue_chunks[handed];
}

// Every helper that takes the descriptor is inlined: a call that passes its
// address would make the variant copy the by-value descriptor to local
// memory and read every field from there.  LLVM inlined them by itself until
// the trace records (-smc-trace) made claimOwn too large.
__device__ __forceinline__ void resetCounters(const SmcDescriptor *d);

// One-chunk mode: whoever hands out the last position of a queue counts
// it; the one completing the last busy queue knows that every worker has
// made its one claim, and resets the counters.
__device__ __forceinline__ void queueHandedOut(const SmcDescriptor *d) {
  if (d->mode != SMC_MODE_ONE_CHUNK)
    return;
  __threadfence();
  if (atomicAdd(launchCounter(d, SMC_COUNTER_QUEUES_DONE), 1u) ==
      d->busy_queues - 1)
    resetCounters(d);
}

// Claims the next chunk of queue q, or NONE if it is exhausted.
__device__ __forceinline__ unsigned claimFrom(const SmcDescriptor *d,
                                              unsigned q) {
  unsigned begin = d->queue_start[q];
  unsigned length = d->queue_start[q + 1] - begin;
  if (loadRelaxed(queueNext(d, q)) >= length)
    return SMC_NO_CHUNK;
  unsigned pos = atomicAdd(queueNext(d, q), 1u);
  if (pos >= length)
    return SMC_NO_CHUNK;
  unsigned first = d->queue_stride ? d->queue_chunks[begin] : 0;
  unsigned chunk = handOut(d, begin, first, pos);
  if (pos == length - 1)
    queueHandedOut(d);
  return chunk;
}

// SMC_TRACE: one record of the worker's (abi.h, SmcTraceWord) in `block`,
// the launch's trace block; dropped when it is full.
__device__ __forceinline__ void traceRecord(unsigned *block, unsigned launch,
                                            unsigned worker, unsigned kind,
                                            unsigned smid, unsigned chunk,
                                            unsigned count) {
  unsigned r = atomicAdd(block + 1, 1u);
  if (r >= block[0])
    return;
  unsigned long long records =
      block[2] | static_cast<unsigned long long>(block[3]) << 32;
  unsigned *rec =
      reinterpret_cast<unsigned *>(records) + r * SMC_TRACE_RECORD_WORDS;
  unsigned long long now = __nvvm_read_ptx_sreg_globaltimer();
  rec[SMC_TRACE_LAUNCH] = launch;
  rec[SMC_TRACE_KIND] = kind;
  rec[SMC_TRACE_SM] = smid;
  rec[SMC_TRACE_WORKER] = worker;
  rec[SMC_TRACE_CHUNK] = chunk;
  rec[SMC_TRACE_COUNT] = count;
  rec[SMC_TRACE_TIME_LO] = unsigned(now);
  rec[SMC_TRACE_TIME_HI] = unsigned(now >> 32);
}

// The worker's record of `kind` where the launch is traced.  Only in the
// library built with SMC_WORKER_TRACE, which the plugin links under
// -smc-trace: the record's registers would cost some variants occupancy
// (pathfinder_rows and stencil7_sweep with drained exits: 40 registers
// instead of 32), so that variants compiled without it carry no trace code.
__device__ __forceinline__ void trace(const SmcDescriptor *d, unsigned kind,
                                      unsigned smid, unsigned chunk,
                                      unsigned count) {
#ifdef SMC_WORKER_TRACE
  if (d->trace)
    traceRecord(d->trace, d->trace_launch,
                warpId() | (d->top_up ? SMC_TRACE_TOP_UP_WORKER : 0), kind,
                smid, chunk, count);
#endif
}

// Records that the chunk (and the rest of its batch: `count` chunks in all)
// runs on this SM, stolen or not.
__device__ __forceinline__ unsigned ranOn(const SmcDescriptor *d, unsigned smid,
                                          unsigned chunk, bool stolen,
                                          unsigned count = 1) {
  if (chunk != SMC_NO_CHUNK)
    trace(d, SMC_TRACE_TAKEN, smid, chunk, count);
  if (chunk != SMC_NO_CHUNK && d->stats) {
    if (smid < d->num_slots)
      atomicAdd(&d->stats[SMC_STATS_CHUNKS_ON(d->num_slots, smid)], count);
    if (stolen)
      atomicAdd(&d->stats[SMC_STATS_WORD(d->num_slots, SMC_STATS_STOLEN)], 1u);
  }
  return chunk;
}

// Lanes of warp 0 that exist (a CTA may have fewer than 32 threads).
__device__ __forceinline__ unsigned warp0Mask() {
  unsigned threads = ntidX() * ntidY() * ntidZ();
  return threads >= 32 ? 0xffffffffu : (1u << threads) - 1;
}

// The thread's linear index in its CTA, which is its lane in warp 0: 0 is
// the leader, below 32 is warp 0.  The first and next chunk read it once.
__device__ __forceinline__ unsigned linearThread() {
  return tidX() + ntidX() * (tidY() + ntidY() * tidZ());
}

// Steals a chunk from another SM's queue.  Called by every thread of warp 0
// (lane 0 is the leader): the lanes look at 32 queues at a time, so running
// dry costs a few memory latencies rather than one per SM.  Returns the
// same chunk, or NONE, to every lane.
__device__ __forceinline__ unsigned steal(const SmcDescriptor *d,
                                          const SmcLeaderState *w,
                                          unsigned lane, unsigned mask) {
  if (d->ordered) // one queue, the worker's own: nothing to steal
    return SMC_NO_CHUNK;
  unsigned slots = d->num_slots;
  bool inRange = w->smid < slots;
  unsigned start = inRange ? w->smid + 1 : 0;
  for (unsigned base = 0; base < slots; base += 32) {
    unsigned q = start + base + lane;
    q = q >= slots ? q - slots : q;
    q = q >= slots ? q - slots : q;
    bool candidate = base + lane < slots && !(inRange && q == w->smid);
    if (candidate) {
      unsigned length = d->queue_start[q + 1] - d->queue_start[q];
      candidate = loadRelaxed(queueNext(d, q)) < length;
    }
    unsigned candidates = __ballot_sync(mask, candidate);
    while (candidates) {
      unsigned from = __shfl_sync(mask, q, __builtin_ctz(candidates));
      unsigned chunk = SMC_NO_CHUNK;
      if (lane == 0)
        chunk = ranOn(d, w->smid, claimFrom(d, from), true);
      chunk = __shfl_sync(mask, chunk, 0);
      if (chunk != SMC_NO_CHUNK)
        return chunk;
      candidates &= candidates - 1;
    }
  }
  return SMC_NO_CHUNK;
}

// Own-queue positions one claim takes: claim_batch in loop mode, not
// ordered, else 1.
__device__ __forceinline__ unsigned claimStep(const SmcDescriptor *d) {
  bool batched = d->mode == SMC_MODE_LOOP && !d->ordered;
  if (!batched || d->claim_batch <= 1)
    return 1u;
  return d->claim_batch < SMC_MAX_CLAIM_BATCH ? d->claim_batch
                                              : SMC_MAX_CLAIM_BATCH;
}

// Leader only: the chunk at position pos of its own queue, or NONE (and
// the queue is known exhausted) past its end.  The batch claimed at pos
// (claim_batch positions, cut at the queue's end) goes to w->batch.
__device__ __forceinline__ unsigned
ownChunkAt(const SmcDescriptor *d, SmcLeaderState *w, unsigned pos) {
  if (pos >= w->ownSize) {
    w->ownDone |= OWN_EXHAUSTED;
    return SMC_NO_CHUNK;
  }
  unsigned chunk = handOut(d, d->queue_start[w->ownQueue], w->ownFirst, pos);
  if (pos == w->ownSize - 1)
    queueHandedOut(d);
  unsigned rest = w->ownSize - pos;
  w->batch = w->step < rest ? w->step : rest;
  return ranOn(d, w->smid, chunk, false, w->batch);
}

// Leader only: the next chunk of its own queue (unless known empty).  No
// look before the atomic: it would put one more memory latency in front of
// every chunk, and a claim past the end is harmless.
__device__ __forceinline__ unsigned claimOwn(const SmcDescriptor *d,
                                             SmcLeaderState *w) {
  if (w->ownDone & NO_OWN_CLAIMS)
    return SMC_NO_CHUNK;
  return ownChunkAt(d, w, atomicAdd(queueNext(d, w->ownQueue), w->step));
}

// Leader only: which queue the worker claims from: its SM's, or in ordered
// mode queue 0 (the whole grid in blockIdx order); NONE if it has none.
__device__ __forceinline__ unsigned ownQueueOf(const SmcDescriptor *d,
                                               unsigned smid) {
  if (d->ordered)
    return 0;
  return smid < d->num_slots ? smid : SMC_NO_CHUNK;
}

// Leader only: learns where its own queue is.
__device__ __forceinline__ void findOwnQueue(const SmcDescriptor *d,
                                             SmcLeaderState *w) {
  w->ownDone = OWN_EXHAUSTED;
  w->ownSize = 0;
  w->ownFirst = 0;
  if (w->ownQueue == SMC_NO_CHUNK)
    return;
  unsigned begin = d->queue_start[w->ownQueue];
  w->ownSize = d->queue_start[w->ownQueue + 1] - begin;
  w->ownDone = w->ownSize == 0 ? OWN_EXHAUSTED : 0;
  if (d->queue_stride && w->ownSize)
    w->ownFirst = d->queue_chunks[begin];
}

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
// live partition's (LivePartition.h).
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

// Every thread of the worker calls the entry points.  The leader (thread 0)
// registers the worker and claims from its own queue; warp 0 steals; a
// barrier hands the chunk to the whole worker.

extern "C" __device__ unsigned __smc_dev_first_chunk(const SmcDescriptor *d,
                                                     SmcWorkerState *state) {
  SmcLeaderState *w = &__smc_dev_shared.leader;
  state->word = 0;
  unsigned chunk = SMC_NO_CHUNK;
  unsigned self = linearThread();
  if (self < 32) {
    unsigned mask = warp0Mask();
    bool active = false;
    if (self == 0) {
      w->pending = SMC_NO_CHUNK;
      w->ownDone = 0;
      w->batch = 1;
      w->step = claimStep(d);
      w->smid = readSmid();
      w->ownQueue = ownQueueOf(d, w->smid);
      // One-chunk mode: the own-queue atomic goes out together with the
      // loads that locate the queue (one memory latency, not three).
      if (d->mode == SMC_MODE_ONE_CHUNK && w->ownQueue != SMC_NO_CHUNK)
        w->pending = atomicAdd(queueNext(d, w->ownQueue), 1u);
      findOwnQueue(d, w);
      // A queue of at most one chunk per worker the SM may have: no claim
      // ahead in the first chunk (see __smc_dev_chunk_begin).
      if (w->smid < d->num_slots && w->ownSize <= d->slot_target[w->smid])
        w->ownDone |= FIRST_CHUNK;
      if (d->claim_batch == 0)
        w->ownDone |= NO_CLAIM_AHEAD;
      if (d->top_up && !joinLaunch(d))
        w->ownDone |= NOT_JOINED;
      active =
          d->mode == SMC_MODE_ONE_CHUNK ||
          (!(w->ownDone & NOT_JOINED) && decideActive(d, w, w->ownSize > 0));
      if (!active)
        countStat(d, SMC_STATS_WORD(d->num_slots, SMC_STATS_RETREATED));
      else if (d->stats && w->smid < d->num_slots)
        atomicAdd(&d->stats[SMC_STATS_WORKERS_ON(d->num_slots, w->smid)], 1u);
      if (w->pending != SMC_NO_CHUNK) {
        chunk = ownChunkAt(d, w, w->pending);
        w->pending = SMC_NO_CHUNK;
      } else if (active) {
        chunk = claimOwn(d, w);
      }
    }
    __syncwarp(mask); // w->smid, for steal()
    active = __shfl_sync(mask, active, 0);
    chunk = __shfl_sync(mask, chunk, 0);
    if (active && chunk == SMC_NO_CHUNK)
      chunk = steal(d, w, self, mask);
    if (self == 0 && chunk == SMC_NO_CHUNK && d->mode == SMC_MODE_LOOP)
      workerDone(d, w);
  }
  return broadcast(d, state, self, chunk, self == 0 ? w->batch : 1);
}

// Loop mode: the leader claims its next own-queue position now, so that the
// atomic's latency overlaps the chunk instead of delaying the next claim.
// Not during the worker's first chunk when its queue holds at most one chunk
// per worker the SM may have: the workers of an SM arrive one after another,
// and a first arrival that claimed ahead at once would take the second chunk
// that the worker arriving next would have run beside it, and run both in
// turn (nbody, about two chunks per SM and 16 workers per SM, ran 3x as long
// as its original).  A longer queue takes two rounds or more either way, and
// keeps the claim ahead from the start: skipping it there too cost reduce
// (15.5 chunks per SM, 8 workers) 19%.  Not in ordered mode, where a claimed
// chunk must be a running one, nor once the worker is leaving, nor when
// claim_batch is 0 (launches that yield SMs to higher-priority streams: a
// worker that must leave then leaves after the chunk it runs, not after one
// more, which halves an urgent kernel's wait).  With batched claims, at the
// start of a batch's last chunk: the next batch.
extern "C" __device__ void __smc_dev_chunk_begin(const SmcDescriptor *d,
                                                 SmcWorkerState *state) {
  SmcLeaderState *w = &__smc_dev_shared.leader;
  if (d->mode == SMC_MODE_LOOP && !d->ordered &&
      (tidX() | tidY() | tidZ()) == 0 && !(state->word & STATE_LEFT) &&
      !(w->ownDone & (NO_OWN_CLAIMS | FIRST_CHUNK | NO_CLAIM_AHEAD)))
    w->pending = atomicAdd(queueNext(d, w->ownQueue), w->step);
}

extern "C" __device__ unsigned __smc_dev_next_chunk(const SmcDescriptor *d,
                                                    SmcWorkerState *state,
                                                    unsigned independent) {
  // One-chunk mode: the worker ends with its chunk, like the original CTA.
  if (d->mode == SMC_MODE_ONE_CHUNK) {
    if (linearThread() == 0)
      trace(d, SMC_TRACE_WORKER_END, readSmid(), SMC_NO_CHUNK, 0);
    return SMC_NO_CHUNK;
  }
  // The next chunk of the batch: every thread steps to it by itself (the
  // same in all threads).  A barrier first where the body uses shared memory
  // or barriers: no thread may start the next chunk while another still
  // runs this one.
  if (state->word & STATE_LEFT) {
    state->word += (d->queue_stride ? d->queue_stride : 1u) - STATE_LEFT_ONE;
    if (!independent)
      __syncthreads();
    return chunkOf(d, state->word & STATE_CHUNK);
  }
  SmcLeaderState *w = &__smc_dev_shared.leader;
  unsigned chunk = SMC_NO_CHUNK;
  unsigned self = linearThread();
  if (self < 32) {
    unsigned mask = warp0Mask();
    // SMC_NO_CHUNK - 1 (never a chunk id: grids have at most 2^27 CTAs):
    // the leader has left.
    constexpr unsigned LEFT = SMC_NO_CHUNK - 1u;
    if (self == 0) {
      // Live partition: over its SM's target, a worker other than the
      // keeper leaves - after the chunk it claimed ahead, if any (LEAVING
      // stops claims ahead).  It decides once: it is off the count already.
      if (d->live_target && !(w->ownDone & (KEEPER | LEAVING)) &&
          leaves(d, w->smid))
        w->ownDone |= LEAVING;
      w->ownDone &= ~FIRST_CHUNK;
      w->batch = 1;
      if (w->pending != SMC_NO_CHUNK) {
        chunk = ownChunkAt(d, w, w->pending);
        w->pending = SMC_NO_CHUNK;
      }
      if (chunk == SMC_NO_CHUNK && (w->ownDone & LEAVING))
        chunk = LEFT;
      if (chunk == SMC_NO_CHUNK)
        chunk = claimOwn(d, w);
    }
    chunk = __shfl_sync(mask, chunk, 0);
    if (chunk == LEFT)
      chunk = SMC_NO_CHUNK;
    else if (chunk == SMC_NO_CHUNK)
      chunk = steal(d, w, self, mask);
    if (self == 0 && chunk == SMC_NO_CHUNK)
      workerDone(d, w);
  }
  return broadcast(d, state, self, chunk, self == 0 ? w->batch : 1);
}
