//===- SharedYields.h - Urgent launches take SMs from other processes -*- C++
//-*-===//
//
// SMC_TENANTS=on: the yielding of Priorities.h across the processes that
// share a GPU (under MPS), through the tenant board (DeviceBoards.h):
//
//   an urgent process    says on the board that it takes SMs (once per
//                        device), opens the yield tables the others share
//                        (CUDA IPC), and writes 0 for the SMs an urgent
//                        launch takes in each of them, as in its own, and
//                        LiveTargetUncapped after the kernel (stream memory
//                        operations, its stream's order); while a launch
//                        of it may hold SMs, they are its Held mask there
//                        (so that two urgent processes take different SMs);
//   a best-effort process once another live process takes SMs, it starts
//                        yielding (Priorities.h) and shares its yield table;
//                        when a process died holding SMs (the board's
//                        Orphaned count moved), it writes back the SMs no
//                        live process holds, before its next yielding
//                        launch.
//
// The board is read again when its generation moved, or every 200 ms (for
// processes that died: by a best-effort launch, and after an urgent launch
// has gone to the GPU, never before it: reading /proc takes tens of us).  A
// best-effort launch whose workers left SMs to another process gets them back
// at its next launch (no top-up grids across processes: its host does not know
// when the other's kernel ended). Everything here runs with the Priority lock
// held.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PRIORITY_SHAREDYIELDS_H
#define SMC_RUNTIME_PRIORITY_SHAREDYIELDS_H

#include <cstdint>
#include <vector>

namespace smc {

struct DeviceState;

// Shares `Table` (the device's yield table, [NumSMs] in device memory from
// cudaMalloc) on the board; once per device (when yielding starts).
void shareYieldTable(DeviceState &Dev, uint32_t *Table);

// Whether another live process on the board takes SMs.
bool anotherProcessTakes(DeviceState &Dev);

// This process takes SMs on `Dev` (said on the board once).
void announceTaking(DeviceState &Dev);

// The yield tables other live processes share, opened here; the SMs other
// live processes hold are marked in HeldByOthers ([NumSMs]).  Tables whose
// owner is gone are closed unless `HoldsInFlight` (a write of this process
// to them may still be pending).
std::vector<uint32_t *> othersYieldTables(DeviceState &Dev, bool HoldsInFlight,
                                          std::vector<bool> &HeldByOthers);

// The board read for processes that died, if 200 ms passed since the last
// read (after an urgent launch).
void lookForDeadTenants(DeviceState &Dev);

// The SMs this process holds now ([NumSMs]), onto the board.
void holdOnBoard(DeviceState &Dev, const std::vector<bool> &Held);

// The SMs to write back in this process's own yield table: none, unless a
// process died holding SMs since the last look; then every SM no live
// process holds.
std::vector<unsigned> orphanedSms(DeviceState &Dev);

} // namespace smc

#endif // SMC_RUNTIME_PRIORITY_SHAREDYIELDS_H
