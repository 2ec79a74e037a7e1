//===- AutoPolicy.h - What a launch of policy auto runs ---------*- C++ -*-===//
//
// Policy auto puts the co-run scheduler (CoRunScheduler.h) on the launch
// path: each launch of a kernel with policy auto runs either its original
// (sharing the GPU as the hardware places CTAs) or its SM-centric variant
// on an SM range of its own, decided from the kernel profiles and the other
// launches of policy auto in flight on the device.  This file holds the
// decision and the profile recording schedule, pure C++ without CUDA;
// runtime/corun/AutoLaunch.cpp does the CUDA side.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORUN_AUTOPOLICY_H
#define SMC_RUNTIME_CORUN_AUTOPOLICY_H

#include "corun/CoRunScheduler.h"
#include "corun/CoRunTrials.h"

#include <string>
#include <vector>

namespace smc {

// The name a launch's profile is kept under: the kernel's source name and
// the launch's grid and block, "vecAdd grid=4096x1x1 block=256x1x1" (a
// kernel scales differently at different sizes).
std::string profileName(const std::string &Kernel, const unsigned Grid[3],
                        const unsigned Block[3]);

// The SM counts a profile is recorded at, largest first: all NumSms SMs,
// then 3/4, 1/2, 1/4 and 1/8 of them (rounded down, at least 1, without
// repeats).
std::vector<unsigned> recordLadder(unsigned NumSms);

// The SM count of the next recorded launch of a kernel of which
// `LaunchesRecorded` launches were recorded so far (in the profile file and
// in this process): the ladder's points in turn, so that repeated runs of a
// program fill every point.
unsigned nextRecordSms(unsigned LaunchesRecorded, unsigned NumSms);

// How many launches `Profile` holds (the sum of its points' samples); 0 for
// none.
unsigned launchesRecorded(const KernelProfile *Profile);

// A launch of policy auto in flight on another stream of the device.
struct AutoFlight {
  CoRunKernel Kernel;
  // The SMs it was confined to; NumSms 0 when it runs the original (its
  // CTAs may be on any SM).
  KernelShare Share;
};

// What one launch runs.
struct AutoChoice {
  bool Confine = false; // the SM-centric variant on Share; else the original
  KernelShare Share;
  std::string Reason; // why, for messages and tests
};

// The choice made for a stream's last launch of policy auto, and what it
// was made for.  A request loop makes the same launch beside the same
// co-runners launch after launch: AutoLaunch.cpp reuses Choice while
// matches() holds instead of deciding again (no key built, no kernel
// copied; on an H100 the launch path of policy auto beside another
// stream's launch cost 1.6 us more than cudaLaunchKernel before).
struct AutoMemo {
  bool Valid = false;
  std::string Me; // the launch's profile name
  KernelPriority Priority = KernelPriority::Normal;
  bool StreamBusy = false;
  // The profiles and co-run trial decisions it was decided from.
  unsigned DecisionsVersion = 0;
  std::vector<AutoFlight> Others;
  AutoChoice Choice;
  // The co-run trials (CoRunTrials.h) Choice came from, and Me's index in
  // them; null where the model decided.
  CoRunTrials *Trials = nullptr;
  size_t TrialKernel = 0;

  // Whether a launch of `Me` at `Priority`, busy or not, decided from
  // profiles and trials of `DecisionsVersion`, gets Choice (its co-runners
  // compared one by one with sameCoRunner()).
  bool matches(const std::string &Me, KernelPriority Priority, bool StreamBusy,
               unsigned DecisionsVersion) const {
    return Valid && this->StreamBusy == StreamBusy &&
           this->Priority == Priority &&
           this->DecisionsVersion == DecisionsVersion && this->Me == Me;
  }
};

// Whether two flights are the same kernel at the same priority on the same
// share.
bool sameCoRunner(const AutoFlight &A, const AutoFlight &B);

// The key under which decide()'s answer for these kernels is kept: their
// names and priorities, sorted.
std::string coRunKey(const std::vector<CoRunKernel> &Kernels);

// The kernels of a co-run in the order decide() is asked about them: sorted
// by name, then priority, so that a co-run that recurs gets the same SM
// ranges whichever of its launches comes first.
std::vector<CoRunKernel> decisionOrder(std::vector<CoRunKernel> Kernels);

// What a launch of `Me` runs next to `Others`, given `Decision`, decide()'s
// answer for decisionOrder(Others + Me).  A launch is confined only when
// the decision is a partition and `StreamBusy` is false: a launch queued
// behind earlier work on its own stream may start after the others end,
// when its share would not pay (and its workers are sized for every SM:
// plan/WorkerGrid.h, confinedGrid).
AutoChoice chooseAuto(const std::vector<AutoFlight> &Others,
                      const CoRunKernel &Me, bool StreamBusy,
                      const CoRunDecision &Decision, unsigned NumSms);

// The co-run trials policy auto holds in this process, copied under its
// lock (for tests and tools).  Defined with the launch path
// (AutoLaunch.cpp).
std::vector<CoRunTrials> autoCoRunTrials();

} // namespace smc

#endif // SMC_RUNTIME_CORUN_AUTOPOLICY_H
