//===- StreamFlights.h - The last launch of each stream ---------*- C++ -*-===//
//
// Rooms that decide a launch from what else runs on the device (confined
// launches, policy auto) keep, per stream, the last launch of their kind
// and an event recorded after it: while the event is pending, that launch
// (and all before it on its stream) may still run.  A registry of such
// records forgets the streams with nothing in flight once it holds
// MaxStreamFlights.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_STREAMFLIGHTS_H
#define SMC_RUNTIME_BASE_STREAMFLIGHTS_H

#include "base/Cuda.h"

#include <algorithm>
#include <vector>

namespace smc {

// The last launch of some kind on a stream, and an event recorded after it.
struct StreamFlight {
  StreamKey Stream;
  cudaEvent_t Done = nullptr;
  // Destroys the record's events when streamFlight() forgets it.
  void release() { cudaEventDestroy(Done); }
};

// Streams whose last launch a device keeps in one registry before it
// forgets those with nothing in flight.
constexpr size_t MaxStreamFlights = 64;

// The record of stream `Key` in `Flights` (StreamFlight or derived), made
// with a new event if missing; with MaxStreamFlights records already, those
// for which `StillRunning` is false are forgotten first.  Null if no event
// can be made.
template <typename Flight, typename Predicate>
Flight *streamFlight(std::vector<Flight> &Flights, const StreamKey &Key,
                     Predicate StillRunning) {
  for (Flight &F : Flights)
    if (F.Stream == Key)
      return &F;
  if (Flights.size() >= MaxStreamFlights) {
    auto Forget =
        std::remove_if(Flights.begin(), Flights.end(), [&](Flight &F) {
          if (StillRunning(F))
            return false;
          F.release();
          return true;
        });
    Flights.erase(Forget, Flights.end());
  }
  Flight F;
  F.Stream = Key;
  if (cudaEventCreateWithFlags(&F.Done, cudaEventDisableTiming) !=
      cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  Flights.push_back(std::move(F));
  return &Flights.back();
}

} // namespace smc

#endif // SMC_RUNTIME_BASE_STREAMFLIGHTS_H
