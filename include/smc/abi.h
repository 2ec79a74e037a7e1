//===- smc/abi.h - The one ABI shared by the SMC passes and runtime -------===//
//
// Everything the compiler plugin and the runtime must agree on is defined
// here, once: variant and symbol suffixes, the launch entry names, the layout
// of the descriptor each variant takes as its extra by-value parameter, the
// per-kernel info record the plugin leaves in the device module, and the
// reason codes for kernels it refuses.  test/passes/abi-layout.ll (through
// test/AbiDump.cpp) fails if the two sides drift apart.
//
// This header is plain C++ with no CUDA or LLVM dependency.
//===----------------------------------------------------------------------===//
#ifndef SMC_ABI_H
#define SMC_ABI_H

#include <cstdint>

#define SMC_ABI_VERSION 13u

// Suffixes appended to a kernel's (mangled) name for its variants and info.
#define SMC_SUFFIX_SMC "__smc"
#define SMC_SUFFIX_SLICE "__slice"
#define SMC_SUFFIX_REMAP "__remap"
#define SMC_SUFFIX_REMAP_KEYS "__remap_keys"
#define SMC_SUFFIX_INFO "__smc_info"

// CUDA runtime functions the host launch rewrite redirects to SMC runtime
// entry points of the same signature, as X(CUDA function, SMC entry):
// launches, so that they run a variant; cudaDeviceReset, so that the
// runtime rebuilds what it keeps on the device; graph instantiation and
// update, so that each executable graph's SM-centric kernel nodes get
// counter blocks of their own, and graph launch, destruction and node
// changes, so that graph layouts (smc/graphs.h) choose what a replay runs;
// stream creation with a priority, so that
// SM-centric launches yield SMs to higher-priority streams before the first
// launch on one; asynchronous memsets and copies, so that smc::Batch
// records them in their stream's order.  The runtime checks each entry's
// signature against the CUDA function's at compile time.
#define SMC_HOST_ENTRIES(X)                                                    \
  X(cudaLaunchKernel, __smc_launch_kernel)                                     \
  X(cudaLaunchKernel_ptsz, __smc_launch_kernel_ptsz)                           \
  X(cudaDeviceReset, __smc_device_reset)                                       \
  X(cudaGraphInstantiate, __smc_graph_instantiate)                             \
  X(cudaGraphInstantiateWithFlags, __smc_graph_instantiate_with_flags)         \
  X(cudaGraphInstantiateWithParams, __smc_graph_instantiate_with_params)       \
  X(cudaGraphInstantiateWithParams_ptsz,                                       \
    __smc_graph_instantiate_with_params_ptsz)                                  \
  X(cudaGraphExecUpdate, __smc_graph_exec_update)                              \
  X(cudaGraphLaunch, __smc_graph_launch)                                       \
  X(cudaGraphLaunch_ptsz, __smc_graph_launch_ptsz)                             \
  X(cudaGraphExecDestroy, __smc_graph_exec_destroy)                            \
  X(cudaGraphExecKernelNodeSetParams, __smc_graph_exec_kernel_node_set_params) \
  X(cudaGraphExecMemcpyNodeSetParams, __smc_graph_exec_memcpy_node_set_params) \
  X(cudaGraphExecMemcpyNodeSetParams1D,                                        \
    __smc_graph_exec_memcpy_node_set_params_1d)                                \
  X(cudaGraphExecMemsetNodeSetParams, __smc_graph_exec_memset_node_set_params) \
  X(cudaGraphExecHostNodeSetParams, __smc_graph_exec_host_node_set_params)     \
  X(cudaGraphExecChildGraphNodeSetParams,                                      \
    __smc_graph_exec_child_graph_node_set_params)                              \
  X(cudaGraphExecEventRecordNodeSetEvent,                                      \
    __smc_graph_exec_event_record_node_set_event)                              \
  X(cudaGraphExecEventWaitNodeSetEvent,                                        \
    __smc_graph_exec_event_wait_node_set_event)                                \
  X(cudaGraphExecExternalSemaphoresSignalNodeSetParams,                        \
    __smc_graph_exec_ext_semaphores_signal_node_set_params)                    \
  X(cudaGraphExecExternalSemaphoresWaitNodeSetParams,                          \
    __smc_graph_exec_ext_semaphores_wait_node_set_params)                      \
  X(cudaGraphExecNodeSetParams, __smc_graph_exec_node_set_params)              \
  X(cudaGraphNodeSetEnabled, __smc_graph_node_set_enabled)                     \
  X(cudaStreamCreateWithPriority, __smc_stream_create_with_priority)           \
  X(cudaMemsetAsync, __smc_memset_async)                                       \
  X(cudaMemsetAsync_ptsz, __smc_memset_async_ptsz)                             \
  X(cudaMemcpyAsync, __smc_memcpy_async)                                       \
  X(cudaMemcpyAsync_ptsz, __smc_memcpy_async_ptsz)

