//===- DeviceBoards.cpp - Each GPU's tenant board, opened once ------------===//
//
// See DeviceBoards.h.
//===----------------------------------------------------------------------===//
#include "priority/DeviceBoards.h"

#include "base/Messages.h"
#include "policy/Config.h"
#include "tenants/SharedBoard.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <map>
#include <unistd.h>

namespace smc {
namespace {

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

} // namespace smc
