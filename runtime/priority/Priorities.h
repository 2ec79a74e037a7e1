//===- Priorities.h - Best-effort launches yield to urgent ones -*- C++ -*-===//
//
// Stream priorities for SM-centric launches (smc::PriorityMode in smc.h,
// PriorityRules.h for the rules).  Once yielding is on for a device, every
// SM-centric loop-mode launch on a best-effort stream (the least priority,
// no live partition, no SM set chosen by another decision-maker) points its
// descriptor's live targets at the device's table of yielded SMs, claims
// one chunk at a time, and is kept in a ring of yielding launches with an
// event recorded after it.
//
// An urgent launch (a stream of higher priority, or Policy::urgent) while
// yielding launches are in flight:
//
//   urgent stream:  write 0 to the table for its SMs   (cuStreamBatchMemOp)
//                   the kernel (SM-centric: confined to those SMs)
//                   write LiveTargetUncapped for them  (cuStreamBatchMemOp)
//                   record Done
//   top-up lanes:   after Done, for every yielding launch in flight, a
//                   top-up grid of its target x the SMs taken (grow-back)
//
// The writes are stream memory operations, which the GPU's front end
// carries out without an SM: a kernel (a memset) could not start while
// persistent workers hold every SM.  The best-effort workers on the taken
// SMs leave at their next chunk boundary (except their launch's keeper), so
// the urgent CTAs find room there; stream order restores the targets when
// the urgent kernel ends.  Exactly once is the live partitions' argument
// (runtime/device/SmcWorker.cu): the table only changes which workers stay.
// The Priority lock (base/Locks.h) guards each device's yielding state.
// With SMC_TENANTS=on, urgent launches take SMs from the yielding launches
// of other processes too (SharedYields.h).
//
// The decision-maker's part in a launch (dispatch/Dispatcher.cpp):
//   propose   urgent: the SMs it takes (an SM-centric launch is confined to
//             them), none for a reserved kernel (Reserve.h); best effort:
//             the room it leaves for reserved kernels, whether it yields;
//   before    urgent: the writes that take the SMs;
//   after     urgent: the writes that give them back, Done, the top-ups;
//             yielding: the launch joins the ring.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PRIORITY_PRIORITIES_H
#define SMC_RUNTIME_PRIORITY_PRIORITIES_H

#include "core/Launch.h"
#include "smc/smc.h"

#include <cuda.h>

#include <vector>

namespace smc {

struct DeviceState;
struct KernelEntry;
struct Prepared;
struct UrgentHold;

struct Priorities {
  struct Ticket {
    DeviceState *Device = nullptr;
    KernelEntry *Kernel = nullptr;
    UrgentHold *Hold = nullptr;     // an urgent launch that takes SMs
    std::vector<unsigned> Sms;      // the SMs it takes
    std::vector<uint32_t *> Tables; // the yield tables it writes them in
    CUresult Taken = CUDA_SUCCESS;
    bool Yielding = false; // a best-effort launch that yields
  };
  static void propose(Launch &L, Ticket &T);
  static void before(Launch &L, Ticket &T);
  static void after(Launch &L, Ticket &T, cudaError_t Err);
};

// The mode in force: setPriorityMode's, else SMC_PRIORITY's.
PriorityMode priorityMode();

// Whether a launch of `P` on `Stream` (the effective stream) is urgent: its
// policy says so (Policy::urgent) or its stream has a higher priority than
// the least, and yielding is not off.  No lock needed.
bool urgentLaunch(const Prepared &P, cudaStream_t Stream);

} // namespace smc

#endif // SMC_RUNTIME_PRIORITY_PRIORITIES_H
