//===- Locks.h - The runtime's locks and the one order they are taken in --===//
//
// Every mutex of the runtime is an OrderedMutex with a level.  A thread holding
// locks takes only locks of a higher level, so no two threads can wait for each
// other.  The levels, taken in this order (each room's README says which it
// owns, and the comment at each lock what it guards):
//
//   Batch        batch/      the layout searches, across a batch's run()
//   BatchLanes   batch/      each device's two lanes
//   Locality     locality/   a configuration's placement trials, across the
//                            launch of a trial
//   CoRun        corun/      policy auto's flights, decisions and trials,
//                            across the launch it decides
//   Remap        remap/      a configuration's remap table and trials,
//                            across the table's computation
//   Latency      latency/    each device's latency targets: their searches
//                            and timed launches in flight
//   Priority     priority/   yielding launches and urgent holds
//   StatsLaunch  observe/    an SMC_STATS launch and the read-back of its
//                            counts (serializes launches)
//   Registry     core/       devices, kernels, prepared launches, counters
//   Partitions   partition/  live partitions
//   TopUps       partition/  top-up lanes and tables
//   Confined     core/       confined launches in flight
//   Policies     policy/     the policies set through the API
//   Profiles     measure/    the kernel profiles loaded
//   Events       measure/    timing events not in use
//   Affinity     locality/   placements built by placeByAffinity
//   Records      observe/    SMC_STATS records and SMC_TRACE launches
//   Messages     base/       what was told once
//
// Debug builds (no NDEBUG; or SMC_CHECK_LOCK_ORDER=1) check the order on
// every lock: a thread that takes a lock at or below one it holds aborts
// with both levels named.  Release builds compile OrderedMutex to a plain
// std::mutex.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_LOCKS_H
#define SMC_RUNTIME_BASE_LOCKS_H

#include <mutex>

#ifndef SMC_CHECK_LOCK_ORDER
#ifdef NDEBUG
#define SMC_CHECK_LOCK_ORDER 0
#else
#define SMC_CHECK_LOCK_ORDER 1
#endif
#endif

namespace smc {

enum class LockLevel : unsigned char {
  Graphs = 1,
  Batch,
  BatchLanes,
  Locality,
  CoRun,
  Remap,
  Latency,
  Priority,
  StatsLaunch,
  Registry,
  Partitions,
  TopUps,
  Confined,
  Policies,
  Profiles,
  Events,
  Affinity,
  Records,
  Messages,
};

#if SMC_CHECK_LOCK_ORDER
namespace lockorder {
// Records that this thread takes / releases a lock of `Level`; aborts when
// the thread holds a lock of the same or a higher level (Locks.cpp).
void acquire(LockLevel Level);
void release(LockLevel Level);
} // namespace lockorder
#endif

// A mutex of one level (BasicLockable: use with std::lock_guard,
// std::unique_lock).
class OrderedMutex {
public:
  explicit constexpr OrderedMutex(LockLevel Level) : Level(Level) {}
  OrderedMutex(const OrderedMutex &) = delete;
  OrderedMutex &operator=(const OrderedMutex &) = delete;

  void lock() {
#if SMC_CHECK_LOCK_ORDER
    lockorder::acquire(Level);
#endif
    Mutex.lock();
  }
  void unlock() {
    Mutex.unlock();
#if SMC_CHECK_LOCK_ORDER
    lockorder::release(Level);
#endif
  }

private:
  std::mutex Mutex;
  [[maybe_unused]] LockLevel Level;
};

using Guard = std::lock_guard<OrderedMutex>;

// The mutex of `Level` for a room whose state has no object of its own to
// hold it; never destroyed.
template <LockLevel Level> OrderedMutex &levelMutex() {
  static OrderedMutex *Mutex = new OrderedMutex(Level);
  return *Mutex;
}

} // namespace smc

#endif // SMC_RUNTIME_BASE_LOCKS_H