// How an __smc variant distributes chunks over its workers.
enum SmcMode : uint32_t {
  // Persistent workers: each worker loops, claiming chunks from its SM's
  // queue (then stealing) until all queues are empty.  Honours the per-SM
  // target and the SM set through filling-retreating.
  SMC_MODE_LOOP = 0,
  // One chunk per worker: the launch has one worker per chunk; each claims
  // one chunk from its SM's queue (or steals) and exits as the original CTA
  // would.  Used for kernels whose threads may exit before a barrier.
  SMC_MODE_ONE_CHUNK = 1,
};

// The descriptor, as a list of fields so that the pass can build the same
// struct type from it.  U32 fields are uint32_t, PTR fields are generic
// 64-bit pointers to uint32_t.  Natural alignment on both sides.
//
//  grid_x/y/z       the original launch's gridDim
//  num_chunks       grid_x * grid_y * grid_z (fits in 32 bits, checked)
//  mode             SmcMode
//  num_slots        size of the per-SM tables; a worker whose %smid is not
//                   below num_slots behaves as one on an SM outside the set
//  slice_offset     __slice launched as a 1-D grid: the first chunk of this
//                   slice (CTA b runs chunk slice_offset + b); 0 for whole
//                   rows
//  slice_first_y/z  __slice launched as whole rows of a 2-D or 3-D grid:
//                   CTA (x, y, z) runs blockIdx (x, y + slice_first_y, z +
//                   slice_first_z), no division; 0 for a 1-D slice.  The
//                   variant has no test of the launch's shape: with c =
//                   slice_offset + ctaid.x, blockIdx is (c, ctaid.y +
//                   slice_first_y, ctaid.z + slice_first_z) for c below
//                   grid_x and c decomposed otherwise (QueuePlan.h,
//                   sliceLaunch; SliceVariant.cpp)
//  queue_stride     0: queue s holds the chunk ids listed in queue_chunks;
//                   k > 0: its chunks are first, first + k, first + 2k, ...
//                   (first = queue_chunks[queue_start[s]]), so a claim
//                   needs no table load (interleaved: k = |set|; contiguous:
//                   k = 1)
//  busy_queues      number of non-empty queues
//  ordered          1: every worker claims from queue 0, which holds all
//                   chunks in linear blockIdx order (ordered mode, for
//                   kernels whose CTAs wait on each other); 0: each worker
//                   claims from its own SM's queue, then steals
//  div_x_mul/add/shift, div_y_mul/add/shift
//                   constants that divide a chunk id (or plane) by grid_x
//                   (grid_y) without a divide: n / grid_x ==
//                   mulhi(n + div_x_add, div_x_mul) >> div_x_shift for
//                   every n <= 2^32 - 2 (runtime/plan/MagicDivision.h)
//  claim_batch      loop mode: own-queue positions a worker claims with one
//                   atomic (1 to SMC_MAX_CLAIM_BATCH); every thread steps
//                   to the batch's next position itself: the next chunk id
//                   (queue_stride apart), or with queue_stride 0 the next
//                   table index, whose chunk id it loads;
//                   0: one position, and no claim ahead of the next chunk
//                   (launches that yield SMs to higher-priority streams)
//  launch_tag       0, or a number the runtime gives a launch on a
//                   partitioned stream (unique among the launches in flight:
//                   1 to 2^23 - 1, wrapping), so that top-up workers can
//                   find it while it runs; a top-up grid carries the tag of
//                   the launch it joins
//  top_up           0: the launch's own worker grid; 1: a top-up grid that
//                   joins the launch tagged launch_tag while it runs (grow-
//                   back of a live partition, see SMC_COUNTER_JOIN)
//  queue_start      [num_slots + 1] queue s holds queue_chunks[start[s],
//                   start[s+1])
//  queue_chunks     [num_chunks] chunk ids, grouped by queue, in run order
//  slot_target      [num_slots] active workers wanted on each SM; 0 means
//                   the SM is not in the launch's SM set (a top-up grid's
//                   table wants the plan's per-SM target on every SM)
//  live_target      null, or [num_slots] the per-SM targets of a live
//                   partition (smc::setStreamSMs), which the runtime may
//                   rewrite while the launch runs: workers read it instead
//                   of slot_target when they arrive, and again at every
//                   chunk boundary, where a worker whose SM has more active
//                   workers than its live target leaves
//  worker_count     active workers on each SM (zeroed): a worker adds
//                   itself when it arrives and takes itself off when it
//                   retreats or leaves; the one of SM s at
//                   worker_count[s * SMC_COUNTER_STRIDE]
//  queue_next       next unclaimed position of each queue, queue q's at
//                   queue_next[q * SMC_COUNTER_STRIDE]
//  launch_counters  see SmcLaunchCounter; counter c at
//                   launch_counters[c * SMC_COUNTER_STRIDE]
//  stats            null, or [SMC_STATS_WORDS(num_slots)] see SmcStatsWord
//  trace_launch     SMC_TRACE: the launch's number in the trace (1, 2, ...;
//                   a top-up grid carries its launch's)
//  trace            null, or the device's trace block (SMC_TRACE_*): every
//                   chunk a worker takes and every worker's end, with its
//                   SM and %globaltimer
//  remap_count      __remap and __remap_keys (thread-data remapping, 1-D
//                   grid and block): the jobs the remap covers; thread
//                   t = ctaid.x * ntid.x + tid.x below it does job
//                   remap_table[t] (blockIdx.x and threadIdx.x read as
//                   those of that job), a thread at or above it its own
//  remap_table      [remap_count] a permutation of [0, remap_count)
//  remap_keys       __remap_keys: [remap_count] where thread t writes the
//                   key of its job (the runtime sorts jobs by key); threads
//                   that never reach the key leave their word as it was
#define SMC_DESC_FIELDS(U32, PTR)                                              \
  U32(grid_x)                                                                  \
  U32(grid_y)                                                                  \
  U32(grid_z)                                                                  \
  U32(num_chunks)                                                              \
  U32(mode)                                                                    \
  U32(num_slots)                                                               \
  U32(slice_offset)                                                            \
  U32(queue_stride)                                                            \
  U32(busy_queues)                                                             \
  U32(ordered)                                                                 \
  U32(div_x_mul)                                                               \
  U32(div_x_add)                                                               \
  U32(div_x_shift)                                                             \
  U32(div_y_mul)                                                               \
  U32(div_y_add)                                                               \
  U32(div_y_shift)                                                             \
  U32(claim_batch)                                                             \
  U32(launch_tag)                                                              \
  U32(top_up)                                                                  \
  U32(slice_first_y)                                                           \
  U32(slice_first_z)                                                           \
  U32(trace_launch)                                                            \
  U32(remap_count)                                                             \
  PTR(queue_start)                                                             \
  PTR(queue_chunks)                                                            \
  PTR(slot_target)                                                             \
  PTR(live_target)                                                             \
  PTR(worker_count)                                                            \
  PTR(queue_next)                                                              \
  PTR(launch_counters)                                                         \
  PTR(stats)                                                                   \
  PTR(trace)                                                                   \
  PTR(remap_table)                                                             \
  PTR(remap_keys)

