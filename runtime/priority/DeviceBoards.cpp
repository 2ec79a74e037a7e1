//===- DeviceBoards.cpp - Each GPU's tenant board, opened once ------------===//
//
// See DeviceBoards.h.
//===----------------------------------------------------------------------===//
#include "priority/DeviceBoards.h"

#include "base/Messages.h"
#include "policy/Config.h"
#include "tenants/SharedBoard.h"

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <unistd.h>

namespace smc {
namespace {

constexpr int64_t ReadEveryNs = 200000000;

// A device's view of its board's tenants (the Priority lock).
struct BoardView {
  uint64_t Seen = UINT64_MAX; // the board's generation after the last read
  int64_t ReadNs = 0;
  std::vector<tenants::Tenant> Live;
};

// This process's slots, freed at exit.
struct Withdrawals {
  std::vector<tenants::Board *> Boards;
  ~Withdrawals() {
    for (tenants::Board *B : Boards)
      tenants::withdraw(*B, boardSelf());
  }
};

} // namespace

const tenants::Process &boardSelf() {
  static tenants::Process Self;
  if (Self.Pid != uint32_t(getpid()))
    Self = tenants::thisProcess();
  return Self;
}

tenants::Board *deviceBoard(int Ordinal) {
  static std::map<int, tenants::Board *> Opened; // null: cannot be opened
  if (!config().Tenants)
    return nullptr;
  auto [It, First] = Opened.emplace(Ordinal, nullptr);
  if (!First)
    return It->second;
  cudaDeviceProp Prop{};
  if (cudaGetDeviceProperties(&Prop, Ordinal) != cudaSuccess) {
    cudaGetLastError();
    tell("SMC_TENANTS: the UUID of device " + std::to_string(Ordinal) +
         " is unknown; its processes share neither room nor SMs");
    return nullptr;
  }
  std::string Hex;
  char Digit[3];
  for (char Byte : Prop.uuid.bytes) {
    std::snprintf(Digit, sizeof Digit, "%02x", unsigned(uint8_t(Byte)));
    Hex += Digit;
  }
  std::string Error;
  tenants::Board *B =
      tenants::mapBoard(tenants::boardName(Hex), /*File=*/false, Error);
  if (!B) {
    tell("SMC_TENANTS: " + Error + "; device " + std::to_string(Ordinal) +
         "'s processes share neither room nor SMs");
    return nullptr;
  }
  static Withdrawals AtExit;
  AtExit.Boards.push_back(B);
  return It->second = B;
}

int64_t boardClockNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

const std::vector<tenants::Tenant> *boardTenants(int Ordinal, BoardRead When) {
  static std::map<int, BoardView> Views;
  tenants::Board *B = deviceBoard(Ordinal);
  if (!B)
    return nullptr;
  BoardView &V = Views[Ordinal];
  int64_t Now = boardClockNs();
  uint64_t Generation = B->Generation.load(std::memory_order_acquire);
  if (When != BoardRead::Now && Generation == V.Seen &&
      (When == BoardRead::Changed || Now - V.ReadNs < ReadEveryNs))
    return &V.Live;
  V.Live = tenants::tenants(*B, tenants::processAlive);
  // The read may have freed slots: the generation after it.
  V.Seen = B->Generation.load(std::memory_order_acquire);
  V.ReadNs = Now;
  return &V.Live;
}

} // namespace smc
