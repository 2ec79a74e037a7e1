//===- CoRunReport.cpp - Co-run metrics and the harness's JSON ------------===//
//
// See CoRunReport.h.
//===----------------------------------------------------------------------===//
#include "CoRunReport.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

namespace smc::corun {

using nlohmann::json;

double median(std::vector<double> Values) {
  Values.erase(std::remove_if(Values.begin(), Values.end(),
                              [](double V) { return !std::isfinite(V); }),
               Values.end());
  if (Values.empty())
    return 0;
  std::sort(Values.begin(), Values.end());
  return Values[Values.size() / 2];
}

CoRunMetrics coRunMetrics(const std::vector<double> &AloneMs,
                          const std::vector<double> &CoRunMs) {
  CoRunMetrics M;
  if (AloneMs.empty() || AloneMs.size() != CoRunMs.size())
    return M;
  for (size_t I = 0; I < AloneMs.size(); ++I)
    if (!(AloneMs[I] > 0) || !(CoRunMs[I] > 0) || !std::isfinite(CoRunMs[I]))
      return M;
  for (size_t I = 0; I < AloneMs.size(); ++I) {
    double Slowdown = CoRunMs[I] / AloneMs[I];
    M.Slowdowns.push_back(Slowdown);
    M.Stp += 1 / Slowdown;
    M.Antt += Slowdown;
    M.MakespanMs = std::max(M.MakespanMs, CoRunMs[I]);
  }
  M.Antt /= double(AloneMs.size());
  return M;
}

CoRunMetrics ModeRecord::metrics() const {
  if (Status != "ok")
    return {};
  std::vector<double> Alone, CoRun;
  for (const KernelRecord &K : Kernels) {
    Alone.push_back(K.AloneMs);
    CoRun.push_back(median(K.CoRunSamplesMs));
  }
  return coRunMetrics(Alone, CoRun);
}

std::vector<std::string> ModeRecord::workloads() const {
  std::vector<std::string> Names;
  for (const KernelRecord &K : Kernels)
    Names.push_back(K.Workload);
  return Names;
}

bool ModeRecord::checksPassed() const {
  return std::all_of(Checks.begin(), Checks.end(),
                     [](const CheckRecord &C) { return C.Ok; });
}

namespace {

// JSON has no NaN: a sample that was not measured is null.
json msOrNull(double Ms) { return std::isfinite(Ms) ? json(Ms) : json(); }

} // namespace

json toJson(const ModeRecord &Record) {
  json J;
  J["name"] = Record.Group + "/" + Record.Mode;
  J["run_name"] = J["name"];
  J["run_type"] = "aggregate";
  J["aggregate_name"] = "median";
  J["pair"] = Record.Group;
  J["workloads"] = Record.workloads();
  J["group_size"] = Record.Kernels.size();
  J["mode"] = Record.Mode;
  J["categories"] = Record.Categories;
  J["status"] = Record.Status;
  if (!Record.Note.empty())
    J["note"] = Record.Note;
  J["config"] = Record.Config;
  CoRunMetrics M = Record.metrics();
  if (Record.Status == "ok") {
    J["real_time"] = M.MakespanMs;
    J["time_unit"] = "ms";
    J["stp"] = M.Stp;
    J["antt"] = M.Antt;
    J["makespan_ms"] = M.MakespanMs;
  }
  J["kernels"] = json::array();
  size_t Rounds = 0;
  for (size_t I = 0; I < Record.Kernels.size(); ++I) {
    const KernelRecord &K = Record.Kernels[I];
    json Kernel = {
        {"workload", K.Workload}, {"reps", K.Reps}, {"alone_ms", K.AloneMs}};
    if (Record.Status == "ok") {
      Kernel["corun_ms"] = median(K.CoRunSamplesMs);
      if (I < M.Slowdowns.size())
        Kernel["slowdown"] = M.Slowdowns[I];
    }
    Kernel["corun_samples_ms"] = json::array();
    for (double Ms : K.CoRunSamplesMs)
      Kernel["corun_samples_ms"].push_back(msOrNull(Ms));
    Rounds = std::max(Rounds, K.CoRunSamplesMs.size());
    J["kernels"].push_back(Kernel);
  }
  if (Record.Status == "ok") {
    J["stp_samples"] = json::array();
    for (size_t R = 0; R < Rounds; ++R) {
      std::vector<double> Alone, CoRun;
      for (const KernelRecord &K : Record.Kernels) {
        Alone.push_back(K.AloneMs);
        CoRun.push_back(R < K.CoRunSamplesMs.size() ? K.CoRunSamplesMs[R]
                                                    : NAN);
      }
      CoRunMetrics S = coRunMetrics(Alone, CoRun);
      J["stp_samples"].push_back(S.Stp > 0 ? json(S.Stp) : json());
    }
  }
  J["checks"] = json::array();
  for (const CheckRecord &C : Record.Checks)
    J["checks"].push_back(
        {{"workload", C.Workload}, {"ok", C.Ok}, {"summary", C.Summary}});
  return J;
}

namespace {

// One mode's summary over the records Take accepts (see summarize).
json summarizeMode(const std::vector<ModeRecord> &Records,
                   const std::string &Mode,
                   const std::map<std::string, CoRunMetrics> &Streams,
                   const std::function<bool(const ModeRecord &)> &Take) {
  unsigned Groups = 0, Compared = 0;
  double SumStp = 0, SumAntt = 0, MinStp = 0, SumRatio = 0, MinRatio = 0;
  double SumAnttHere = 0, SumAnttStreams = 0;
  std::string MinGroup, MinRatioGroup;
  for (const ModeRecord &R : Records) {
    if (R.Mode != Mode || R.Status != "ok" || !Take(R))
      continue;
    CoRunMetrics M = R.metrics();
    if (!(M.Stp > 0))
      continue;
    ++Groups;
    SumStp += M.Stp;
    SumAntt += M.Antt;
    if (MinGroup.empty() || M.Stp < MinStp) {
      MinStp = M.Stp;
      MinGroup = R.Group;
    }
    auto S = Streams.find(R.Group);
    if (S == Streams.end() || !(S->second.Stp > 0))
      continue;
    ++Compared;
    double Ratio = M.Stp / S->second.Stp;
    SumRatio += Ratio;
    SumAnttHere += M.Antt;
    SumAnttStreams += S->second.Antt;
    if (MinRatioGroup.empty() || Ratio < MinRatio) {
      MinRatio = Ratio;
      MinRatioGroup = R.Group;
    }
  }
  json S = {{"pairs", Groups}};
  if (Groups > 0) {
    S["mean_stp"] = SumStp / Groups;
    S["mean_antt"] = SumAntt / Groups;
    S["min_stp"] = MinStp;
    S["min_stp_pair"] = MinGroup;
  }
  if (Compared > 0) {
    S["pairs_vs_streams"] = Compared;
    S["stp_vs_streams_mean"] = SumRatio / Compared;
    S["stp_vs_streams_min"] = MinRatio;
    S["stp_vs_streams_min_pair"] = MinRatioGroup;
    S["antt_vs_streams"] = SumAnttStreams / SumAnttHere;
  }
  return S;
}

} // namespace

json summarize(const std::vector<ModeRecord> &Records,
               const std::vector<std::string> &Modes) {
  std::map<std::string, CoRunMetrics> Streams; // by group
  std::set<size_t> Sizes;
  for (const ModeRecord &R : Records) {
    if (R.Mode == "streams" && R.Status == "ok")
      Streams[R.Group] = R.metrics();
    Sizes.insert(R.Kernels.size());
  }
  json Summary = json::object();
  for (const std::string &Mode : Modes) {
    json S = summarizeMode(Records, Mode, Streams,
                           [](const ModeRecord &) { return true; });
    S["by_size"] = json::object();
    for (size_t Size : Sizes)
      S["by_size"][std::to_string(Size)] =
          summarizeMode(Records, Mode, Streams, [&](const ModeRecord &R) {
            return R.Kernels.size() == Size;
          });
    Summary[Mode] = S;
  }
  return Summary;
}

std::vector<KernelShare> sharesOf(const SplitConfig &Config, unsigned NumSms) {
  std::vector<KernelShare> Shares;
  unsigned First = 0;
  for (size_t I = 0; I < Config.Sms.size(); ++I) {
    unsigned Sms = I + 1 == Config.Sms.size()
                       ? NumSms - First
                       : std::min(Config.Sms[I], NumSms - First);
    unsigned Workers = I < Config.Workers.size() ? Config.Workers[I] : 0;
    Shares.push_back({First, Sms, Workers});
    First += Sms;
  }
  return Shares;
}

json sharesJson(const std::vector<KernelShare> &Shares) {
  json J = json::array();
  for (const KernelShare &S : Shares)
    J.push_back({{"first_sm", S.FirstSm},
                 {"sms", S.NumSms},
                 {"workers_per_sm", S.WorkersPerSm}});
  return J;
}

double stpUpperBound(const std::vector<const KernelProfile *> &Profiles,
                     const std::vector<double> &AloneMs,
                     const std::vector<KernelShare> &Shares) {
  if (Profiles.size() != Shares.size() || AloneMs.size() != Shares.size())
    return INFINITY;
  double Bound = 0;
  for (size_t I = 0; I < Shares.size(); ++I) {
    const ScalingPoint *Next = nullptr;
    for (const ScalingPoint &P : Profiles[I]->points())
      if (P.WorkersPerSm == Shares[I].WorkersPerSm &&
          P.Sms >= Shares[I].NumSms && (!Next || P.Sms < Next->Sms))
        Next = &P;
    if (!Next)
      return INFINITY;
    Bound += AloneMs[I] / (Next->Seconds * 1e3);
  }
  return Bound;
}

bool mayBeat(double Bound, double Best, double Slack) {
  return !(Bound < Best * (1 - Slack));
}

CoRunDecision decideGroup(const std::vector<const KernelProfile *> &Profiles,
                          unsigned NumSms, unsigned Granularity) {
  CoRunOptions Options;
  Options.NumSms = NumSms;
  Options.Granularity = Granularity;
  std::vector<CoRunKernel> Kernels;
  for (const KernelProfile *P : Profiles)
    Kernels.push_back({P ? P->name() : std::string(), P});
  return decide(Kernels, Options);
}

json decisionJson(const CoRunDecision &Decision,
                  const std::vector<double> &OriginalAloneMs) {
  json J;
  J["kind"] = Decision.Kind == CoRunKind::Partition ? "partition" : "shared";
  J["shares"] = sharesJson(Decision.Shares);
  J["reason"] = Decision.Reason;
  J["model_stp"] = Decision.PredictedStp;
  J["model_antt"] = Decision.PredictedAntt;
  J["model_shared_stp"] = Decision.SharedStp;
  J["model_shared_antt"] = Decision.SharedAntt;
  std::vector<double> PredictedMs;
  for (double Seconds : Decision.PredictedSeconds)
    PredictedMs.push_back(Seconds * 1e3);
  J["predicted_ms"] = PredictedMs;
  CoRunMetrics M = coRunMetrics(OriginalAloneMs, PredictedMs);
  if (M.Stp > 0) {
    J["predicted_stp_vs_original"] = M.Stp;
    J["predicted_antt_vs_original"] = M.Antt;
  }
  return J;
}

} // namespace smc::corun
