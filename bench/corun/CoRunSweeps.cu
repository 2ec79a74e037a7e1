//===- CoRunSweeps.cu - What a group runs in each mode, decided -----------===//
//
// Before a group's measured rounds, smc_corun_bench (corun.cu) decides the
// configuration of each mode: the green-context sweep and the oracle sweep
// (ranked by STP against the calibrated times alone), the layouts
// smc::Batch's search settles on, the co-run scheduler's decision and what
// the measured co-run trials settle on.
//===----------------------------------------------------------------------===//
#include "BenchCuda.h"
#include "CoRunHarness.h"
#include "corun/CoRunTrials.h"

#include <cmath>
#include <exception>

namespace smc::corun {

// Green contexts: N per split (greenSweep bounds the splits), each split
// measured once, in order, for --sweep-s at most; the best is kept.
void Harness::sweepGreen(GroupRun &P) {
  if (!GreenProblem.empty()) {
    P.Missing["green"] = GreenProblem;
    return;
  }
  GreenSweep Plan =
      greenSweep(NumSms, Opt.SplitStep, Green.minPartition(), Green.alignment(),
                 unsigned(P.size()), MaxGreenSplits);
  json Sweep = json::array(), Refused = json::array();
  double BestStp = 0;
  unsigned Measured = 0;
  std::string Stopped = "every split measured";
  std::vector<double> Alone = P.aloneMs();
  double Began = elapsedSeconds();
  for (const std::vector<unsigned> &Request : Plan.Requests) {
    if (elapsedSeconds() - Began > Opt.SweepSeconds) {
      Stopped = "time limit (--sweep-s)";
      break;
    }
    std::string Error;
    const GreenContexts::Split *S = Green.split(Request, Error);
    if (!S) {
      Refused.push_back({{"requested_sms", Request}, {"error", Error}});
      continue;
    }
    std::vector<double> Ms;
    try {
      Ms = runGreen(P, *S);
    } catch (const std::exception &E) {
      // Launching into green contexts does not work here: say so, once.
      cudaDeviceSynchronize(); // what was queued before the failure
      cudaGetLastError();
      GreenProblem =
          std::string("a co-run in green contexts failed: ") + E.what();
      P.Missing["green"] = GreenProblem;
      Context["green_contexts"] = {{"available", false},
                                   {"reason", GreenProblem}};
      return;
    }
    ++Measured;
    CoRunMetrics M = coRunMetrics(Alone, Ms);
    Sweep.push_back({S->RequestedSms, S->GrantedSms, M.Stp});
    if (M.Stp > BestStp) {
      BestStp = M.Stp;
      P.GreenSms = Request;
      P.Config["green"] = {{"requested_sms", S->RequestedSms},
                           {"granted_sms", S->GrantedSms}};
    }
  }
  json &GreenConfig = P.Config["green"];
  GreenConfig["sweep_step"] = Plan.Step;
  GreenConfig["sweep_splits"] = Plan.Requests.size();
  GreenConfig["sweep_max_splits"] = MaxGreenSplits;
  GreenConfig["sweep_measured"] = Measured;
  GreenConfig["sweep_stopped"] = Stopped;
  if (!Refused.empty())
    GreenConfig["refused"] = Refused;
  if (BestStp == 0) {
    P.Missing["green"] = "no split could be made or measured";
    return;
  }
  GreenConfig["sweep_best_stp"] = BestStp;
  GreenConfig["sweep_columns"] = {"requested_sms", "granted_sms", "stp"};
  GreenConfig["sweep"] = Sweep;
}

// The oracle: the configurations of oracleConfigs (for three workloads or
// more, workers per SM fixed: see oracleWorkers) in decreasing order of
// their STP bound, one co-run each, until the bound cannot beat the best
// or --sweep-s runs out.
void Harness::sweepOracle(GroupRun &P) {
  unsigned Parts = unsigned(P.size());
  std::vector<SplitConfig> Configs =
      oracleConfigs(NumSms, Opt.SplitStep, Opt.Workers, Parts);
  std::vector<double> Alone = P.aloneMs();
  std::vector<const smc::KernelProfile *> Profiles = P.profiles();
  std::vector<double> Bounds, Stps(Configs.size(), NAN);
  for (const SplitConfig &C : Configs)
    Bounds.push_back(stpUpperBound(Profiles, Alone, sharesOf(C, NumSms)));
  std::vector<size_t> Order(Configs.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Bounds[A] > Bounds[B] || (Bounds[A] == Bounds[B] && A < B);
  });
  double Began = elapsedSeconds();
  unsigned Measured = 0;
  std::string Stopped = "every configuration measured";
  CoRunMetrics Best;
  SplitConfig BestConfig;
  for (size_t I : Order) {
    if (!mayBeat(Bounds[I], Best.Stp)) {
      Stopped = "the rest cannot beat the best (STP bound from the profiles)";
      break;
    }
    if (elapsedSeconds() - Began > Opt.SweepSeconds) {
      Stopped = "time limit (--sweep-s)";
      break;
    }
    std::vector<double> Ms = runShares(P, sharesOf(Configs[I], NumSms));
    CoRunMetrics M = coRunMetrics(Alone, Ms);
    Stps[I] = M.Stp;
    ++Measured;
    if (M.Stp > Best.Stp ||
        (M.Stp > 0 && M.Stp == Best.Stp && M.Antt < Best.Antt)) {
      Best = M;
      BestConfig = Configs[I];
    }
  }
  if (Best.Stp == 0) {
    P.Missing["smc-oracle"] = "no configuration could be measured";
    return;
  }
  json Sweep = json::array();
  for (size_t I = 0; I < Configs.size(); ++I)
    Sweep.push_back({Configs[I].Sms, Configs[I].Workers,
                     std::isfinite(Stps[I]) ? json(Stps[I]) : json(),
                     std::isfinite(Bounds[I]) ? json(Bounds[I]) : json()});
  P.OracleShares = sharesOf(BestConfig, NumSms);
  P.Config["smc-oracle"] = {
      {"shares", sharesJson(P.OracleShares)},
      {"sweep_best_stp", Best.Stp},
      {"sweep_measured", Measured},
      {"sweep_configs", Configs.size()},
      {"sweep_workers_per_sm_choices", oracleWorkers(Opt.Workers, Parts)},
      {"sweep_stopped", Stopped},
      {"sweep_columns", {"sms", "workers_per_sm", "stp", "stp_bound"}},
      {"sweep", Sweep}};
}

