//===- TenantBoard.cpp - SMC processes of one GPU: room and SMs ----------===//
//
// The board's slots and its readers; see TenantBoard.h.
//===----------------------------------------------------------------------===//
#include "tenants/TenantBoard.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace smc::tenants {
namespace {

void changed(Board &B) { B.Generation.fetch_add(1, std::memory_order_acq_rel); }

YieldSlot &yieldsOf(Board &B, const Slot &S) { return B.Yields[&S - B.Slots]; }

// Whether Self owns S (written: claimed and not being written).
bool owns(const Slot &S, const Process &Self) {
  return S.Owner.load(std::memory_order_acquire) == Self.Pid &&
         S.Start.load(std::memory_order_relaxed) == Self.Start;
}

bool holdsSms(const YieldSlot &Y) {
  for (const std::atomic<uint64_t> &Word : Y.Held)
    if (Word.load(std::memory_order_acquire))
      return true;
  return false;
}

// A slot about to be freed: SMs its process still holds are orphaned (the
// count moves first, so that no owner of a table misses them).
void orphanHeld(Board &B, const Slot &S) {
  if (holdsSms(yieldsOf(B, S)))
    B.Orphaned.fetch_add(1, std::memory_order_acq_rel);
}

// Frees a slot whose owner is dead: only if the owner word is still the
// one judged (another reader may have freed it and a process claimed it
// since).  A slot still being written is judged by its pid alone.
void freeIfDead(Board &B, Slot &S, const Alive &IsAlive) {
  uint32_t Word = S.Owner.load(std::memory_order_acquire);
  if (Word == 0)
    return;
  Process Owner{Word & ~OwnerWriting, 0};
  if (!(Word & OwnerWriting))
    Owner.Start = S.Start.load(std::memory_order_relaxed);
  if (IsAlive(Owner))
    return;
  orphanHeld(B, S);
  if (S.Owner.compare_exchange_strong(Word, 0, std::memory_order_acq_rel))
    changed(B);
}

void write(Board &B, Slot &S, const Footprint &F) {
  S.Threads = F.Threads;
  S.RegistersPerThread = F.RegistersPerThread;
  S.SharedBytes = F.SharedBytes;
  S.Updated = B.Generation.load(std::memory_order_relaxed) + 1;
  S.Reserved.store(1, std::memory_order_release);
}

} // namespace

void initBoard(Board &B) {
  if (B.Magic == BoardMagic)
    return;
  B.Version = BoardVersion;
  B.Magic = BoardMagic;
}

namespace {

// Self's slot, claimed (reserving nothing, no yields) when it has none;
// null when every slot is taken by a live process.
Slot *claim(Board &B, const Process &Self, const Alive &IsAlive) {
  for (Slot &S : B.Slots)
    if (owns(S, Self))
      return &S;
  // A free slot, claimed with the writing bit until it is written; on the
  // second pass, after freeing the slots of dead processes.
  for (unsigned Pass = 0; Pass < 2; ++Pass)
    for (Slot &S : B.Slots) {
      if (Pass == 1)
        freeIfDead(B, S, IsAlive);
      uint32_t Free = 0;
      if (!S.Owner.compare_exchange_strong(Free, Self.Pid | OwnerWriting,
                                           std::memory_order_acq_rel))
        continue;
      S.Start.store(Self.Start, std::memory_order_relaxed);
      S.Reserved.store(0, std::memory_order_relaxed);
      YieldSlot &Y = yieldsOf(B, S);
      Y.Shares.store(0, std::memory_order_relaxed);
      Y.Takes.store(0, std::memory_order_relaxed);
      for (std::atomic<uint64_t> &Word : Y.Held)
        Word.store(0, std::memory_order_relaxed);
      S.Owner.store(Self.Pid, std::memory_order_release);
      changed(B);
      return &S;
    }
  return nullptr;
}

} // namespace

bool publish(Board &B, const Process &Self, const Footprint &F,
             const Alive &IsAlive) {
  Slot *S = claim(B, Self, IsAlive);
  if (!S)
    return false;
  write(B, *S, F);
  changed(B);
  return true;
}

void unreserve(Board &B, const Process &Self) {
  for (Slot &S : B.Slots)
    if (owns(S, Self) && S.Reserved.exchange(0, std::memory_order_acq_rel))
      changed(B);
}

