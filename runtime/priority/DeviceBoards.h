//===- DeviceBoards.h - Each GPU's tenant board, opened once ----*- C++ -*-===//
//
// SMC_TENANTS=on: the tenant board (tenants/TenantBoard.h) of a device,
// named by its GPU's UUID, opened on first use and kept; this process's
// slots on every board it opened are freed at exit.  Reserve.h publishes
// reserved room there, SharedYields.h yield tables and held SMs.  Both read
// the board's tenants through one view per device, read again when the
// board changed or, for processes that died, every 200 ms.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PRIORITY_DEVICEBOARDS_H
#define SMC_RUNTIME_PRIORITY_DEVICEBOARDS_H

#include "tenants/TenantBoard.h"

#include <cstdint>
#include <vector>

namespace smc {

// The Priority lock held.  Device `Ordinal`'s board; null where tenants
// are off or it cannot be opened (the program is told once).
tenants::Board *deviceBoard(int Ordinal);

// This process as the boards know it (its start time read once per pid: a
// child forked after registering is not its parent when it exits).
const tenants::Process &boardSelf();

// When a device's view of its board's tenants is read again: when the
// board changed; also when 200 ms passed since the last read (a read frees
// the slots of processes that died, and reads /proc: tens of us); always.
enum class BoardRead { Changed, Due, Now };

// The Priority lock held.  The live processes on device `Ordinal`'s board,
// read again as `When` says; null without a board.
const std::vector<tenants::Tenant> *boardTenants(int Ordinal, BoardRead When);

// CLOCK_MONOTONIC in ns, which every process reads alike (the board's
// times).
int64_t boardClockNs();

} // namespace smc

#endif // SMC_RUNTIME_PRIORITY_DEVICEBOARDS_H