#define SMC_DESC_DECLARE_U32(name) uint32_t name;
#define SMC_DESC_DECLARE_PTR(name) uint32_t *name;
struct SmcDescriptor {
  SMC_DESC_FIELDS(SMC_DESC_DECLARE_U32, SMC_DESC_DECLARE_PTR)
};
#undef SMC_DESC_DECLARE_U32
#undef SMC_DESC_DECLARE_PTR

// Counters are SMC_COUNTER_STRIDE words (128 bytes) apart, so that atomics
// of different SMs never contend for one cache line.
#define SMC_COUNTER_STRIDE 32u

// Words of a counter block: worker_count, queue_next and launch_counters.
#define SMC_COUNTER_BLOCK_WORDS(S)                                             \
  ((2u * (S) + SMC_LAUNCH_COUNTERS) * SMC_COUNTER_STRIDE)

// Words of launch_counters.  When no worker of the launch will touch a
// counter again, one worker zeroes worker_count, queue_next and these
// counters, so one counter block serves every launch that is stream-ordered
// after it.  Loop mode knows that moment from `exited` reaching the number
// of workers (the last of them first waits for the top-up workers that
// joined); one-chunk mode (one worker per chunk, each claiming once) from
// the last position of the last busy queue being claimed, which keeps a
// global atomic per CTA off the one-chunk path.
enum SmcLaunchCounter : uint32_t {
  SMC_COUNTER_ARRIVED = 0,     // workers that made their retreat decision
  SMC_COUNTER_ACTIVE = 1,      // workers that decided to work, less those
                               // that left at a chunk boundary
  SMC_COUNTER_EXITED = 2,      // loop mode: workers done with every counter
  SMC_COUNTER_QUEUES_DONE = 3, // one-chunk mode: queues fully claimed
  // 64 bits: which launch top-up workers may join, and how many did.  Bits
  // 0-19 top-up workers that exited, 20-39 top-up workers that joined, 40
  // closed (the launch's own workers have all exited: nobody joins any
  // more), 41-63 the launch_tag of the launch running on the block, which
  // its first arriving worker writes (0: none, so nobody joins).
  SMC_COUNTER_JOIN = 4,
  SMC_LAUNCH_COUNTERS = 5,
};

