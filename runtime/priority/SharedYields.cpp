//===- SharedYields.cpp - Urgent launches take SMs from other processes ---===//
//
// Each device's view of the board's yields; see SharedYields.h.
//===----------------------------------------------------------------------===//
#include "priority/SharedYields.h"

#include "base/Messages.h"
#include "core/Devices.h"
#include "priority/DeviceBoards.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace smc {
namespace {

constexpr int64_t ReadEveryNs = 200000000;

// Another process's yield table, opened here.
struct ForeignTable {
  tenants::Process Owner;
  std::vector<unsigned char> Handle;
  uint32_t *Targets = nullptr;
  bool OnBoard = true; // shared by a live process at the last read
};

// A device's yields across processes (the Priority lock).
struct SharedYieldState {
  uint64_t Seen = UINT64_MAX; // the board's generation at the last read
  int64_t ReadNs = 0;
  uint64_t Orphaned = 0; // the board's count at the last look
  bool OrphanedRead = false;
  bool Announced = false, Shared = false;
  std::vector<tenants::Tenant> Live; // the last read
  std::vector<ForeignTable> Tables;
};

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// When the board's tenants are read again.
enum class Read {
  Changed, // when the board changed
  Due,     // ... or ReadEveryNs passed (processes that died)
  Now,
};

// The board's tenants, read again as `When` says; false without a board.
bool refresh(DeviceState &Dev, SharedYieldState &S, Read When) {
  tenants::Board *B = deviceBoard(Dev.Ordinal);
  if (!B)
    return false;
  int64_t Now = nowNs();
  uint64_t Generation = B->Generation.load(std::memory_order_acquire);
  if (When != Read::Now && Generation == S.Seen &&
      (When == Read::Changed || Now - S.ReadNs < ReadEveryNs))
    return true;
  S.Live = tenants::tenants(*B, tenants::processAlive);
  // A reader may have freed slots: the generation after the read.
  S.Seen = B->Generation.load(std::memory_order_acquire);
  S.ReadNs = Now;
  return true;
}

void tellTenants(int Ordinal, const std::string &What) {
  tell("SMC_TENANTS: device " + std::to_string(Ordinal) + ": " + What);
}

} // namespace

void shareYieldTable(DeviceState &Dev, uint32_t *Table) {
  SharedYieldState &S = Dev.Rooms.get<SharedYieldState>();
  tenants::Board *B = deviceBoard(Dev.Ordinal);
  if (!B || S.Shared)
    return;
  S.Shared = true;
  cudaIpcMemHandle_t Handle{};
  static_assert(sizeof Handle == tenants::TableHandleBytes,
                "a yield table's handle fits its place on the board");
  cudaError_t Err = cudaIpcGetMemHandle(&Handle, Table);
  if (Err != cudaSuccess) {
    cudaGetLastError();
    return tellTenants(Dev.Ordinal,
                       std::string("its yield table cannot be shared (") +
                           cudaGetErrorString(Err) +
                           "); urgent launches of other processes do not "
                           "take SMs from this one");
  }
  unsigned char Bytes[tenants::TableHandleBytes];
  std::memcpy(Bytes, &Handle, sizeof Bytes);
  // Processes that die holding SMs from now on hold some of this table.
  S.Orphaned = B->Orphaned.load(std::memory_order_acquire);
  S.OrphanedRead = true;
  if (!tenants::shareTable(*B, boardSelf(), Bytes, tenants::processAlive))
    tellTenants(Dev.Ordinal, "the tenant board is full; urgent launches of "
                             "other processes do not take SMs from this one");
}

bool anotherProcessTakes(DeviceState &Dev) {
  SharedYieldState &S = Dev.Rooms.get<SharedYieldState>();
  if (!refresh(Dev, S, Read::Due))
    return false;
  return std::any_of(S.Live.begin(), S.Live.end(),
                     [](const tenants::Tenant &T) {
                       return T.Takes && !(T.Who == boardSelf());
                     });
}

void announceTaking(DeviceState &Dev) {
  SharedYieldState &S = Dev.Rooms.get<SharedYieldState>();
  tenants::Board *B = deviceBoard(Dev.Ordinal);
  if (!B || S.Announced)
    return;
  S.Announced = true;
  if (!tenants::announceTaking(*B, boardSelf(), tenants::processAlive))
    tellTenants(Dev.Ordinal, "the tenant board is full; urgent launches of "
                             "this process take no SMs from other processes");
}

