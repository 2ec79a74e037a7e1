//===- TenantBoard.h - SMC processes of one GPU, and what they reserve -*- C++
//-*-===//
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
};

static_assert(sizeof(Slot) == 40, "the board's layout is the file's");
static_assert(sizeof(Board) == 16 + BoardSlots * 40 + 8,
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
// Frees Self's slot, if it has one.
void withdraw(Board &B, const Process &Self);

// A registered process, as a reader finds it.
struct Tenant {
  Process Who;
  Footprint Reserved;
};
// The live processes on the board; slots of dead ones are freed.
std::vector<Tenant> tenants(Board &B, const Alive &IsAlive);
// The most of each resource any live process reserves, Self excluded
// (its own footprint is known to it); zero when none.
Footprint largestReserved(Board &B, const Process &Self, const Alive &IsAlive);

// This process, and whether a process is alive with that start time
// (/proc; a pid whose start time cannot be read counts as alive when
// kill(pid, 0) says it exists).
Process thisProcess();
bool processAlive(const Process &P);

} // namespace smc::tenants

#endif // SMC_RUNTIME_TENANTS_TENANTBOARD_H
