//===- CoRunScheduler.h - SM splits for kernels that co-run -----*- C++ -*-===//
//
// Decides, for the SMC kernels in flight on a device at the same time,
// whether each runs on all SMs (shared, as the hardware would place them)
// or on a contiguous SM range of its own with a number of workers per SM
// (a partition), from each kernel's scaling profile (KernelProfile.h).  A
// partition is chosen only when it is predicted to beat sharing: a split
// that starves a bandwidth-bound kernel of SMs loses to plain sharing
// (docs/DESIGN.md, "Bandwidth needs SMs").  OnlineSearch refines the split
// of a co-run that recurs by hill climbing over measured throughput, as in
// "Enabling and Exploiting Flexible Task Assignment on GPU through
// SM-Centric Program Transformations".  Pure C++: no CUDA.
//
// STP (system throughput) = sum over kernels of T_alone / T_corun; ANTT
// (average normalized turnaround time) = mean of T_corun / T_alone.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORUN_CORUNSCHEDULER_H
#define SMC_RUNTIME_CORUN_CORUNSCHEDULER_H

#include "measure/KernelProfile.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace smc {

enum class KernelPriority { Normal, High };

// A kernel in flight.
struct CoRunKernel {
  std::string Name;
  const KernelProfile *Profile = nullptr; // null: never measured
  KernelPriority Priority = KernelPriority::Normal;
};

struct CoRunOptions {
  unsigned NumSms = 0;
  // Every share is a multiple of this many SMs and starts at one (green
  // contexts split in groups of 8); the NumSms % Granularity SMs past the
  // last whole group are left out of partitions.
  unsigned Granularity = 1;
  // A partition must be predicted to beat sharing's STP by this fraction.
  double Margin = 0.05;
  // A High kernel must run within (1 + HighSlack) x its alone time.
  double HighSlack = 0.10;
  // A kernel's demand is the fewest SMs that run it within
  // (1 + DemandTolerance) x its alone time.
  double DemandTolerance = 0.05;
};

// SMs [FirstSm, FirstSm + NumSms) with WorkersPerSm active workers per SM
// (0: the original's occupancy).
struct KernelShare {
  unsigned FirstSm = 0;
  unsigned NumSms = 0;
  unsigned WorkersPerSm = 0;
  bool operator==(const KernelShare &O) const {
    return FirstSm == O.FirstSm && NumSms == O.NumSms &&
           WorkersPerSm == O.WorkersPerSm;
  }
};

enum class CoRunKind { Shared, Partition };

struct CoRunDecision {
  CoRunKind Kind = CoRunKind::Shared;
  // One per kernel, in the order given.  Shared: all SMs, workers 0.
  std::vector<KernelShare> Shares;
  // Predicted co-run time of each kernel under this decision; empty, and
  // the STPs and ANTTs 0, where profiles are missing.
  std::vector<double> PredictedSeconds;
  double PredictedStp = 0, PredictedAntt = 0;
  double SharedStp = 0, SharedAntt = 0; // predicted for sharing
  std::string Reason;
};

// Decides for Kernels co-running on a device of Options.NumSms SMs.  With
// no High kernel, every kernel needs a profile measured on this device at
// two SM counts or more, else the decision is Shared; High is honoured
// only next to a Normal kernel (a High kernel without a profile gets the
// smallest SM count it was measured on, else half the device).
CoRunDecision decide(const std::vector<CoRunKernel> &Kernels,
                     const CoRunOptions &Options);

// Hill climbing over (SM split, workers per SM) for one co-run that recurs,
// driven by measured STP.  A configuration gives kernel i (in the order of
// the names given) Shares[i]: whole groups of Granularity SMs laid out in
// order from SM 0, every group assigned, every kernel at least one group,
// workers in 1..MaxWorkersPerSm[i].  A step moves one group from one kernel
// to another (the kernels between them shift along), or one kernel's
// workers by one.  Deterministic; at most MaxSteps reports are used.
class OnlineSearch {
public:
  using Config = std::vector<KernelShare>;

  struct Space {
    unsigned NumSms = 0;
    unsigned Granularity = 1;
    std::vector<unsigned> MaxWorkersPerSm; // one per kernel, >= 1
    unsigned MaxSteps = 64;
  };

  // Starts from Start (e.g. a Partition decision's shares, with workers 0
  // resolved to the original's occupancy; workers are clamped into range)
  // or, when Start is not a valid configuration, from an even split with
  // the most workers per SM.
  OnlineSearch(std::vector<std::string> Names, Space S, Config Start = {});

  // The key of a co-run: its kernel names, sorted.
  static std::string keyOf(std::vector<std::string> Names);
  const std::string &key() const { return Key; }

  // The configuration to run next: the start, then untried neighbours of
  // the best measured one, the most promising (by predict()) first; once
  // converged, the best.  None when the SMs cannot be split (fewer groups
  // than kernels).
  std::optional<Config> next() const;
  // Records the STP measured for Run; false (ignored) if Run is not a
  // valid configuration.  Repeated reports of one configuration average.
  bool report(const Config &Run, double MeasuredStp);
  // True when no neighbour of the best is untried, or MaxSteps reports
  // were made.
  bool converged() const;
  std::optional<Config> best() const;
  std::optional<double> bestStp() const;
  // The measured STP of Run, or the mean of the values interpolated along
  // each step direction from the nearest measured configurations on that
  // line (linearly between two on either side, else extrapolated from two
  // on one side); none if no line has such points.
  std::optional<double> predict(const Config &Run) const;
  bool isValid(const Config &Run) const;
  unsigned steps() const { return Steps; }

private:
  // k group counts, then k worker counts.
  using Point = std::vector<int>;
  struct Measured {
    double SumStp = 0;
    unsigned Count = 0;
    double stp() const { return SumStp / Count; }
  };

  std::optional<Point> toPoint(const Config &Run) const;
  Config toConfig(const Point &P) const;
  bool inRange(const Point &P) const;
  std::vector<Point> neighbours(const Point &P) const;
  std::optional<double> predictPoint(const Point &P) const;
  // Every direction a step may go, and its opposite: a group from kernel j
  // to kernel i for i < j, one more worker for kernel i.
  std::vector<Point> Directions;
  const Point *bestPoint() const;

  std::string Key;
  unsigned NumKernels = 0;
  int Groups = 0;
  Space S;
  Point Start;
  std::map<Point, Measured> Results;
  unsigned Steps = 0;
};

} // namespace smc

#endif // SMC_RUNTIME_CORUN_CORUNSCHEDULER_H
