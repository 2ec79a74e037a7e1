//===- DeviceBoards.h - Each GPU's tenant board, opened once ----*- C++ -*-===//
//
// SMC_TENANTS=on: the tenant board (tenants/TenantBoard.h) of a device,
// named by its GPU's UUID, opened on first use and kept; this process's
// slots on every board it opened are freed at exit.  Reserve.h publishes
// reserved room there, SharedYields.h yield tables and held SMs.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PRIORITY_DEVICEBOARDS_H
#define SMC_RUNTIME_PRIORITY_DEVICEBOARDS_H

#include "tenants/TenantBoard.h"

namespace smc {

// The Priority lock held.  Device `Ordinal`'s board; null where tenants
// are off or it cannot be opened (the program is told once).
tenants::Board *deviceBoard(int Ordinal);

// This process as the boards know it (its start time read once per pid: a
// child forked after registering is not its parent when it exits).
const tenants::Process &boardSelf();

} // namespace smc

#endif // SMC_RUNTIME_PRIORITY_DEVICEBOARDS_H
