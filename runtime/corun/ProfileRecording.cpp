//===- ProfileRecording.cpp - SMC_PROFILE_RECORD --------------------------===//
//
// The recorded profiles and the file written at exit; see
// ProfileRecording.h.
//===----------------------------------------------------------------------===//
#include "corun/ProfileRecording.h"

#include "base/Files.h"
#include "base/Forever.h"
#include "base/Messages.h"
#include "core/Devices.h"
#include "core/Kernels.h"
#include "core/Prepared.h"
#include "policy/Config.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

namespace smc {

const char *const NotConfinable =
    "its SM-centric variant cannot be confined to SMs (one chunk per worker, "
    "or no usable variant)";

namespace {

// What is recorded (the CoRun lock).
struct RecordedProfiles {
  std::string Path;
  ProfileSet Recorded;
  int Ordinal = -1; // the device Recorded is of; -1: none yet
  std::map<std::string, unsigned> LaunchesThisRun;
};

void writeRecordedAtExit() {
  // No lock: at exit no launch is decided any more.
  RecordedProfiles &R = forever<RecordedProfiles>();
  if (R.Ordinal < 0)
    return;
  std::ofstream File(R.Path);
  File << R.Recorded.toJson();
  File.close();
  if (!File)
    std::fprintf(stderr, "smc: cannot write SMC_PROFILE_RECORD file '%s'\n",
                 R.Path.c_str());
  else
    std::fprintf(stderr, "smc: profiles of %zu launch configurations in '%s'\n",
                 R.Recorded.profiles().size(), R.Path.c_str());
}

// The first recorded launch, on `Dev`: what the file holds already, if it
// was recorded on this device.
void startRecording(RecordedProfiles &R, const DeviceState &Dev) {
  R.Ordinal = Dev.Ordinal;
  R.Recorded = ProfileSet(Dev.Name, Dev.NumSMs);
  std::string Text;
  if (!readTextFile(R.Path, Text))
    return;
  ProfileSet Earlier;
  std::string Error;
  if (!Earlier.load(Text, Error))
    tell("SMC_PROFILE_RECORD: '" + R.Path + "' is not kept: " + Error);
  else if (Earlier.device() != R.Recorded.device() ||
           Earlier.deviceSms() != Dev.NumSMs)
    tell("SMC_PROFILE_RECORD: '" + R.Path +
         "' was recorded on another device (" + Earlier.device() +
         "); it is replaced");
  else
    R.Recorded = std::move(Earlier);
}

} // namespace

bool recordingProfiles() {
  static const bool Recording =
      writeAtExit(config().ProfileRecordPath, forever<RecordedProfiles>().Path,
                  writeRecordedAtExit);
  return Recording;
}

void proposeRecorded(Launch &L, CoRun::Ticket &T, const std::string &Name) {
  Prepared &P = *L.current();
  DeviceState &Dev = *P.Device;
  RecordedProfiles &R = forever<RecordedProfiles>();
  if (R.Ordinal >= 0 && L.Device != R.Ordinal) {
    tell("SMC_PROFILE_RECORD: records device " + std::to_string(R.Ordinal) +
         " only; launches on device " + std::to_string(L.Device) +
         " run the original");
    return L.use(nullptr);
  }
  if (R.Ordinal < 0)
    startRecording(R, Dev);
  // The first launch of each configuration warms it up, unrecorded.
  if (R.LaunchesThisRun[Name]++ == 0)
    return L.use(nullptr);
  const KernelProfile *Profile = R.Recorded.find(Name);
  unsigned Sms = nextRecordSms(launchesRecorded(Profile), Dev.NumSMs);
  // Timed from an idle stream.  Not the whole device: a program whose
  // other streams wait on this one (or on the host) would never get there.
  T.Sms.resize(Sms);
  for (unsigned I = 0; I < Sms; ++I)
    T.Sms[I] = I;
  L.confine(&T.Sms, 0);
  Prepared *Confined = L.prepared();
  if (!Confined || !Confined->loopWorkers()) {
    // Its times would not depend on the SMs: no profile at all.
    tellKernel(*P.Kernel, std::string("SMC_PROFILE_RECORD: not profiled: ") +
                              NotConfinable + "; it runs the original");
    return L.use(nullptr);
  }
  // (An error the wait reports stays the program's to see.)
  if (cudaStreamSynchronize(L.Stream) != cudaSuccess)
    return L.use(nullptr);
  T.Recording = true;
  T.RecordSms = Sms;
}

void recorded(CoRun::Ticket &T, const std::string &Name, cudaError_t Err) {
  double Seconds = 0;
  if (Err != cudaSuccess || !T.Watch.started())
    return;
  if (T.Watch.wait(Seconds) != Stopwatch::Reading::Done)
    return;
  ScalingPoint Sample;
  Sample.Sms = T.RecordSms;
  Sample.Seconds = Seconds;
  forever<RecordedProfiles>().Recorded.profile(Name).addSample(Sample);
}

} // namespace smc
