//===- Profiles.cpp - The kernel profiles in force ------------------------===//
//
// The current profile set, SMC_PROFILE and smc::loadProfiles; see
// Profiles.h.
//===----------------------------------------------------------------------===//
#include "measure/Profiles.h"

#include "base/Files.h"
#include "base/Forever.h"
#include "base/Locks.h"
#include "base/Messages.h"
#include "policy/Config.h"
#include "smc/smc.h"

namespace smc {
namespace {

struct ProfileState {
  OrderedMutex Mutex{LockLevel::Profiles}; // guards Current and Started
  LoadedProfiles Current{std::make_shared<const ProfileSet>(), false, 0};
  bool Started = false;
};

// Reads and parses `Path` into `Set`; false with `Error` set on failure.
bool readProfiles(const std::string &Path, ProfileSet &Set,
                  std::string &Error) {
  std::string Text;
  if (!readTextFile(Path, Text)) {
    Error = "cannot read '" + Path + "'";
    return false;
  }
  if (!Set.load(Text, Error)) {
    Error = "'" + Path + "': " + Error;
    return false;
  }
  return true;
}

// The Profiles lock held.
void install(ProfileState &S, ProfileSet Set) {
  S.Current.Set = std::make_shared<const ProfileSet>(std::move(Set));
  S.Current.Loaded = true;
  ++S.Current.Version;
}

// Reads SMC_PROFILE on the first use (the Profiles lock held), unless
// profiles are recorded instead or loadProfiles came first.
void start(ProfileState &S) {
  if (S.Started)
    return;
  S.Started = true;
  const Config &C = config();
  if (!C.ProfileRecordPath.empty() || C.ProfilePath.empty() || S.Current.Loaded)
    return;
  ProfileSet Set;
  std::string Error;
  if (readProfiles(C.ProfilePath, Set, Error))
    install(S, std::move(Set));
  else
    tell("SMC_PROFILE: " + Error + "; policy auto runs the originals");
}

} // namespace

LoadedProfiles currentProfiles() {
  ProfileState &S = forever<ProfileState>();
  Guard Lock(S.Mutex);
  start(S);
  return S.Current;
}

ProfileSet loadedProfiles() { return *currentProfiles().Set; }

//===----------------------------------------------------------------------===//
// Public API (smc.h)
//===----------------------------------------------------------------------===//

bool loadProfiles(const std::string &Path, std::string *Error) {
  ProfileSet Set;
  std::string Message;
  if (!readProfiles(Path, Set, Message)) {
    if (Error)
      *Error = "smc::loadProfiles: " + Message;
    return false;
  }
  ProfileState &S = forever<ProfileState>();
  Guard Lock(S.Mutex);
  install(S, std::move(Set));
  return true;
}

} // namespace smc
