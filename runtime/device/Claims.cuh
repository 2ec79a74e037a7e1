//===- Claims.cuh - Claiming chunks: own queue and steals ------*- CUDA -*-===//
//
// How the leader claims chunks from its own queue (in batches, ahead of
// time) and how warp 0 steals from other SMs' queues.  Part of
// SmcWorker.cu.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_DEVICE_CLAIMS_CUH
#define SMC_RUNTIME_DEVICE_CLAIMS_CUH

#include "Counters.cuh"

namespace {

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

} // namespace

#endif // SMC_RUNTIME_DEVICE_CLAIMS_CUH