bool shareTable(Board &B, const Process &Self, const unsigned char *Handle,
                const Alive &IsAlive) {
  Slot *S = claim(B, Self, IsAlive);
  if (!S)
    return false;
  YieldSlot &Y = yieldsOf(B, *S);
  std::memcpy(Y.Table, Handle, TableHandleBytes);
  Y.Updated = B.Generation.load(std::memory_order_relaxed) + 1;
  Y.Shares.store(1, std::memory_order_release);
  changed(B);
  return true;
}

bool announceTaking(Board &B, const Process &Self, const Alive &IsAlive) {
  Slot *S = claim(B, Self, IsAlive);
  if (!S)
    return false;
  YieldSlot &Y = yieldsOf(B, *S);
  Y.Updated = B.Generation.load(std::memory_order_relaxed) + 1;
  Y.Takes.store(1, std::memory_order_release);
  changed(B);
  return true;
}

void setHeld(Board &B, const Process &Self, const std::vector<bool> &Held) {
  for (Slot &S : B.Slots) {
    if (!owns(S, Self))
      continue;
    YieldSlot &Y = yieldsOf(B, S);
    for (unsigned W = 0; W < BoardSms / 64; ++W) {
      uint64_t Word = 0;
      for (unsigned Bit = 0; Bit < 64 && W * 64 + Bit < Held.size(); ++Bit)
        if (Held[W * 64 + Bit])
          Word |= uint64_t(1) << Bit;
      Y.Held[W].store(Word, std::memory_order_release);
    }
  }
}

void withdraw(Board &B, const Process &Self) {
  for (Slot &S : B.Slots) {
    uint32_t Word = Self.Pid;
    if (!owns(S, Self))
      continue;
    orphanHeld(B, S);
    if (S.Owner.compare_exchange_strong(Word, 0, std::memory_order_acq_rel))
      changed(B);
  }
}

std::vector<Tenant> tenants(Board &B, const Alive &IsAlive) {
  std::vector<Tenant> Out;
  for (Slot &S : B.Slots) {
    freeIfDead(B, S, IsAlive);
    uint32_t Word = S.Owner.load(std::memory_order_acquire);
    if (Word == 0 || (Word & OwnerWriting))
      continue; // free, or not written yet: it reserves nothing so far
    Tenant T;
    T.Who = {Word, S.Start.load(std::memory_order_relaxed)};
    if (S.Reserved.load(std::memory_order_acquire))
      T.Reserved = {S.Threads, S.RegistersPerThread, S.SharedBytes};
    const YieldSlot &Y = yieldsOf(B, S);
    T.Takes = Y.Takes.load(std::memory_order_acquire);
    T.Shares = Y.Shares.load(std::memory_order_acquire);
    if (T.Shares)
      T.Table.assign(Y.Table, Y.Table + TableHandleBytes);
    T.Held.assign(BoardSms, false);
    for (unsigned W = 0; W < BoardSms / 64; ++W) {
      uint64_t Word = Y.Held[W].load(std::memory_order_acquire);
      for (unsigned Bit = 0; Bit < 64; ++Bit)
        T.Held[W * 64 + Bit] = (Word >> Bit) & 1;
    }
    Out.push_back(T);
  }
  return Out;
}

Footprint largestReserved(Board &B, const Process &Self, const Alive &IsAlive) {
  return largestReserved(tenants(B, IsAlive), Self);
}

Footprint largestReserved(const std::vector<Tenant> &Live,
                          const Process &Self) {
  Footprint Most;
  for (const Tenant &T : Live) {
    if (T.Who == Self)
      continue;
    Most.Threads = std::max(Most.Threads, T.Reserved.Threads);
    Most.RegistersPerThread =
        std::max(Most.RegistersPerThread, T.Reserved.RegistersPerThread);
    Most.SharedBytes = std::max(Most.SharedBytes, T.Reserved.SharedBytes);
  }
  return Most;
}

std::vector<bool> heldByOthers(const std::vector<Tenant> &Live,
                               const Process &Self) {
  std::vector<bool> Held(BoardSms, false);
  for (const Tenant &T : Live)
    if (!(T.Who == Self))
      for (unsigned Sm = 0; Sm < BoardSms && Sm < T.Held.size(); ++Sm)
        Held[Sm] = Held[Sm] || T.Held[Sm];
  return Held;
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