// The most chunks one claim of batched claims takes
// (SmcDescriptor::claim_batch).
#define SMC_MAX_CLAIM_BATCH 16u

// Per-thread state of a worker (runtime/device/SmcWorker.cu); the pass
// allocates this many uint32_t for it in every __smc variant.
#define SMC_WORKER_STATE_WORDS 1u

// Layout of the optional statistics block (all uint32_t, zeroed by the
// runtime before the launch), for S = num_slots:
//   [0, S)      chunks run on each SM (by the %smid of the worker that ran it)
//   [S, 2S)     active (non-retreating) workers on each SM
//   [2S + w]    the launch-wide counts of SmcStatsWord w
#define SMC_STATS_CHUNKS_ON(S, s) (s)
#define SMC_STATS_WORKERS_ON(S, s) ((S) + (s))
#define SMC_STATS_WORD(S, w) (2u * (S) + (w))
enum SmcStatsWord : uint32_t {
  SMC_STATS_STOLEN = 0,            // chunks taken from another SM's queue
  SMC_STATS_RETREATED = 1,         // workers that retreated
  SMC_STATS_OUT_OF_RANGE_SMID = 2, // workers whose %smid was not < num_slots
  SMC_STATS_LEFT = 3,              // active workers that left at a chunk
                                   // boundary (live partitions)
  SMC_STATS_LAUNCH_WORDS = 4,
};
#define SMC_STATS_WORDS(S) SMC_STATS_WORD(S, SMC_STATS_LAUNCH_WORDS)

