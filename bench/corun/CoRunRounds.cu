//===- CoRunRounds.cu - A group's measured rounds and the JSON ------------===//
//
// smc_corun_bench's (corun.cu) rounds: one warm-up round and the measured
// rounds of every mode of a group, interleaved, next to the originals
// alone; checks after the first measured co-run of each mode; the records
// and the JSON report, rewritten after each group.
//===----------------------------------------------------------------------===//
#include "CoRunHarness.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace smc::corun {

// What a mode runs, for the records of modes without a decided config.
const char *whatRuns(const std::string &Mode) {
  if (Mode == "serial")
    return "the originals, one workload after the other on one stream";
  if (Mode == "streams")
    return "the originals on plain streams, one per workload";
  if (Mode == "priority")
    return "the originals, the first workload on a high-priority stream, "
           "the others on plain streams";
  if (Mode == "smc-shared")
    return "__smc variants on every SM, workers per SM as the originals' "
           "occupancy, plain streams, one per workload";
  if (Mode == "green")
    return "the originals in green contexts, one per workload";
  if (Mode == "batch-search")
    return "the workloads' launches recorded into an smc::Batch, run in "
           "the layout its Search settled on (least makespan)";
  if (Mode == "batch-turnaround")
    return "the workloads' launches recorded into an smc::Batch, run in "
           "the layout its Search settled on (least sum of the workloads' "
           "turnaround)";
  if (Mode == "smc-trials")
    return "what the measured co-run trials settled on: the originals on "
           "plain streams (sharing) or __smc variants on SM partitions";
  return "__smc variants on SM partitions";
}

void Harness::measure(GroupRun &P) {
  std::vector<std::string> Modes = {"alone"};
  for (const std::string &Mode : Opt.Modes)
    if (!P.Missing.count(Mode))
      Modes.push_back(Mode);
  const size_t N = P.size();
  std::map<std::string, std::vector<std::vector<double>>> Samples;
  std::map<std::string, std::vector<CheckRecord>> Checks;
  for (unsigned Round = 0; Round <= Opt.Rounds; ++Round) {
    std::vector<std::string> Order = Modes;
    std::rotate(Order.begin(), Order.begin() + Round % Order.size(),
                Order.end());
    for (const std::string &Mode : Order) {
      std::vector<double> Ms;
      if (Mode == "alone") {
        usePolicy(P.Members, Variant::Original);
        for (SuiteWorkload *W : P.Members)
          Ms.push_back(runAlone(*W));
      } else {
        std::vector<SuiteWorkload *> ToCheck;
        if (Round == 1)
          for (SuiteWorkload *W : P.Members)
            if (Opt.Check == CheckPolicy::EveryGroup ||
                !W->CheckedModes.count(Mode))
              ToCheck.push_back(W);
        for (SuiteWorkload *W : ToCheck)
          W->Instance->resetOutputs(GateStream);
        Ms = runMode(P, Mode);
        for (SuiteWorkload *W : ToCheck) {
          Checks[Mode].push_back(check(*W));
          W->CheckedModes.insert(Mode);
        }
      }
      if (Round == 0) // warm-up
        continue;
      if (Ms.size() != N)
        throw std::runtime_error(P.Group.name() + "/" + Mode + ": " +
                                 std::to_string(Ms.size()) + " times for " +
                                 std::to_string(N) + " workloads");
      std::vector<std::vector<double>> &S = Samples[Mode];
      S.resize(N);
      for (size_t I = 0; I < N; ++I)
        S[I].push_back(Ms[I]);
    }
  }

  std::vector<std::vector<double>> &Alone = Samples["alone"];
  Alone.resize(N);
  for (const std::string &Mode : Opt.Modes) {
    ModeRecord R;
    R.Group = P.Group.name();
    R.Mode = Mode;
    R.Categories = categoriesOf(P.Group);
    if (P.Config.count(Mode))
      R.Config = P.Config[Mode];
    if (!R.Config.contains("runs"))
      R.Config["runs"] = whatRuns(Mode);
    for (size_t I = 0; I < N; ++I) {
      KernelRecord K;
      K.Workload = P.Members[I]->name();
      K.Reps = P.Members[I]->Reps;
      K.AloneMs = median(Alone[I]);
      if (Samples.count(Mode))
        K.CoRunSamplesMs = Samples[Mode][I];
      R.Kernels.push_back(K);
    }
    if (P.Missing.count(Mode)) {
      R.Status = "unavailable";
      R.Note = P.Missing[Mode];
    }
    R.Checks = Checks[Mode];
    for (const CheckRecord &C : R.Checks)
      if (!C.Ok) {
        R.Status = "failed";
        R.Note = C.Workload + " failed its check after this co-run";
        Failures.push_back(R.Group + "/" + Mode + ": " + C.Workload + ": " +
                           C.Summary);
      }
    Records.push_back(R);
  }
}

json Harness::workloadsJson() const {
  json List = json::array();
  for (const std::string &Name : WorkloadOrder) {
    const SuiteWorkload &W = *Workloads.at(Name);
    wl::RunEstimate E = W.Instance->estimate();
    json J = {{"name", Name},
              {"class", className(W.Class->Class)},
              {"ops_per_byte", W.Class->OpsPerByte},
              {"h100_readme_run_ms", W.Class->H100RunMs},
              {"length", lengthName(W.Class->length())},
              {"kernels", W.Info->kernelNames},
              {"params", W.Info->params(wl::Size::Default).str()},
              {"run_ms", W.RunMs},
              {"reps", W.Reps},
              {"alone_ms", W.AloneMs},
              {"estimate_bytes_per_run", E.bytes},
              {"estimate_ops_per_run", E.flops}};
    if (W.RunMs > 0)
      J["dram_gb_per_s"] = E.bytes / (W.RunMs * 1e-3) / 1e9;
    if (E.bytes > 0)
      J["estimate_ops_per_byte"] = E.flops / E.bytes;
    J["checks"] = json::array();
    for (const CheckRecord &C : W.AloneChecks)
      J["checks"].push_back({{"ok", C.Ok}, {"summary", C.Summary}});
    J["profile"] = json::array();
    for (const smc::ScalingPoint &Point : W.Profile.points())
      J["profile"].push_back({{"sms", Point.Sms},
                              {"workers_per_sm", Point.WorkersPerSm},
                              {"ms", Point.Seconds * 1e3}});
    List.push_back(J);
  }
  return List;
}

json Harness::report() const {
  json J;
  J["context"] = Context;
  J["context"]["elapsed_s"] = elapsedSeconds();
  J["context"]["gate_timeouts"] = GateTimeouts;
  J["context"]["unreleased_runs"] = UnreleasedRuns;
  J["workloads"] = workloadsJson();
  J["benchmarks"] = json::array();
  for (const ModeRecord &R : Records)
    J["benchmarks"].push_back(toJson(R));
  J["summary"] = summarize(Records, Opt.Modes);
  J["failures"] = Failures;
  J["skipped_pairs"] = Skipped;
  if (!Fatal.empty())
    J["fatal_error"] = Fatal;
  return J;
}

void Harness::writeReport() const {
  std::string Temporary = Opt.OutFile + ".tmp";
  {
    std::ofstream Out(Temporary);
    Out << report().dump(1) << "\n";
    if (!Out)
      throw std::runtime_error("cannot write " + Temporary);
  }
  if (std::rename(Temporary.c_str(), Opt.OutFile.c_str()) != 0)
    throw std::runtime_error("cannot rename " + Temporary + " to " +
                             Opt.OutFile);
}

} // namespace smc::corun
