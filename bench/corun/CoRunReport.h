//===- CoRunReport.h - Co-run metrics and the harness's JSON ----*- C++ -*-===//
//
// The CUDA-free arithmetic and output of smc_corun_bench (corun.cu):
//
//   STP      (system throughput) = sum over kernels of T_alone / T_corun
//   ANTT     (average normalized turnaround time) = mean of T_corun / T_alone
//   makespan = the latest T_corun (all measured from the common start)
//   slowdown = T_corun / T_alone of each kernel
//
// where T_alone is the workload's original kernels alone on the whole GPU
// and T_corun the time from the common start to the end of its own stream.
// The sums and means run over a group's N workloads (a pair, a triple, up
// to four).  A record holds one (group, mode): every measured round's
// T_corun per kernel; its STP and ANTT are those of the per-kernel medians.
// The summary gives each mode's means over groups and its ratios to plain
// streams (the targets are stated against streams), over all
// groups and by group size.  Also the bridge to the co-run model: the
// scheduler's decision for a group's profiles, and the SM shares of an
// oracle split.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_CORUNREPORT_H
#define SMC_BENCH_CORUN_CORUNREPORT_H

#include "CoRunPlan.h"
#include "corun/CoRunScheduler.h"
#include "measure/KernelProfile.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace smc::corun {

// The median of the finite values (the upper one of an even count); 0 when
// there are none.
double median(std::vector<double> Values);

struct CoRunMetrics {
  double Stp = 0, Antt = 0, MakespanMs = 0;
  std::vector<double> Slowdowns;
};
// Metrics of kernels whose alone and co-run times are AloneMs[i] and
// CoRunMs[i]; all zero if the sizes differ, are empty, or a time is not
// positive.
CoRunMetrics coRunMetrics(const std::vector<double> &AloneMs,
                          const std::vector<double> &CoRunMs);

struct KernelRecord {
  std::string Workload;
  unsigned Reps = 0;  // run() repetitions per co-run
  double AloneMs = 0; // T_alone (the median of the alone rounds)
  std::vector<double> CoRunSamplesMs; // T_corun of every measured round
};

struct CheckRecord {
  std::string Workload;
  bool Ok = false;
  std::string Summary; // CheckResult::summary() or the error
};

struct ModeRecord {
  // The group's name ("spmv+mm+nn"), written as "pair" in the JSON (the
  // field's name in results of pairs, kept so that they still plot).
  std::string Group;
  std::string Mode;
  std::vector<std::string> Categories;
  // "ok"; "unavailable" (the mode cannot run here, Note says why: no
  // numbers); "failed" (it ran and failed, Note says how).
  std::string Status = "ok";
  std::string Note;
  std::vector<KernelRecord> Kernels;
  nlohmann::json Config = nlohmann::json::object(); // what the mode ran
  std::vector<CheckRecord> Checks;
  // The per-kernel medians' metrics (zero unless Status is "ok").
  CoRunMetrics metrics() const;
  // Whether every check passed (true when there are none).
  bool checksPassed() const;
  // The group's workloads, in order (those of Kernels).
  std::vector<std::string> workloads() const;
};

// A record in the layout of a Google Benchmark aggregate: name
// "<group>/<mode>", run_type "aggregate", aggregate_name "median",
// real_time the makespan in ms; then pair (the group's name, as in results
// of pairs), workloads (its names), group_size, stp, antt, makespan_ms,
// kernels (alone, median co-run, slowdown, samples), stp_samples, config,
// checks.
nlohmann::json toJson(const ModeRecord &Record);

// Per mode (in Modes' order) over its "ok" records: pairs (the number of
// groups, whatever their size: the name results of pairs have), mean_stp,
// mean_antt, min_stp and its group (min_stp_pair); where the group has an
// "ok" streams record too: stp_vs_streams_mean (mean of per-group STP
// ratios), stp_vs_streams_min and its group, antt_vs_streams (streams'
// mean ANTT over this mode's, on those groups: above 1 is better).  Then
// by_size: the same keys over the groups of each size ("2", "3", ...)
// that has records.
nlohmann::json summarize(const std::vector<ModeRecord> &Records,
                         const std::vector<std::string> &Modes);

// The SM shares of an oracle split on a device of NumSms SMs: kernel i on
// Config.Sms[i] SMs from where kernel i - 1's end, the last kernel on the
// rest of the device, with Config.Workers[i] (0 where not given).
std::vector<KernelShare> sharesOf(const SplitConfig &Config, unsigned NumSms);
nlohmann::json sharesJson(const std::vector<KernelShare> &Shares);

// The highest STP a split can reach if no kernel runs faster than alone on
// its share: the sum of AloneMs[i] over kernel i's profiled time on the
// fewest profiled SMs at or above its share, with its share's workers per
// SM (a kernel is not faster on fewer SMs, so this needs no
// interpolation).  Infinity where a profile has no such point.  The oracle
// sweep measures splits in decreasing order of this bound and stops where
// the bound cannot beat the best measured STP (mayBeat).
double stpUpperBound(const std::vector<const KernelProfile *> &Profiles,
                     const std::vector<double> &AloneMs,
                     const std::vector<KernelShare> &Shares);
// Whether a split whose STP is at most Bound may beat Best, allowing Slack
// (a fraction) for the noise of the profiled times.
bool mayBeat(double Bound, double Best, double Slack = 0.05);

// decide() for a group's profiles (one per workload, in order) on NumSms
// SMs in groups of Granularity SMs, all of Normal priority, default
// margins.  decide() takes any number of kernels: for two it tries every
// split, for more it hands out one group of SMs at a time to the kernel
// whose predicted rate gains most (runtime/corun/CoRunScheduler.cpp,
// bestSplit); sharing is kept unless a split is predicted to beat it by the
// margin.
CoRunDecision decideGroup(const std::vector<const KernelProfile *> &Profiles,
                          unsigned NumSms, unsigned Granularity);
// The decision as JSON: kind, shares, reason, the model's STP and ANTT for
// it and for sharing, predicted seconds, and predicted_stp_vs_original:
// the STP its predicted times give against OriginalAloneMs (the originals'
// T_alone, which the measured STP uses).
nlohmann::json decisionJson(const CoRunDecision &Decision,
                            const std::vector<double> &OriginalAloneMs);

} // namespace smc::corun

#endif // SMC_BENCH_CORUN_CORUNREPORT_H
