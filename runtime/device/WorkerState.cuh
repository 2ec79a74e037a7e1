//===- WorkerState.cuh - The worker's state and registers ------*- CUDA -*-===//
//
// What a worker keeps: its per-thread state word (the pass allocates it), the
// leader's state and the broadcast slots in shared memory, the bits of both,
// and the special registers it reads.  Part of SmcWorker.cu (one translation
// unit: the plugin links it as bitcode).
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_DEVICE_WORKERSTATE_CUH
#define SMC_RUNTIME_DEVICE_WORKERSTATE_CUH

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
// workloads of many short chunks pay (docs/results/overhead.md).
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

} // namespace

#endif // SMC_RUNTIME_DEVICE_WORKERSTATE_CUH
