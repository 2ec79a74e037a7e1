//===- KerneletPlan.h - The Kernelet model of an smc::Batch -----*- C++ -*-===//
//
// What the Kernelet model (KerneletModel.h) knows of the launches recorded
// into an smc::Batch, from the batch's public API and the launches' "issue"
// profiles: each launch's traits, and the device model with its memory
// latencies fitted to the profiles' measured IPCs.  The model's plan
// (planGreedy) runs through Batch::run(runs) as an explicit plan, as
// smc_kernelet_bench and the GPU tests do:
//
//   smc::kernelet::BatchModel M = smc::kernelet::batchModel(
//       B.launches(), Profiles, NumSms, MaxThreadsPerSm);
//   smc::kernelet::Schedule Plan = smc::kernelet::planGreedy(M.Device,
//                                                            M.Launches);
//   B.run(Plan.Runs, &Error);
//
// Pure logic: no CUDA (the caller asks the device for its SMs).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_KERNELETPLAN_H
#define SMC_BENCH_KERNELETPLAN_H

#include "KerneletModel.h"
#include "measure/KernelProfile.h"
#include "smc/smc.h"

#include <vector>

namespace smc::kernelet {

struct BatchModel {
  DeviceModel Device;
  std::vector<PendingLaunch> Launches; // in record order
};

// The model of a batch of Launches (Batch::launches()) on a device of
// NumSms SMs of MaxThreadsPerSm threads each (less than 32: the model's
// default warps per SM): a launch is Known where the runtime found its
// issue profile (LaunchInfo::profiled) and Profiles has it, which gives its
// memory ratio and alone time; the device model's latencies are fitted to
// the IPCs those profiles measured (calibrate(), memoized per set of
// samples: a fit solves the model many times).
BatchModel batchModel(const std::vector<Batch::LaunchInfo> &Launches,
                      const ProfileSet &Profiles, unsigned NumSms,
                      unsigned MaxThreadsPerSm);

// The model's makespan of Runs (a plan for Batch::run(runs)) in seconds;
// 0 when a launch is not Known or the plan is not valid.
double predictRuns(const BatchModel &M,
                   const std::vector<Batch::SliceRun> &Runs);

} // namespace smc::kernelet

#endif // SMC_BENCH_KERNELETPLAN_H
