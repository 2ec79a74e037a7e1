//===- SliceRuns.h - A batch's runs and the slice-size rule -----*- C++ -*-===//
//
// The words of smc::Batch's plans, as pure logic (no CUDA): what a plan
// knows of a recorded launch (PendingLaunch, its KernelTraits), a run of
// slices of one launch on one of the batch's two lanes (SliceRun), a plan
// (Schedule), the rules a plan must keep before anything of it runs
// (checkSchedule), the serial plan, and the slice-size rule of "Kernelet:
// High-Throughput GPU Kernel Executions with Dynamic Slicing and
// Scheduling" (TPDS 2014): launching slices may cost at most 2% of a
// launch's time.  The Kernelet paper's performance model and greedy
// planner, which plan with these words, are a comparison kept in
// bench/kernelet.
//
// Words: a slice is one launch of a range of a kernel's CTAs; c CTAs of a
// kernel per SM make slices of c * NumSms CTAs.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_SLICERUNS_H
#define SMC_RUNTIME_SLICERUNS_H

#include "measure/KernelProfile.h"
#include "smc/smc.h"

#include <string>
#include <vector>

namespace smc::batch {

// The device as a batch's plans see it: its SMs, and what slicing costs.
struct PlanDevice {
  unsigned NumSms = 132;
  // What one more slice launch costs (its launch and the tail it ends in),
  // and the most of a launch's time its slicing may cost (the paper's p,
  // 2%): slices are at least minSliceCtas() long, and a launch too short
  // for two such slices is not sliced.  Without this rule a launch of
  // half a million 2 us CTAs went into a thousand one-wave slices and ran
  // 1.7x as long as plain streams (H200).
  double SliceLaunchSeconds = 5e-6;
  double MaxSliceOverhead = 0.02;
};

struct KernelTraits {
  std::string Name;
  unsigned Ctas = 0; // CTAs in the launch (grid size)
  unsigned WarpsPerCta = 0;
  unsigned CtasPerSm = 0;  // the most CTAs of it on one SM when alone
  double MemRatio = 0;     // global memory warp instructions / all
  double AloneSeconds = 0; // the launch alone on the whole GPU
};

// The fewest CTAs a slice of T may have: as many as it runs, alone, in
// SliceLaunchSeconds / MaxSliceOverhead (at least 1; 1 when the device or
// T's time is incomplete).
unsigned minSliceCtas(const PlanDevice &M, const KernelTraits &T);

// The "issue" profile of T's launch configuration (by T.Name) in
// Profiles, where there is one and T's occupancy is known: T's memory
// ratio and alone time are then the profile's.  Null otherwise, T as it
// was.
const IssueProfile *useIssueProfile(const ProfileSet &Profiles,
                                    KernelTraits &T);

// Whether T is complete: CTAs, warps, occupancy, a memory ratio in [0, 1]
// and a positive finite alone time; else false with *Error saying what is
// missing.
bool checkTraits(const KernelTraits &T, std::string *Error = nullptr);

struct PendingLaunch {
  unsigned Stream = 0;
  KernelTraits Traits;
  bool Sliceable = true;
  bool Known = true; // traits measured
  // Its SM-centric variant runs as persistent workers (loop mode), so it
  // can run whole at a chosen number of workers per SM.
  bool Workers = false;
  // How many of those workers fit on one SM (0: as many as CTAs of the
  // original, Traits.CtasPerSm).  Fewer where the variant needs more
  // registers (sad: 20 against 32 CTAs of 64 threads).
  unsigned WorkersPerSmFit = 0;
};

// The workers of L that fit on one SM: WorkersPerSmFit, else the
// original's CTAs per SM.
inline unsigned workersPerSmFit(const PendingLaunch &L) {
  return L.WorkersPerSmFit ? L.WorkersPerSmFit : L.Traits.CtasPerSm;
}

// One run of consecutive slices of one launch on one lane (lanes are the
// two streams the executor launches on), as Batch::run(runs) takes it and
// lastRuns() gives it (smc.h): CTAs [firstCta, firstCta + ctas) in slices
// of sliceCtas (the last may be smaller; sliceCtas == ctas: one launch of
// the whole range), or the whole launch as workersPerSm persistent workers
// per SM (sliceCtas: as many CTAs of it on the GPU at once), on SMs
// [smFirst, smFirst + smCount) if smCount is not 0; after every earlier
// run with fence.
using SliceRun = Batch::SliceRun;

struct Schedule {
  // In enqueue order: a run's launch's stream predecessors end in earlier
  // runs, and each lane runs its runs in this order.
  std::vector<SliceRun> Runs;
  double PredictedSeconds = 0;    // the planner's makespan, if it has one
  std::vector<std::string> Notes; // one per decision: pairs and why alone
};

// The baseline: each launch whole on lane 0, in the given order;
// PredictedSeconds is the sum of the alone times.
Schedule planSerial(const std::vector<PendingLaunch> &Launches);

// Whether S is a plan the executor can run for Launches: every CTA of
// every launch in exactly one run, each launch's runs in CTA order on one
// lane (0 or 1), slices of at least one CTA, a launch that is not Sliceable
// in one whole run, a run of workers only of a whole launch that has
// Workers, an SM range only for workers (within NumSms, where not 0), and
// each launch's first run after every run of the earlier launches of its
// stream.  Else false with *Error naming the run.
bool checkSchedule(const std::vector<PendingLaunch> &Launches,
                   const Schedule &S, std::string *Error = nullptr,
                   unsigned NumSms = 0);

} // namespace smc::batch

#endif // SMC_RUNTIME_SLICERUNS_H
