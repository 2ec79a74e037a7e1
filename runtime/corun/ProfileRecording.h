//===- ProfileRecording.h - SMC_PROFILE_RECORD ------------------*- C++ -*-===//
//
// SMC_PROFILE_RECORD=<file> records kernel profiles instead of deciding:
// each launch of policy auto runs from an idle stream as the SM-centric
// variant on the next SM count of recordLadder() (AutoPolicy.h), timed and
// waited for (what else the program runs meanwhile counts in: profile a
// program's kernels one by one); the samples are added to what the file
// already holds and written at exit (host data only: no CUDA call runs at
// exit).  scripts/smc-profile runs a program that way.  The CoRun lock
// (base/Locks.h) guards the recording; AutoLaunch.cpp calls these with it
// held.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORUN_PROFILERECORDING_H
#define SMC_RUNTIME_CORUN_PROFILERECORDING_H

#include "core/Launch.h"
#include "corun/AutoLaunch.h"

#include <string>

namespace smc {

// Whether launches of policy auto record profiles (SMC_PROFILE_RECORD).
bool recordingProfiles();

// What a launch of `L` (configuration profile `Name`) records: confined to
// the next SM count, marked T.Recording; else it runs the original
// unrecorded (a configuration's first launch warms it up; another device
// than the recorded one; a kernel that cannot be confined).
void proposeRecorded(Launch &L, CoRun::Ticket &T, const std::string &Name);

// After a recorded launch: waits for it and adds its sample to profile
// `Name`.
void recorded(CoRun::Ticket &T, const std::string &Name, cudaError_t Err);

// The words a kernel that cannot be confined is told with.
extern const char *const NotConfinable;

} // namespace smc

#endif // SMC_RUNTIME_CORUN_PROFILERECORDING_H