std::vector<uint32_t *> othersYieldTables(DeviceState &Dev, bool HoldsInFlight,
                                          std::vector<bool> &HeldByOthers) {
  SharedYieldState &S = Dev.Rooms.get<SharedYieldState>();
  std::vector<uint32_t *> Out;
  // On the urgent launch's path: the board's slots (and /proc) are read
  // only when it changed; lookForDeadTenants reads for dead processes.
  if (!refresh(Dev, S, Read::Changed))
    return Out;
  const tenants::Process &Self = boardSelf();
  std::vector<bool> Held = tenants::heldByOthers(S.Live, Self);
  for (unsigned Sm = 0; Sm < HeldByOthers.size() && Sm < Held.size(); ++Sm)
    HeldByOthers[Sm] = HeldByOthers[Sm] || Held[Sm];
  for (ForeignTable &F : S.Tables)
    F.OnBoard = false;
  for (const tenants::Tenant &T : S.Live) {
    if (!T.Shares || T.Who == Self)
      continue;
    auto It = std::find_if(S.Tables.begin(), S.Tables.end(),
                           [&](const ForeignTable &F) {
                             return F.Owner == T.Who && F.Handle == T.Table;
                           });
    if (It == S.Tables.end()) {
      ForeignTable F{T.Who, T.Table};
      cudaIpcMemHandle_t Handle{};
      std::memcpy(&Handle, T.Table.data(), sizeof Handle);
      void *At = nullptr;
      cudaError_t Err =
          cudaIpcOpenMemHandle(&At, Handle, cudaIpcMemLazyEnablePeerAccess);
      if (Err != cudaSuccess) {
        cudaGetLastError();
        tellTenants(Dev.Ordinal,
                    "the yield table of process " + std::to_string(T.Who.Pid) +
                        " cannot be opened (" + cudaGetErrorString(Err) +
                        "); urgent launches here take no SMs from it");
      }
      F.Targets = static_cast<uint32_t *>(At); // null: failed, not retried
      It = S.Tables.insert(S.Tables.end(), std::move(F));
    }
    It->OnBoard = true;
    if (It->Targets)
      Out.push_back(It->Targets);
  }
  // Tables of processes that are gone, once no write of ours can be
  // pending (closing the mapping lets the driver free the memory).
  if (!HoldsInFlight)
    S.Tables.erase(std::remove_if(S.Tables.begin(), S.Tables.end(),
                                  [](const ForeignTable &F) {
                                    if (F.OnBoard)
                                      return false;
                                    if (F.Targets &&
                                        cudaIpcCloseMemHandle(F.Targets) !=
                                            cudaSuccess)
                                      cudaGetLastError();
                                    return true;
                                  }),
                   S.Tables.end());
  return Out;
}

void lookForDeadTenants(DeviceState &Dev) {
  refresh(Dev, Dev.Rooms.get<SharedYieldState>(), Read::Due);
}

void holdOnBoard(DeviceState &Dev, const std::vector<bool> &Held) {
  if (tenants::Board *B = deviceBoard(Dev.Ordinal))
    tenants::setHeld(*B, boardSelf(), Held);
}

std::vector<unsigned> orphanedSms(DeviceState &Dev) {
  SharedYieldState &S = Dev.Rooms.get<SharedYieldState>();
  std::vector<unsigned> Back;
  if (!refresh(Dev, S, Read::Due))
    return Back;
  tenants::Board &B = *deviceBoard(Dev.Ordinal);
  uint64_t Orphaned = B.Orphaned.load(std::memory_order_acquire);
  bool Moved = S.OrphanedRead && Orphaned != S.Orphaned;
  S.Orphaned = Orphaned;
  S.OrphanedRead = true;
  if (!Moved)
    return Back;
  refresh(Dev, S, Read::Now);
  std::vector<bool> Held =
      tenants::heldByOthers(S.Live, tenants::Process{}); // every live one
  for (unsigned Sm = 0; Sm < Dev.NumSMs; ++Sm)
    if (Sm >= Held.size() || !Held[Sm])
      Back.push_back(Sm);
  tellTenants(Dev.Ordinal,
              "a process died holding SMs of this one's yield table; this "
              "process wrote them back");
  return Back;
}

} // namespace smc
