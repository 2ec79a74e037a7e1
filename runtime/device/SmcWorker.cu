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
#include "Membership.cuh"

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
