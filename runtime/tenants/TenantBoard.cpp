//===- TenantBoard.cpp - SMC processes of one GPU, and what they reserve --===//
//
// The board's slots and its readers; see TenantBoard.h.
//===----------------------------------------------------------------------===//
#include "tenants/TenantBoard.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace smc::tenants {
namespace {

void changed(Board &B) { B.Generation.fetch_add(1, std::memory_order_acq_rel); }

// Frees a slot whose owner is dead (only if the owner word is still that
// pid: another reader may have freed and a process claimed it since).
void freeIfDead(Board &B, Slot &S, const Alive &IsAlive) {
  uint32_t Pid = S.Owner.load(std::memory_order_acquire);
  if (Pid == 0 || IsAlive(Process{Pid, S.Start}))
    return;
  if (S.Owner.compare_exchange_strong(Pid, 0, std::memory_order_acq_rel))
    changed(B);
}

} // namespace

void initBoard(Board &B) {
  if (B.Magic == BoardMagic)
    return;
  B.Version = BoardVersion;
  B.Magic = BoardMagic;
}

bool publish(Board &B, const Process &Self, const Footprint &F,
             const Alive &IsAlive) {
  Slot *Mine = nullptr;
  for (Slot &S : B.Slots)
    if (S.Owner.load(std::memory_order_acquire) == Self.Pid &&
        S.Start == Self.Start)
      Mine = &S;
  for (unsigned Pass = 0; !Mine && Pass < 2; ++Pass) {
    for (Slot &S : B.Slots) {
      if (Pass == 1)
        freeIfDead(B, S, IsAlive);
      uint32_t Free = 0;
      if (S.Owner.compare_exchange_strong(Free, Self.Pid,
                                          std::memory_order_acq_rel)) {
        S.Reserved = 0;
        S.Start = Self.Start;
        Mine = &S;
        break;
      }
    }
  }
  if (!Mine)
    return false;
  Mine->Threads = F.Threads;
  Mine->RegistersPerThread = F.RegistersPerThread;
  Mine->SharedBytes = F.SharedBytes;
  Mine->Updated = B.Generation.load(std::memory_order_relaxed) + 1;
  std::atomic_thread_fence(std::memory_order_release);
  Mine->Reserved = 1;
  changed(B);
  return true;
}

void withdraw(Board &B, const Process &Self) {
  for (Slot &S : B.Slots) {
    uint32_t Pid = Self.Pid;
    if (S.Start == Self.Start &&
        S.Owner.compare_exchange_strong(Pid, 0, std::memory_order_acq_rel))
      changed(B);
  }
}

std::vector<Tenant> tenants(Board &B, const Alive &IsAlive) {
  std::vector<Tenant> Out;
  for (Slot &S : B.Slots) {
    freeIfDead(B, S, IsAlive);
    uint32_t Pid = S.Owner.load(std::memory_order_acquire);
    if (Pid == 0)
      continue;
    Tenant T;
    T.Who = {Pid, S.Start};
    if (S.Reserved)
      T.Reserved = {S.Threads, S.RegistersPerThread, S.SharedBytes};
    Out.push_back(T);
  }
  return Out;
}

Footprint largestReserved(Board &B, const Process &Self, const Alive &IsAlive) {
  Footprint Most;
  for (const Tenant &T : tenants(B, IsAlive)) {
    if (T.Who == Self)
      continue;
    Most.Threads = std::max(Most.Threads, T.Reserved.Threads);
    Most.RegistersPerThread =
        std::max(Most.RegistersPerThread, T.Reserved.RegistersPerThread);
    Most.SharedBytes = std::max(Most.SharedBytes, T.Reserved.SharedBytes);
  }
  return Most;
}

namespace {

// Field 22 of /proc/<pid>/stat (after the parenthesized command name).
uint64_t startTicks(uint32_t Pid) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/stat");
  std::string Line;
  if (!std::getline(In, Line))
    return 0;
  size_t Close = Line.rfind(')');
  if (Close == std::string::npos)
    return 0;
  std::istringstream Fields(Line.substr(Close + 2));
  std::string Field;
  // Fields 3.. follow the name; the start time is field 22.
  for (int I = 3; I <= 22; ++I)
    if (!(Fields >> Field))
      return 0;
  return std::strtoull(Field.c_str(), nullptr, 10);
}

} // namespace

Process thisProcess() {
  uint32_t Pid = uint32_t(getpid());
  return {Pid, startTicks(Pid)};
}

bool processAlive(const Process &P) {
  if (kill(pid_t(P.Pid), 0) != 0 && errno != EPERM)
    return false;
  uint64_t Start = startTicks(P.Pid);
  return Start == 0 || P.Start == 0 || Start == P.Start;
}

} // namespace smc::tenants
