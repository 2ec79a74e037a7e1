//===- Counters.cuh - Counters, queues and records -------------*- CUDA -*-===//
//
// The counter block's words, what a queue position hands out, the claim of
// one queue position, and the records a worker leaves: statistics and
// SMC_TRACE.  Part of SmcWorker.cu.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_DEVICE_COUNTERS_CUH
#define SMC_RUNTIME_DEVICE_COUNTERS_CUH

#include "WorkerState.cuh"

namespace {

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

} // namespace

#endif // SMC_RUNTIME_DEVICE_COUNTERS_CUH
