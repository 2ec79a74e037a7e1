//===- TenantBoard.h - SMC processes of one GPU: room and SMs -*- C++ -*-===//
//
// With SMC_TENANTS=on, the SMC runtimes of the processes that share a GPU
// (under MPS) meet on a board in host shared memory, one per GPU: each
// process that runs a kernel of policy `reserve` (priority/Reserve.h)
// registers there, with the footprint of that kernel's CTA, and every
// process's best-effort SM-centric launches leave room for the largest
// footprint of every registered process, its own included.  So an urgent
// kernel of one process starts at once beside the best-effort kernels of
// another.
//
// Yields across processes (priority/SharedYields.h): a process whose
// best-effort launches yield SMs shares its yield table (a CUDA IPC handle
// of the device array its workers read); a process with urgent launches
// says that it takes SMs (best-effort processes then start yielding), and
// while an urgent launch of it holds SMs - written 0 in the tables, until
// its urgent launch wrote them back - it keeps them in its Held mask.  A
// reader that frees the slot of a dead process with SMs held counts it in
// Orphaned: the tables' owners then write those SMs back themselves (a
// crashed process's stream never does).
//
// The board is a fixed array of slots, each owned by one process (its pid
// and its start time, so that a reused pid is not taken for the old
// process).  A slot is claimed and freed by compare-and-swap on its owner
// word; Generation counts the changes, so that readers look again only
// when it moved.  A process that ends normally frees its slot; one that
// crashed leaves it, and the next reader that finds its owner dead frees
// it (Alive below): no room stays reserved for a process that is gone.
//
// This file is the board's logic on any memory (unit tested with fork());
// SharedBoard.h maps it into shared memory.  No CUDA here.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_TENANTS_TENANTBOARD_H
#define SMC_RUNTIME_TENANTS_TENANTBOARD_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace smc::tenants {

constexpr uint32_t BoardMagic = 0x534d4354; // "SMCT"
constexpr uint32_t BoardVersion = 1;
constexpr unsigned BoardSlots = 64;
// SMs a Held mask covers (every NVIDIA GPU so far has fewer).
constexpr unsigned BoardSms = 256;
// Bytes of a CUDA IPC memory handle (cudaIpcMemHandle_t; no CUDA here).
constexpr unsigned TableHandleBytes = 64;

// A process: its pid and its start time (clock ticks since boot, field 22
// of /proc/<pid>/stat), 0 where unknown.
struct Process {
  uint32_t Pid = 0;
  uint64_t Start = 0;
  bool operator==(const Process &O) const {
    return Pid == O.Pid && Start == O.Start;
  }
};

// What a process reserves: one CTA of its largest reserved kernel.
struct Footprint {
  uint32_t Threads = 0, RegistersPerThread = 0, SharedBytes = 0;
};

// One slot (fixed widths: the layout is the file's, read by
// scripts/smc-tenants).  Owner is 0 when the slot is free, else the
// owner's pid, with OwnerWriting set from the claim until Start and the
// footprint are written (a reader then judges the owner by its pid alone,
// and takes it for reserving nothing yet).  The other fields are written
// by the owner only.
constexpr uint32_t OwnerWriting = 0x80000000u; // Linux pids are below 2^22
struct Slot {
  std::atomic<uint32_t> Owner;
  std::atomic<uint32_t> Reserved; // 1: the footprint below is written
  std::atomic<uint64_t> Start;
  uint32_t Threads, RegistersPerThread, SharedBytes, Padding;
  uint64_t Updated; // the board's Generation when last written
};

// A slot's yields, beside it (the same index; fixed widths).  Written by
// the slot's owner only, reset when the slot is claimed.
struct YieldSlot {
  std::atomic<uint32_t> Shares; // 1: Table holds the owner's yield table
  std::atomic<uint32_t> Takes;  // 1: the owner takes SMs for urgent launches
  uint64_t Updated;             // the board's Generation when last written
  unsigned char Table[TableHandleBytes];
  std::atomic<uint64_t> Held[BoardSms / 64]; // bit s: SM s held
};

struct Board {
  uint32_t Magic;
  uint32_t Version;
  std::atomic<uint64_t> Generation;
  Slot Slots[BoardSlots];
  // When a best-effort launch of any process last kept room for a reserved
  // CTA (CLOCK_MONOTONIC ns, which every process reads alike; 0: never).
  // Written without moving Generation: nobody needs to look again for it.
  // At the end, so that a board made by an SMC without it only grows.
  std::atomic<int64_t> RoomKeptNs;
  // Yields across processes, after it for the same reason.
  YieldSlot Yields[BoardSlots];
  // Slots of dead processes freed with SMs held (a count; see above).
  std::atomic<uint64_t> Orphaned;
};

static_assert(sizeof(Slot) == 40, "the board's layout is the file's");
static_assert(sizeof(YieldSlot) == 112, "the board's layout is the file's");
static_assert(sizeof(Board) == 16 + BoardSlots * 40 + 8 + BoardSlots * 112 + 8,
              "the board's layout is the file's");
static_assert(std::atomic<uint32_t>::is_always_lock_free &&
                  std::atomic<uint64_t>::is_always_lock_free,
              "board words are shared between processes");

// Whether a process is still the one that registered (a test may fake it).
using Alive = std::function<bool(const Process &)>;

// Makes a zeroed board usable (a board already made is left alone).
void initBoard(Board &B);
// The slot of Self (claimed when it has none), with Footprint reserved;
// false when every slot is taken by a live process.
bool publish(Board &B, const Process &Self, const Footprint &F,
             const Alive &IsAlive);
// Frees Self's slot, if it has one (SMs it still holds count as orphaned).
void withdraw(Board &B, const Process &Self);
// Self reserves nothing any more (its slot stays, for its yields).
void unreserve(Board &B, const Process &Self);

// Self shares its yield table (Handle: TableHandleBytes), or says that it
// takes SMs; false when every slot is taken by a live process.
bool shareTable(Board &B, const Process &Self, const unsigned char *Handle,
                const Alive &IsAlive);
bool announceTaking(Board &B, const Process &Self, const Alive &IsAlive);
// The SMs Self holds now (Held[s] for SM s; the rest not held).
void setHeld(Board &B, const Process &Self, const std::vector<bool> &Held);

// A registered process, as a reader finds it.
struct Tenant {
  Process Who;
  Footprint Reserved;
  bool Shares = false, Takes = false;
  std::vector<unsigned char> Table; // its yield table's handle, if Shares
  std::vector<bool> Held;           // [BoardSms]
};
// The live processes on the board; slots of dead ones are freed.
std::vector<Tenant> tenants(Board &B, const Alive &IsAlive);
// The most of each resource any live process reserves, Self excluded
// (its own footprint is known to it); zero when none.
Footprint largestReserved(Board &B, const Process &Self, const Alive &IsAlive);
// The same of tenants() read before.
Footprint largestReserved(const std::vector<Tenant> &Live, const Process &Self);
// The SMs that live processes other than Self hold ([BoardSms]).
std::vector<bool> heldByOthers(const std::vector<Tenant> &Live,
                               const Process &Self);

// This process, and whether a process is alive with that start time
// (/proc; a pid whose start time cannot be read counts as alive when
// kill(pid, 0) says it exists).
Process thisProcess();
bool processAlive(const Process &P);

} // namespace smc::tenants

#endif // SMC_RUNTIME_TENANTS_TENANTBOARD_H
