//===- KernelProfile.h - How a kernel's time scales with SMs ----*- C++ -*-===//
//
// A kernel's scaling profile: measured launch times of the kernel confined
// to a number of SMs with a number of active workers per SM, and the times
// in between by interpolation.  The co-run scheduler (CoRunScheduler.h)
// splits SMs from these curves: a streaming kernel needs most SMs for its
// bandwidth (docs/DESIGN.md, "Bandwidth needs SMs"), so splits cannot be
// guessed.  Profiles of one device are kept in a ProfileSet, saved as JSON:
//
//   {"format": "smc-profile", "version": 1,
//    "device": "NVIDIA H100 80GB HBM3", "sms": 132,
//    "kernels": [{"name": "triad",
//                 "points": [{"sms": 132, "workers": 0, "seconds": 0.0058,
//                             "samples": 3}, ...],
//                 "issue": {"mem_ratio": 0.21, "ipc": 0.35,
//                           "seconds": 0.0058}}, ...]}
//
// "issue" (optional) is what the original issues, measured alone on the
// whole GPU with Nsight Compute (scripts/smc-profile --ncu): the share of
// its warp instructions that access global memory, its instructions per
// cycle per warp scheduler and its time.  smc::Batch sizes its slices from
// it (batch/SliceRuns.h), and the Kernelet model kept for comparison
// (bench/kernelet) predicts co-runs from it.  "points" may then be empty.
//
// "sms" of a point is in 1..sms of the device; "workers" >= 0 (0: the
// original's occupancy); "seconds" > 0; "samples" >= 1 (optional, default
// 1) is the number of launches whose mean "seconds" is.  Pure C++: no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_MEASURE_KERNELPROFILE_H
#define SMC_RUNTIME_MEASURE_KERNELPROFILE_H

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace smc {

// One measured launch time of a kernel confined to Sms SMs with WorkersPerSm
// active workers per SM (0: the original's occupancy), the mean of Samples
// launches.
struct ScalingPoint {
  unsigned Sms = 0;
  unsigned WorkersPerSm = 0;
  double Seconds = 0;
  unsigned Samples = 1;
};

// What a kernel's original issues alone on the whole GPU ("issue" above).
struct IssueProfile {
  double MemRatio = 0; // global memory warp instructions / warp instructions
  double Ipc = 0;      // warp instructions per active cycle per scheduler
  double Seconds = 0;  // one launch
};

class KernelProfile {
public:
  KernelProfile() = default;
  // DeviceSms 0: the device is not known and any SM count is accepted.
  KernelProfile(std::string Name, std::string Device, unsigned DeviceSms);

  const std::string &name() const { return Name; }
  const std::string &device() const { return Device; }
  unsigned deviceSms() const { return DeviceSms; }
  // Sorted by (WorkersPerSm, Sms); one point per pair.
  const std::vector<ScalingPoint> &points() const { return Points; }

  // Adds Sample.Samples launches of mean Sample.Seconds: a point of the same
  // (Sms, WorkersPerSm) becomes the mean of all its samples.  Returns false
  // and adds nothing for a sample with no SMs, more SMs than the device, no
  // samples or a time that is not positive and finite.
  bool addSample(const ScalingPoint &Sample);

  // The time on Sms SMs with WorkersPerSm workers, from the points of that
  // worker count: between two measured SM counts the throughput 1/T is
  // interpolated linearly; above the largest measured count the time is
  // that of the largest (no further speed-up is assumed); below the
  // smallest it scales as 1/Sms from the smallest (perfect scaling: an
  // optimistic guess, so measure small counts where they matter).  None
  // when Sms is 0 or no point has WorkersPerSm.
  std::optional<double> timeOn(unsigned Sms, unsigned WorkersPerSm) const;
  // The measured worker count with the shortest timeOn(Sms, .), the lowest
  // of equals; none when there are no points.
  std::optional<unsigned> bestWorkersOn(unsigned Sms) const;
  // timeOn(Sms, *bestWorkersOn(Sms)).
  std::optional<double> bestTimeOn(unsigned Sms) const;
  // The most distinct SM counts measured for one worker count: a curve
  // needs two.
  unsigned smCountsMeasured() const;

  const std::optional<IssueProfile> &issue() const { return Issue; }
  // Returns false and changes nothing unless 0 <= MemRatio <= 1, Ipc >= 0
  // and Seconds > 0, all finite.
  bool setIssue(const IssueProfile &Issue);

private:
  std::string Name;
  std::string Device;
  unsigned DeviceSms = 0;
  std::vector<ScalingPoint> Points;
  std::optional<IssueProfile> Issue;
};

// The profiles of one device, by kernel name.
class ProfileSet {
public:
  ProfileSet() = default;
  ProfileSet(std::string Device, unsigned DeviceSms);

  const std::string &device() const { return Device; }
  unsigned deviceSms() const { return DeviceSms; }
  const std::map<std::string, KernelProfile> &profiles() const {
    return Profiles;
  }
  // The profile of Name, created empty on this set's device if missing.
  KernelProfile &profile(const std::string &Name);
  // The profile of Name, or null.
  const KernelProfile *find(const std::string &Name) const;

  // Replaces the set with the one Text holds (the format above).  On error
  // returns false with Error naming the bad part, and leaves the set as it
  // was.
  bool load(const std::string &Text, std::string &Error);
  // The set in the format above.
  std::string toJson() const;

private:
  std::string Device;
  unsigned DeviceSms = 0;
  std::map<std::string, KernelProfile> Profiles;
};

} // namespace smc

#endif // SMC_RUNTIME_MEASURE_KERNELPROFILE_H
