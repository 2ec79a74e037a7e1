//===- Locks.cpp - The lock order, checked in debug builds ----------------===//
//
// Each thread keeps the levels of the locks it holds, in the order taken
// (Locks.h).  Compiled to nothing unless SMC_CHECK_LOCK_ORDER.
//===----------------------------------------------------------------------===//
#include "base/Locks.h"

#if SMC_CHECK_LOCK_ORDER
#include <cstdio>
#include <cstdlib>

namespace smc::lockorder {
namespace {

// The levels' names, in LockLevel's order from 1.
constexpr const char *LevelNames[] = {
    "Graphs",     "Batch",    "BatchLanes", "Locality",    "CoRun",
    "Remap",      "Latency",  "Priority",   "StatsLaunch", "Registry",
    "Partitions", "TopUps",   "Confined",   "Policies",    "Profiles",
    "Events",     "Affinity", "Records",    "Messages"};
static_assert(sizeof(LevelNames) / sizeof(LevelNames[0]) ==
                  size_t(LockLevel::Messages),
              "a name for every lock level");

const char *levelName(LockLevel Level) { return LevelNames[size_t(Level) - 1]; }

constexpr unsigned MaxHeld = 16;
thread_local LockLevel Held[MaxHeld];
thread_local unsigned NumHeld = 0;

} // namespace

void acquire(LockLevel Level) {
  unsigned Top = NumHeld < MaxHeld ? NumHeld : MaxHeld;
  for (unsigned I = 0; I < Top; ++I)
    if (Held[I] >= Level) {
      std::fprintf(stderr,
                   "smc: lock order broken: taking a %s lock while holding a "
                   "%s lock (runtime/base/Locks.h)\n",
                   levelName(Level), levelName(Held[I]));
      std::abort();
    }
  if (NumHeld < MaxHeld)
    Held[NumHeld] = Level;
  ++NumHeld;
}

void release(LockLevel Level) {
  // Locks are released in any order: forget the latest of this level.
  unsigned Top = NumHeld < MaxHeld ? NumHeld : MaxHeld;
  for (unsigned I = Top; I-- > 0;)
    if (Held[I] == Level) {
      for (unsigned J = I; J + 1 < Top; ++J)
        Held[J] = Held[J + 1];
      break;
    }
  --NumHeld;
}

} // namespace smc::lockorder
#endif