// Layout of the optional trace block (SMC_TRACE; uint32_t words in device
// memory, one block per device, shared by every traced launch on it):
//   [0]     capacity: the records there is room for
//   [1]     records taken so far (a worker takes the next with an atomic;
//           those past the capacity are dropped)
//   [2, 3]  the address of the records (64 bits, low word first): page-
//           locked host memory mapped for the device, so that the host reads
//           them without a CUDA call, also at exit
// Record r is SMC_TRACE_RECORD_WORDS words from r * SMC_TRACE_RECORD_WORDS,
// its words SmcTraceWord; one per event, zero until written.
#define SMC_TRACE_HEADER_WORDS 4u
#define SMC_TRACE_RECORD_WORDS 8u
enum SmcTraceWord : uint32_t {
  SMC_TRACE_LAUNCH = 0,  // the launch's trace_launch
  SMC_TRACE_KIND = 1,    // SmcTraceKind
  SMC_TRACE_SM = 2,      // %smid of the worker
  SMC_TRACE_WORKER = 3,  // the leader warp's %warpid (its slot on the SM);
                         // bit 31: a worker of a top-up grid
  SMC_TRACE_CHUNK = 4,   // SMC_TRACE_TAKEN: the (first) chunk id
  SMC_TRACE_COUNT = 5,   // SMC_TRACE_TAKEN: chunks taken (a batch)
  SMC_TRACE_TIME_LO = 6, // %globaltimer (ns), low and high word
  SMC_TRACE_TIME_HI = 7,
};
enum SmcTraceKind : uint32_t {
  SMC_TRACE_TAKEN = 0,      // the worker starts a chunk (or a batch of them)
  SMC_TRACE_WORKER_END = 1, // the worker has no chunk left, or leaves
};
#define SMC_TRACE_TOP_UP_WORKER 0x80000000u

// What the worker's chunk functions return when no chunk is left.
#define SMC_NO_CHUNK 0xffffffffu

// The worker protocol's device entry points (runtime/device/SmcWorker.cu),
// which every __smc variant calls, and the shared slot they broadcast chunk
// ids through:
//   first = SMC_DEVICE_FIRST_CHUNK(desc, &state)   once per worker (CTA)
//   SMC_DEVICE_CHUNK_BEGIN(desc, &state)           at the start of a chunk
//   next  = SMC_DEVICE_NEXT_CHUNK(desc, &state, independent)
//                                                  when a chunk ends;
//           independent = 1 where the body uses no shared memory and no
//           barrier, so that chunks of a claimed batch need no barrier
//           between them (a constant the pass passes)
#define SMC_DEVICE_FIRST_CHUNK "__smc_dev_first_chunk"
#define SMC_DEVICE_CHUNK_BEGIN "__smc_dev_chunk_begin"
#define SMC_DEVICE_NEXT_CHUNK "__smc_dev_next_chunk"
// The worker's static shared memory (chunk-id slots and the leader's state)
// and its size in bytes.
#define SMC_DEVICE_SHARED "__smc_dev_shared"
#define SMC_DEVICE_SHARED_BYTES 48u

// The record <kernel>__smc_info the plugin leaves in the device module for
// every kernel it considered, as eight uint32_t.  locality is an
// SmcLocality, remap_key an SmcRemapKey.
#define SMC_INFO_FIELDS(X)                                                     \
  X(abi_version)                                                               \
  X(flags)                                                                     \
  X(num_params)                                                                \
  X(smc_refusal)                                                               \
  X(slice_refusal)                                                             \
  X(locality)                                                                  \
  X(remap_refusal)                                                             \
  X(remap_key)

#define SMC_INFO_DECLARE(name) uint32_t name;
struct SmcKernelInfo {
  SMC_INFO_FIELDS(SMC_INFO_DECLARE)
};
#undef SMC_INFO_DECLARE

enum SmcInfoFlag : uint32_t {
  SMC_INFO_HAS_SMC = 1u << 0,   // <kernel>__smc exists
  SMC_INFO_HAS_SLICE = 1u << 1, // <kernel>__slice exists
  SMC_INFO_ONE_CHUNK = 1u << 2, // __smc must run in SMC_MODE_ONE_CHUNK
  SMC_INFO_ORDERED = 1u << 3,   // __smc must claim chunks in blockIdx order
  SMC_INFO_TRACED = 1u << 4,    // __smc writes SMC_TRACE records (-smc-trace)
  SMC_INFO_HAS_REMAP = 1u << 5, // <kernel>__remap and __remap_keys exist
};

