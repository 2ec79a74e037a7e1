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
#include <cstring>

namespace smc {
namespace {

// Another process's yield table, opened here.
struct ForeignTable {
  tenants::Process Owner;
  std::vector<unsigned char> Handle;
  uint32_t *Targets = nullptr;
  bool OnBoard = true; // shared by a live process at the last read
};

// A device's yields across processes (the Priority lock).
struct SharedYieldState {
  bool Announced = false;
  bool Shared = false;   // this process's table is on the board
  uint64_t Orphaned = 0; // the board's count at the last look
  std::vector<ForeignTable> Tables;
};

void tellTenants(int Ordinal, const std::string &What) {
  tell("SMC_TENANTS: device " + std::to_string(Ordinal) + ": " + What);
}

} // namespace

void shareYieldTable(DeviceState &Dev, uint32_t *Table) {
  SharedYieldState &S = Dev.Rooms.get<SharedYieldState>();
  tenants::Board *B = deviceBoard(Dev.Ordinal);
  if (!B)
    return;
  // Processes that die holding SMs from now on hold some of this table.
  S.Orphaned = B->Orphaned.load(std::memory_order_acquire);
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
  S.Shared = tenants::shareTable(*B, boardSelf(), Bytes, tenants::processAlive);
  if (!S.Shared)
    tellTenants(Dev.Ordinal, "the tenant board is full; urgent launches of "
                             "other processes do not take SMs from this one");
}

bool anotherProcessTakes(DeviceState &Dev) {
  const std::vector<tenants::Tenant> *Live =
      boardTenants(Dev.Ordinal, BoardRead::Due);
  return Live &&
         std::any_of(Live->begin(), Live->end(), [](const tenants::Tenant &T) {
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
  const std::vector<tenants::Tenant> *Live =
      boardTenants(Dev.Ordinal, BoardRead::Changed);
  if (!Live)
    return Out;
  const tenants::Process &Self = boardSelf();
  std::vector<bool> Held = tenants::heldByOthers(*Live, Self);
  for (unsigned Sm = 0; Sm < HeldByOthers.size() && Sm < Held.size(); ++Sm)
    HeldByOthers[Sm] = HeldByOthers[Sm] || Held[Sm];
  for (ForeignTable &F : S.Tables)
    F.OnBoard = false;
  for (const tenants::Tenant &T : *Live) {
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
  boardTenants(Dev.Ordinal, BoardRead::Due);
}

void holdOnBoard(DeviceState &Dev, const std::vector<bool> &Held) {
  if (tenants::Board *B = deviceBoard(Dev.Ordinal))
    tenants::setHeld(*B, boardSelf(), Held);
}

std::vector<unsigned> orphanedSms(DeviceState &Dev) {
  SharedYieldState &S = Dev.Rooms.get<SharedYieldState>();
  std::vector<unsigned> Back;
  // Only a table on the board is written by other processes.
  if (!S.Shared || !boardTenants(Dev.Ordinal, BoardRead::Due))
    return Back;
  uint64_t Orphaned =
      deviceBoard(Dev.Ordinal)->Orphaned.load(std::memory_order_acquire);
  if (Orphaned == S.Orphaned)
    return Back;
  S.Orphaned = Orphaned;
  std::vector<bool> Held = tenants::heldByOthers(
      *boardTenants(Dev.Ordinal, BoardRead::Now), tenants::Process{});
  for (unsigned Sm = 0; Sm < Dev.NumSMs; ++Sm) // held by no live process
    if (Sm >= Held.size() || !Held[Sm])
      Back.push_back(Sm);
  tellTenants(Dev.Ordinal,
              "a process died holding SMs of this one's yield table; this "
              "process wrote them back");
  return Back;
}

} // namespace smc