// Runs the group as a batch until smc::Batch's Search has settled on a
// layout (as a program that co-runs the group again and again would), or
// SearchBatches times at most.
void Harness::settleSearch(GroupRun &P, const std::string &Mode) {
  constexpr unsigned SearchBatches = 300;
  unsigned Runs = 0;
  try {
    while (Runs < SearchBatches) {
      runMode(P, Mode);
      ++Runs;
      if (LastLayout.find("the fastest of") != std::string::npos)
        break;
    }
  } catch (const std::exception &E) {
    P.Missing[Mode] = E.what();
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
    return;
  }
  size_t At = LastLayout.find("layout lane");
  P.Config[Mode] = {
      {"runs", whatRuns(Mode)},
      {"settled_after_batches", Runs},
      {"layout", At == std::string::npos ? LastLayout : LastLayout.substr(At)}};
}

void Harness::schedule(GroupRun &P) {
  P.Decision = decideGroup(P.profiles(), NumSms, Opt.SplitStep);
  bool Split = P.Decision.Kind == smc::CoRunKind::Partition;
  P.Config["smc-scheduler"] = {
      {"decision", decisionJson(P.Decision, P.aloneMs())},
      {"runs", Split ? "__smc variants on the decided shares"
                     : "the originals on plain streams, one per workload "
                       "(shared)"}};
}

// Co-runs the group under the trials of policy auto's measured co-runs
// (runtime/corun/CoRunTrials.h) until they settle, as a program whose co-run
// recurs would: each trial is three co-runs of the group (the runtime's
// samples per kernel), its STP from the workloads' mean times over their
// profiles' times alone on every SM; splits in the runtime's steps
// (trialGranularity), at the original's occupancy; at most 60 co-runs.
void Harness::settleTrials(GroupRun &P) {
  std::vector<smc::CoRunKernel> Kernels;
  for (const SuiteWorkload *W : P.Members)
    Kernels.push_back({W->name(), &W->Profile});
  if (!smc::CoRunTrials::applies(Kernels, NumSms)) {
    P.Missing["smc-trials"] = "the workloads' profiles do not allow trials";
    return;
  }
  smc::CoRunTrials::Options O;
  O.NumSms = NumSms;
  O.Granularity = smc::trialGranularity(NumSms);
  smc::CoRunTrials Trials(Kernels, std::vector<unsigned>(P.size(), 1),
                          decideGroup(P.profiles(), NumSms, Opt.SplitStep), O);
  constexpr unsigned MaxCoRuns = 60;
  unsigned CoRuns = 0;
  try {
    while (!Trials.settled() && CoRuns++ < MaxCoRuns) {
      unsigned Trial = Trials.trial();
      const smc::CoRunDecision &D = Trials.decision();
      std::vector<double> Ms = runDecision(P, D);
      for (size_t I = 0; I < Ms.size(); ++I)
        Trials.record(Trial, I, Ms[I] / 1e3);
    }
  } catch (const std::exception &E) {
    P.Missing["smc-trials"] = E.what();
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
    return;
  }
  P.Trials = Trials.decision();
  json Tried = json::array();
  for (const smc::CoRunTrials::Trial &T : Trials.measured())
    Tried.push_back({{"decision", T.Decision.Reason},
                     {"shares", sharesJson(T.Decision.Shares)},
                     {"stp", T.Stp}});
  P.Config["smc-trials"] = {
      {"runs", P.Trials.Kind == smc::CoRunKind::Partition
                   ? "__smc variants on the settled shares"
                   : "the originals on plain streams, one per workload "
                     "(sharing)"},
      {"settled", Trials.settled()},
      {"co_runs", CoRuns},
      {"decision", P.Trials.Reason},
      {"shares", sharesJson(P.Trials.Shares)},
      {"trials", Tried}};
}

} // namespace smc::corun
