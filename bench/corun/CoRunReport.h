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
// A record holds one (pair, mode): every measured round's T_corun per
// kernel; its STP and ANTT are those of the per-kernel medians.  The
// summary gives each mode's means over pairs and its ratios to plain
// streams (the targets are stated against streams).  Also the
// bridge to the co-run model: the scheduler's decision for a pair of
// profiles, and the SM shares of an oracle split.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_CORUNREPORT_H
#define SMC_BENCH_CORUN_CORUNREPORT_H

#include "CoRunPlan.h"
#include "CoRunScheduler.h"
#include "KernelProfile.h"

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
  std::string Pair, Mode;
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
};

// A record in the layout of a Google Benchmark aggregate: name
// "<pair>/<mode>", run_type "aggregate", aggregate_name "median",
// real_time the makespan in ms; then stp, antt, makespan_ms, kernels
// (alone, median co-run, slowdown, samples), stp_samples, config, checks.
nlohmann::json toJson(const ModeRecord &Record);

// Per mode (in Modes' order) over its "ok" records: pairs, mean_stp,
// mean_antt, min_stp and its pair; where the pair has an "ok" streams
// record too: stp_vs_streams_mean (mean of per-pair STP ratios),
// stp_vs_streams_min and its pair, antt_vs_streams (streams' mean ANTT over
// this mode's, on those pairs: above 1 is better).
nlohmann::json summarize(const std::vector<ModeRecord> &Records,
                         const std::vector<std::string> &Modes);

// The SM shares of an oracle split on a device of NumSms SMs.
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

// decide() for the pair's two profiles on NumSms SMs in groups of
// Granularity SMs, both of Normal priority, default margins.
CoRunDecision decidePair(const KernelProfile &First,
                         const KernelProfile &Second, unsigned NumSms,
                         unsigned Granularity);
// The decision as JSON: kind, shares, reason, the model's STP and ANTT for
// it and for sharing, predicted seconds, and predicted_stp_vs_original:
// the STP its predicted times give against OriginalAloneMs (the originals'
// T_alone, which the measured STP uses).
nlohmann::json decisionJson(const CoRunDecision &Decision,
                            const std::vector<double> &OriginalAloneMs);

} // namespace smc::corun

#endif // SMC_BENCH_CORUN_CORUNREPORT_H
