//===- SharedBoard.h - The tenant board in shared memory --------*- C++ -*-===//
//
// The board of one GPU (TenantBoard.h) as a POSIX shared-memory object,
// /dev/shm/smc-tenants-<GPU UUID>, readable and writable by every user
// (processes of different users share a GPU under MPS), or as any file
// (tests, scripts/smc-tenants --board).  Mapped once and kept for the
// process's life.  No CUDA here: the caller names the GPU.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_TENANTS_SHAREDBOARD_H
#define SMC_RUNTIME_TENANTS_SHAREDBOARD_H

#include "tenants/TenantBoard.h"

#include <string>

namespace smc::tenants {

// The shared-memory name of the board of the GPU whose UUID is Uuid (32
// hex digits): "/smc-tenants-<Uuid>".
std::string boardName(const std::string &Uuid);

// The board at shared-memory name Name (a leading '/'), or, when File is
// true, at path Name; created (zeroed, then initialized) where missing.
// Null, with Error saying why, where it cannot be opened or mapped.
Board *mapBoard(const std::string &Name, bool File, std::string &Error);

} // namespace smc::tenants

#endif // SMC_RUNTIME_TENANTS_SHAREDBOARD_H