// Why the plugin did not build a variant.  Text for each code in
// smcRefusalText(); the pass and the runtime both print it.
#define SMC_REFUSALS(X)                                                        \
  X(SMC_REFUSAL_NONE, "none")                                                  \
  X(SMC_REFUSAL_NOT_REQUESTED, "variant not requested by -smc-transforms")     \
  X(SMC_REFUSAL_GRID_SYNC, "grid-wide synchronization")                        \
  X(SMC_REFUSAL_DYNAMIC_PARALLELISM,                                           \
    "dynamic parallelism (device-side launch)")                                \
  X(SMC_REFUSAL_CLUSTER, "thread block clusters")                              \
  X(SMC_REFUSAL_INLINE_ASM, "inline assembly reads %ctaid, %nctaid or %smid")  \
  X(SMC_REFUSAL_GRID_BARRIER,                                                  \
    "grid-wide barrier built by hand (waits for later CTAs)")                  \
  X(SMC_REFUSAL_UNKNOWN_CALLEE,                                                \
    "calls a function whose body is not in this module")                       \
  X(SMC_REFUSAL_INDIRECT_CALL, "indirect call")                                \
  X(SMC_REFUSAL_RECURSION, "recursive call graph")                             \
  X(SMC_REFUSAL_NOT_INLINABLE,                                                 \
    "a function reading blockIdx/gridDim could not be inlined")                \
  X(SMC_REFUSAL_RESOURCES, "the variant would exceed a hardware limit")        \
  X(SMC_REFUSAL_THREADS_COUPLED,                                               \
    "threads work together (shared memory, barrier, warp intrinsic or "        \
    "inline assembly)")                                                        \
  X(SMC_REFUSAL_NO_REMAP_KEY,                                                  \
    "no thread-indexed load decides a branch or an address before the first "  \
    "write")

// Defines, from an X-list of (code, text) pairs, the enum `Enum` of the
// codes followed by `Count`, and `TextFn(code)`: each code's text, or
// `Unknown` for a value that is no code.
#define SMC_CODE_OF(code, text) code,
#define SMC_TEXT_OF(code, text) text,
#define SMC_CODED_ENUM(Enum, List, Count, TextFn, Unknown)                     \
  enum Enum : uint32_t { List(SMC_CODE_OF) Count };                            \
  inline const char *TextFn(uint32_t code) {                                   \
    static const char *const texts[] = {List(SMC_TEXT_OF)};                    \
    return code < Count ? texts[code] : Unknown;                               \
  }

SMC_CODED_ENUM(SmcRefusal, SMC_REFUSALS, SMC_REFUSAL_COUNT, smcRefusalText,
               "unknown reason")

// Which neighbouring CTAs of a kernel read the same global memory, as the
// plugin's locality analysis (passes/LocalityAnalysis.h says how) classifies
// the kernel's read addresses: a CTA-clustering policy groups such
// neighbours on one SM.  Text for each class in smcLocalityText().
#define SMC_LOCALITIES(X)                                                      \
  X(SMC_LOCALITY_NONE, "none")           /* neighbours read disjoint data */   \
  X(SMC_LOCALITY_X, "x")                 /* neighbours along x share */        \
  X(SMC_LOCALITY_Y, "y")                 /* neighbours along y share */        \
  X(SMC_LOCALITY_Z, "z")                 /* neighbours along z share */        \
  X(SMC_LOCALITY_TILE, "tile")           /* along 2 or 3 dimensions */         \
  X(SMC_LOCALITY_IRREGULAR, "irregular") /* indexed by loaded data */          \
  X(SMC_LOCALITY_UNKNOWN, "unknown")     /* addresses not analysable */

SMC_CODED_ENUM(SmcLocality, SMC_LOCALITIES, SMC_LOCALITY_COUNT, smcLocalityText,
               "unknown")

// What the key of a __remap variant's jobs is: the value of a load at an
// address derived from the thread's global index (before any write), which
// decides a loop's trip count, a branch, or the address of another load.
// Sorting jobs by it gives a warp jobs that branch alike or read neighbouring
// data.  Text for each kind in smcRemapKeyText().
#define SMC_REMAP_KEYS(X)                                                      \
  X(SMC_REMAP_KEY_NONE, "none")                                                \
  X(SMC_REMAP_KEY_LOOP, "loop trip count")                                     \
  X(SMC_REMAP_KEY_BRANCH, "branch")                                            \
  X(SMC_REMAP_KEY_GATHER, "gather index")

SMC_CODED_ENUM(SmcRemapKey, SMC_REMAP_KEYS, SMC_REMAP_KEY_COUNT,
               smcRemapKeyText, "unknown")

#endif // SMC_ABI_H
