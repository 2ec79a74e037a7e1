//===- Reserve.h - Room kept on every SM for a reserved kernel --*- C++ -*-===//
//
// Policy::reserve (`k=original(reserve)`): a kernel whose CTAs must start
// at once beside best-effort SM-centric kernels.  Stream priorities get an
// urgent CTA the next place that frees on an SM, which beside long CTAs or
// persistent workers is a CTA's or a chunk's length away (issue 35's
// measurement: docs/results/tail.md).  Here the place is never taken:
//
//   a reserved launch    records its CTA's footprint (threads, registers,
//                        shared memory) for its device, and runs as its
//                        policy says, taking no SMs (there is room); while
//                        best-effort launches keep room (here, or on the
//                        tenant board, within the last second), an
//                        original launch of no more CTAs than SMs runs
//                        with just over half an SM's shared memory per CTA
//                        (PriorityRules.h: spreadSharedBytes), so that no
//                        two of its CTAs share an SM: the hardware would
//                        pile them onto SMs whose workers ran out of
//                        chunks, several times slower;
//   a best-effort launch an SM-centric loop-mode launch that its own
//                        decision left on every SM runs with the most
//                        workers per SM that leave room for one CTA of the
//                        largest reserved footprint (PriorityRules.h:
//                        workersLeavingRoom), placed under its policy with
//                        that target (Launch::placeUnder); the program
//                        is told once per kernel and target what the
//                        room costs it; it notes that room is kept (and
//                        posts it to the board, at most every 10 ms).
//                        Where the room holds shared
//                        memory, its variant asks for the largest shared
//                        memory carveout (given back with the room): an SM
//                        changes its carveout only when it is empty.
//
// Until a reserved kernel has launched once on a device, nothing changes
// there; with no policy `reserve`, a launch pays one atomic load.  Once no
// policy has `reserve` or a latency target (a policy change), or every
// kernel that has room was withdrawn, the room is given back.
// The Priority lock guards each device's footprints.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PRIORITY_RESERVE_H
#define SMC_RUNTIME_PRIORITY_RESERVE_H

#include "core/Launch.h"

namespace smc {

struct DeviceState;
struct KernelEntry;
struct Prepared;

// A launch of a kernel with Policy::reserve: its footprint is kept for its
// device from now on.
void noteReservedLaunch(Launch &L, Prepared &P);

// No room is kept for `Kernel` on `Dev` any more (until it launches
// reserved again): a latency target met without it (latency/).  The room
// is given back once no kernel has one.
void withdrawReservedKernel(DeviceState &Dev, const KernelEntry &Kernel);

// A best-effort launch of `P` (loop-mode workers on every SM): placed under
// a policy with fewer workers per SM where a reserved footprint needs the
// room.  True if it was.
bool leaveReservedRoom(Launch &L, Prepared &P);

} // namespace smc

#endif // SMC_RUNTIME_PRIORITY_RESERVE_H
