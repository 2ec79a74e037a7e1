//===- RoomSlots.h - A room's state kept with another's object --*- C++ -*-===//
//
// A device (core/Devices.h) or a prepared launch (core/Prepared.h) carries
// state of rooms above core: a stream's live partition, policy auto's
// flights, a configuration's placement trials.  Core must not know those
// types, and each room owns its state, so the object holds one slot per
// room type instead: get<T>() makes the room's T on first use and returns
// it from then on; it goes with the object.  The slot itself is lock-free
// (an atomic pointer, made once); what is in the T is guarded by its room's
// own lock.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_ROOMSLOTS_H
#define SMC_RUNTIME_BASE_ROOMSLOTS_H

#include <atomic>

namespace smc {

class RoomSlots {
public:
  RoomSlots() = default;
  RoomSlots(const RoomSlots &) = delete;
  RoomSlots &operator=(const RoomSlots &) = delete;
  ~RoomSlots() {
    for (std::atomic<Holder *> &Slot : Slots)
      delete Slot.load(std::memory_order_acquire);
  }

  // The room's T, made (value-initialized) on first use.  Thread-safe: two
  // threads that make it at once get the same one.
  template <typename T> T &get() {
    std::atomic<Holder *> &Slot = Slots[slotOf<T>()];
    if (Holder *H = Slot.load(std::memory_order_acquire))
      return static_cast<Typed<T> *>(H)->Value;
    auto *Made = new Typed<T>();
    Holder *Expected = nullptr;
    if (Slot.compare_exchange_strong(Expected, Made,
                                     std::memory_order_acq_rel)) {
      return Made->Value;
    }
    delete Made;
    return static_cast<Typed<T> *>(Expected)->Value;
  }

  // The room's T, or null when it was never made.
  template <typename T> T *find() const {
    Holder *H = Slots[slotOf<T>()].load(std::memory_order_acquire);
    return H ? &static_cast<Typed<T> *>(H)->Value : nullptr;
  }

private:
  struct Holder {
    virtual ~Holder() = default;
  };
  template <typename T> struct Typed : Holder {
    T Value{};
  };

  // Room types that keep state in slots, at most (all kinds of object
  // together: a type's slot number is the same in every object).
  static constexpr unsigned MaxSlots = 16;
  static unsigned nextSlot() {
    static std::atomic<unsigned> Next{0};
    unsigned Slot = Next.fetch_add(1, std::memory_order_relaxed);
    // More room types than slots is a build of the runtime with a new room:
    // raise MaxSlots.
    if (Slot >= MaxSlots)
      __builtin_trap();
    return Slot;
  }
  template <typename T> static unsigned slotOf() {
    static const unsigned Slot = nextSlot();
    return Slot;
  }

  std::atomic<Holder *> Slots[MaxSlots] = {};
};

} // namespace smc

#endif // SMC_RUNTIME_BASE_ROOMSLOTS_H
