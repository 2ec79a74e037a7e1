//===- Profiles.h - The kernel profiles in force ----------------*- C++ -*-===//
//
// Policy auto (corun/) and smc::Batch (batch/) decide from kernel profiles
// (KernelProfile.h): SMC_PROFILE's file, read on first use (unless
// SMC_PROFILE_RECORD records profiles instead), or what smc::loadProfiles
// loaded last.  A set in force is never changed: a load replaces it, and
// its version tells the users that cached decisions are stale.  The
// Profiles lock (base/Locks.h) guards the current set.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_MEASURE_PROFILES_H
#define SMC_RUNTIME_MEASURE_PROFILES_H

#include "measure/KernelProfile.h"

#include <memory>

namespace smc {

// The profiles in force.
struct LoadedProfiles {
  std::shared_ptr<const ProfileSet> Set; // never null
  bool Loaded = false;                   // a file was loaded
  unsigned Version = 0;                  // one more at each load
};

// The profiles in force now (SMC_PROFILE read on the first call).
LoadedProfiles currentProfiles();

// The profiles loaded (SMC_PROFILE, smc::loadProfiles), a copy.
ProfileSet loadedProfiles();

} // namespace smc

#endif // SMC_RUNTIME_MEASURE_PROFILES_H
