//===- CoRunBenchTest.cpp - Tests of the co-run harness's plan and report -===//
//
// The CUDA-free part of smc_corun_bench (bench/corun/CoRunPlan.h,
// CoRunReport.h): workload classes follow the documented rule, the default
// pairs cover every category and workload, pair and option parsing accept
// what the usage says and reject the rest, the oracle and green-context
// splits and the profile SM counts are the documented grids, repetitions
// target a time, STP/ANTT/makespan are computed as defined, records and the
// summary have the documented JSON layout, the oracle's STP bound and the
// scheduler bridge behave as stated.
//===----------------------------------------------------------------------===//
#include "CoRunPlan.h"
#include "CoRunReport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

using namespace smc;
using namespace smc::corun;
using nlohmann::json;

namespace {

TEST(CoRunPlan, ClassesFollowTheRidgePointRule) {
  EXPECT_EQ(classifiedWorkloads().size(), 23u);
  for (const ClassifiedWorkload &W : classifiedWorkloads()) {
    SCOPED_TRACE(W.Name);
    EXPECT_EQ(W.Class, W.OpsPerByte < 20 ? WorkloadClass::Memory
                                         : WorkloadClass::Compute);
    EXPECT_GT(W.H100RunMs, 0);
  }
  // One-chunk workloads cannot be confined by setStreamSMs.
  for (const char *Name : {"pf", "st", "hotspot"})
    EXPECT_EQ(findClassified(Name), nullptr);
  EXPECT_EQ(findClassified("tea")->length(), RunLength::Short);
  EXPECT_EQ(findClassified("spmv")->length(), RunLength::Medium);
  EXPECT_EQ(findClassified("syr2k")->length(), RunLength::Long);
}

TEST(CoRunPlan, CategoriesOfPairs) {
  EXPECT_EQ(categoriesOf({"spmv", "mm"}),
            std::vector<std::string>{"memory x compute"});
  EXPECT_EQ(categoriesOf({"mm", "spmv"}),
            std::vector<std::string>{"memory x compute"});
  EXPECT_EQ(categoriesOf({"spmv", "bs"}),
            std::vector<std::string>{"memory x memory"});
  EXPECT_EQ(categoriesOf({"nbody", "tea"}),
            (std::vector<std::string>{"compute x compute", "short x long"}));
  EXPECT_TRUE(categoriesOf({"spmv", "nothing"}).empty());
}

void expectCoverage(const std::vector<WorkloadPair> &Pairs, unsigned MinPairs,
                    unsigned MinPerCategory) {
  EXPECT_GE(Pairs.size(), MinPairs);
  std::map<std::string, unsigned> PerCategory;
  std::set<std::set<std::string>> Seen;
  for (const WorkloadPair &P : Pairs) {
    SCOPED_TRACE(P.name());
    EXPECT_NE(findClassified(P.First), nullptr);
    EXPECT_NE(findClassified(P.Second), nullptr);
    EXPECT_NE(P.First, P.Second);
    EXPECT_TRUE(Seen.insert({P.First, P.Second}).second) << "repeated";
    for (const std::string &C : categoriesOf(P))
      ++PerCategory[C];
  }
  for (const std::string &C : allCategories())
    EXPECT_GE(PerCategory[C], MinPerCategory) << C;
}

TEST(CoRunPlan, DefaultPairsCoverCategoriesAndWorkloads) {
  expectCoverage(defaultPairs(), 24, 6);
  std::set<std::string> Used;
  for (const WorkloadPair &P : defaultPairs())
    Used.insert({P.First, P.Second});
  for (const ClassifiedWorkload &W : classifiedWorkloads())
    EXPECT_TRUE(Used.count(W.Name)) << W.Name << " is in no pair";
}

TEST(CoRunPlan, QuickPairsCoverCategories) {
  expectCoverage(quickPairs(), 8, 2);
}

TEST(CoRunPlan, ParsePairs) {
  std::vector<WorkloadPair> Pairs;
  std::string Error;
  ASSERT_TRUE(parsePairs("spmv+mm,nn+reduce", Pairs, Error)) << Error;
  EXPECT_EQ(Pairs,
            (std::vector<WorkloadPair>{{"spmv", "mm"}, {"nn", "reduce"}}));
  EXPECT_EQ(Pairs[0].name(), "spmv+mm");
  for (const char *Bad : {"", "spmv", "spmv+", "spmv+mm+nn", "spmv+mm,",
                          "hotspot+mm", "mm+mm", "spmv mm"}) {
    SCOPED_TRACE(Bad);
    Pairs = {{"a", "b"}};
    EXPECT_FALSE(parsePairs(Bad, Pairs, Error));
    EXPECT_FALSE(Error.empty());
    EXPECT_EQ(Pairs.size(), 1u) << "unchanged on error";
  }
  parsePairs("hotspot+mm", Pairs, Error);
  EXPECT_NE(Error.find("'hotspot'"), std::string::npos) << Error;
}

bool parse(std::vector<std::string> Args, Options &O, std::string &Error) {
  return parseOptions(Args, O, Error);
}

TEST(CoRunPlan, DefaultOptions) {
  Options O;
  std::string Error;
  ASSERT_TRUE(parse({}, O, Error)) << Error;
  EXPECT_EQ(O.Pairs, defaultPairs());
  EXPECT_EQ(O.Modes, allModes());
  EXPECT_EQ(O.Rounds, 5u);
  EXPECT_EQ(O.SplitStep, 8u);
  EXPECT_EQ(O.Workers, (std::vector<unsigned>{0, 1, 2, 4}));
  EXPECT_EQ(O.SweepSeconds, 6);
  EXPECT_EQ(O.OutFile, "corun.json");
  EXPECT_EQ(O.Check, CheckPolicy::FirstUse);
  EXPECT_FALSE(O.Quick);
  EXPECT_FALSE(O.ListOnly);
}

TEST(CoRunPlan, QuickChangesOnlyWhatIsNotGiven) {
  Options O;
  std::string Error;
  ASSERT_TRUE(parse({"--split-step=8", "--quick"}, O, Error)) << Error;
  EXPECT_TRUE(O.Quick);
  EXPECT_EQ(O.Pairs, quickPairs());
  EXPECT_EQ(O.Rounds, 3u);
  EXPECT_EQ(O.SplitStep, 8u);
  EXPECT_EQ(O.Workers, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(O.SweepSeconds, 3);
  ASSERT_TRUE(parse({"--quick", "--pairs=mm+mriq", "--rounds=7",
                     "--workers=4,2,2", "--sweep-s=1.5"},
                    O, Error))
      << Error;
  EXPECT_EQ(O.Pairs, (std::vector<WorkloadPair>{{"mm", "mriq"}}));
  EXPECT_EQ(O.Rounds, 7u);
  EXPECT_EQ(O.SplitStep, 16u);
  EXPECT_EQ(O.Workers, (std::vector<unsigned>{2, 4}));
  EXPECT_EQ(O.SweepSeconds, 1.5);
}

TEST(CoRunPlan, OptionValues) {
  Options O;
  std::string Error;
  ASSERT_TRUE(
      parse({"--modes=smc-oracle,streams", "--out=x.json", "--target-ms=3.5",
             "--check=pair", "--budget-s=60", "--list"},
            O, Error))
      << Error;
  // Modes are kept in the order records are written.
  EXPECT_EQ(O.Modes, (std::vector<std::string>{"streams", "smc-oracle"}));
  EXPECT_EQ(O.OutFile, "x.json");
  EXPECT_EQ(O.TargetMs, 3.5);
  EXPECT_EQ(O.Check, CheckPolicy::EveryPair);
  EXPECT_EQ(O.BudgetSeconds, 60);
  EXPECT_TRUE(O.ListOnly);
}

TEST(CoRunPlan, BadOptionsAreRejected) {
  for (const char *Bad :
       {"--modes=streams,mps", "--rounds=0", "--rounds=x", "--target-ms=-1",
        "--split-step=0", "--workers=1,x", "--workers=65", "--check=all",
        "--budget-s=0", "--out=", "--pairs=mm", "--quick=1", "--bogus",
        "--rounds", "positional"}) {
    SCOPED_TRACE(Bad);
    Options O;
    std::string Error;
    EXPECT_FALSE(parse({Bad}, O, Error));
    EXPECT_NE(Error.find(Bad), std::string::npos) << Error;
  }
  Options O;
  std::string Error;
  EXPECT_FALSE(parse({"--help"}, O, Error));
  EXPECT_EQ(Error, "help");
  EXPECT_NE(usage().find("--pairs=a+b,c+d"), std::string::npos);
}

TEST(CoRunPlan, SplitGrids) {
  std::vector<unsigned> Eights = splitPoints(132, 8);
  ASSERT_EQ(Eights.size(), 15u);
  EXPECT_EQ(Eights.front(), 8u);
  EXPECT_EQ(Eights.back(), 120u); // the second keeps 12
  EXPECT_EQ(splitPoints(132, 16),
            (std::vector<unsigned>{16, 32, 48, 64, 80, 96, 112}));
  EXPECT_TRUE(splitPoints(12, 8).empty());
  EXPECT_TRUE(splitPoints(132, 0).empty());

  std::vector<SplitConfig> Configs = oracleConfigs(132, 8, {0, 1, 2, 4});
  EXPECT_EQ(Configs.size(), 15u * 16u);
  EXPECT_EQ(Configs[0], (SplitConfig{8, 0, 0}));
  EXPECT_EQ(Configs[1], (SplitConfig{8, 0, 1}));
  EXPECT_EQ(Configs.back(), (SplitConfig{120, 4, 4}));

  std::vector<KernelShare> Shares = sharesOf({40, 2, 0}, 132);
  EXPECT_EQ(Shares[0], (KernelShare{0, 40, 2}));
  EXPECT_EQ(Shares[1], (KernelShare{40, 92, 0}));
}

TEST(CoRunPlan, GreenRequestsFollowTheDriversGranularity) {
  EXPECT_EQ(greenRequests(132, 8, 8, 8), splitPoints(132, 8));
  // Steps finer than the alignment round up, without repeats.
  EXPECT_EQ(greenRequests(40, 4, 8, 8), (std::vector<unsigned>{8, 16, 24, 32}));
  // Both contexts need the minimum partition.
  EXPECT_EQ(greenRequests(40, 8, 16, 8), (std::vector<unsigned>{16, 24}));
}

TEST(CoRunPlan, ProfileSmCountsAndReps) {
  EXPECT_EQ(profileSmCounts(132, false),
            (std::vector<unsigned>{8, 16, 24, 32, 48, 64, 80, 96, 112, 132}));
  EXPECT_EQ(profileSmCounts(132, true),
            (std::vector<unsigned>{16, 32, 64, 96, 132}));
  EXPECT_EQ(profileSmCounts(20, false), (std::vector<unsigned>{8, 16, 20}));
  EXPECT_EQ(repsFor(0.5, 5), 10u);
  EXPECT_EQ(repsFor(2.11, 5), 2u);
  EXPECT_EQ(repsFor(8.85, 5), 1u);
  EXPECT_EQ(repsFor(0.001, 5, 100), 100u);
  EXPECT_EQ(repsFor(0, 5), 1u);
  EXPECT_EQ(smRange(3, 4), (std::vector<unsigned>{3, 4, 5, 6}));
}

TEST(CoRunReport, Median) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 3);
  EXPECT_EQ(median({NAN, 5, INFINITY, 1, 3}), 3);
  EXPECT_EQ(median({}), 0);
  EXPECT_EQ(median({NAN}), 0);
}

TEST(CoRunReport, Metrics) {
  // Serial: the second waits for the first.
  CoRunMetrics Serial = coRunMetrics({5, 5}, {5, 10});
  EXPECT_DOUBLE_EQ(Serial.Stp, 1.5);
  EXPECT_DOUBLE_EQ(Serial.Antt, 1.5);
  EXPECT_DOUBLE_EQ(Serial.MakespanMs, 10);
  EXPECT_EQ(Serial.Slowdowns, (std::vector<double>{1, 2}));
  CoRunMetrics Ideal = coRunMetrics({4, 6}, {4, 6});
  EXPECT_DOUBLE_EQ(Ideal.Stp, 2);
  EXPECT_DOUBLE_EQ(Ideal.Antt, 1);
  for (auto [Alone, CoRun] :
       std::vector<std::pair<std::vector<double>, std::vector<double>>>{
           {{5}, {5, 5}}, {{}, {}}, {{5, 0}, {5, 5}}, {{5, 5}, {5, NAN}}}) {
    CoRunMetrics M = coRunMetrics(Alone, CoRun);
    EXPECT_EQ(M.Stp, 0);
    EXPECT_TRUE(M.Slowdowns.empty());
  }
}

ModeRecord record(const std::string &Pair, const std::string &Mode,
                  std::vector<double> SamplesA, std::vector<double> SamplesB) {
  ModeRecord R;
  R.Pair = Pair;
  R.Mode = Mode;
  R.Categories = {"memory x compute"};
  R.Kernels = {{"a", 10, 2.0, std::move(SamplesA)},
               {"b", 2, 4.0, std::move(SamplesB)}};
  return R;
}

TEST(CoRunReport, RecordJson) {
  ModeRecord R = record("a+b", "streams", {3, 2.5, NAN}, {4, 5, 6});
  R.Config = {{"runs", "x"}};
  R.Checks = {{"a", true, "ok"}, {"b", true, "ok"}};
  json J = json::parse(toJson(R).dump()); // survives serialization
  EXPECT_EQ(J["name"], "a+b/streams");
  EXPECT_EQ(J["run_type"], "aggregate");
  EXPECT_EQ(J["aggregate_name"], "median");
  EXPECT_EQ(J["status"], "ok");
  EXPECT_EQ(J["time_unit"], "ms");
  // Medians: a 3 (2.5 and 3, NaN dropped), b 5.
  EXPECT_DOUBLE_EQ(J["kernels"][0]["corun_ms"], 3);
  EXPECT_DOUBLE_EQ(J["kernels"][1]["corun_ms"], 5);
  EXPECT_DOUBLE_EQ(J["stp"], 2.0 / 3 + 4.0 / 5);
  EXPECT_DOUBLE_EQ(J["antt"], (1.5 + 1.25) / 2);
  EXPECT_DOUBLE_EQ(J["makespan_ms"], 5);
  EXPECT_DOUBLE_EQ(J["real_time"], 5);
  EXPECT_DOUBLE_EQ(J["kernels"][0]["slowdown"], 1.5);
  EXPECT_TRUE(J["kernels"][0]["corun_samples_ms"][2].is_null());
  ASSERT_EQ(J["stp_samples"].size(), 3u);
  EXPECT_DOUBLE_EQ(J["stp_samples"][0], 2.0 / 3 + 1);
  EXPECT_TRUE(J["stp_samples"][2].is_null());
  EXPECT_EQ(J["config"]["runs"], "x");
  EXPECT_EQ(J["checks"].size(), 2u);
  EXPECT_TRUE(R.checksPassed());
  R.Checks[1].Ok = false;
  EXPECT_FALSE(R.checksPassed());
}

TEST(CoRunReport, UnavailableRecordsHaveNoNumbers) {
  ModeRecord R = record("a+b", "green", {}, {});
  R.Status = "unavailable";
  R.Note = "no green contexts";
  json J = toJson(R);
  EXPECT_EQ(J["status"], "unavailable");
  EXPECT_EQ(J["note"], "no green contexts");
  for (const char *Key : {"stp", "antt", "makespan_ms", "real_time"})
    EXPECT_FALSE(J.contains(Key)) << Key;
  EXPECT_EQ(R.metrics().Stp, 0);
}

TEST(CoRunReport, SummaryComparesWithStreams) {
  std::vector<ModeRecord> Records = {
      record("p+q", "streams", {4}, {8}),     // STP 1.0, ANTT 2
      record("p+q", "smc-oracle", {2}, {8}),  // STP 1.5, ANTT 1.5
      record("r+s", "streams", {2}, {8}),     // STP 1.5, ANTT 1.5
      record("r+s", "smc-oracle", {4}, {4}),  // STP 1.5, ANTT 1.5
      record("t+u", "smc-oracle", {2}, {4})}; // STP 2, no streams record
  ModeRecord Missing = record("r+s", "green", {}, {});
  Missing.Status = "unavailable";
  Records.push_back(Missing);
  json S = summarize(Records, {"streams", "green", "smc-oracle"});
  EXPECT_EQ(S["streams"]["pairs"], 2);
  EXPECT_DOUBLE_EQ(S["streams"]["mean_stp"], 1.25);
  EXPECT_DOUBLE_EQ(S["streams"]["stp_vs_streams_mean"], 1);
  EXPECT_EQ(S["green"]["pairs"], 0);
  EXPECT_FALSE(S["green"].contains("mean_stp"));
  const json &O = S["smc-oracle"];
  EXPECT_EQ(O["pairs"], 3);
  EXPECT_DOUBLE_EQ(O["mean_stp"], (1.5 + 1.5 + 2) / 3);
  EXPECT_DOUBLE_EQ(O["min_stp"], 1.5);
  EXPECT_EQ(O["min_stp_pair"], "p+q");
  EXPECT_EQ(O["pairs_vs_streams"], 2);
  EXPECT_DOUBLE_EQ(O["stp_vs_streams_mean"], (1.5 + 1.0) / 2);
  EXPECT_DOUBLE_EQ(O["stp_vs_streams_min"], 1.0);
  EXPECT_EQ(O["stp_vs_streams_min_pair"], "r+s");
  EXPECT_DOUBLE_EQ(O["antt_vs_streams"], (2 + 1.5) / (1.5 + 1.5));
}

// Time on s SMs: Alone * 132 / s (perfect scaling), with Workers.
KernelProfile scaling(const std::string &Name, double AloneS,
                      unsigned Workers = 0) {
  KernelProfile P(Name, "H100", 132);
  for (unsigned Sms : {16u, 32u, 64u, 132u})
    EXPECT_TRUE(P.addSample({Sms, Workers, AloneS * 132 / Sms}));
  return P;
}

TEST(CoRunReport, StpBoundUsesTheNextProfiledShare) {
  KernelProfile A = scaling("a", 0.004), B = scaling("b", 0.002);
  // 40 SMs: no faster than on 64; 92: no faster than on 132.
  double Bound = stpUpperBound({&A, &B}, {4, 2}, sharesOf({40, 0, 0}, 132));
  EXPECT_DOUBLE_EQ(Bound, 64.0 / 132 + 1);
  // No point for the workers, or none at or above the share: no bound.
  EXPECT_TRUE(
      std::isinf(stpUpperBound({&A, &B}, {4, 2}, sharesOf({40, 2, 0}, 132))));
  KernelProfile Small("c", "H100", 132);
  Small.addSample({16, 0, 0.01});
  EXPECT_TRUE(std::isinf(
      stpUpperBound({&Small, &B}, {4, 2}, sharesOf({40, 0, 0}, 132))));
  EXPECT_TRUE(std::isinf(stpUpperBound({&A}, {4, 2}, {})));

  EXPECT_TRUE(mayBeat(1.2, 1.2));
  EXPECT_TRUE(mayBeat(1.15, 1.2)); // within the 5% slack
  EXPECT_FALSE(mayBeat(1.1, 1.2));
  EXPECT_TRUE(mayBeat(INFINITY, 2));
  EXPECT_TRUE(mayBeat(0.5, 0)); // nothing measured yet
}

TEST(CoRunReport, SchedulerDecisionForAPair) {
  // Two perfectly scaling kernels gain nothing from a split: shared.
  KernelProfile A = scaling("a", 0.004), B = scaling("b", 0.004);
  CoRunDecision Shared = decidePair(A, B, 132, 8);
  EXPECT_EQ(Shared.Kind, CoRunKind::Shared);
  json J = decisionJson(Shared, {4, 4});
  EXPECT_EQ(J["kind"], "shared");
  EXPECT_FALSE(J["reason"].get<std::string>().empty());

  // A kernel that saturates at 32 SMs next to a perfectly scaling one: a
  // split, in whole groups of 8 SMs, with predictions.
  KernelProfile Sat("sat", "H100", 132);
  for (unsigned Sms : {8u, 16u, 32u, 132u})
    Sat.addSample({Sms, 0, Sms >= 32 ? 0.004 : 0.004 * 32 / Sms});
  CoRunDecision Split = decidePair(Sat, B, 132, 8);
  ASSERT_EQ(Split.Kind, CoRunKind::Partition) << Split.Reason;
  ASSERT_EQ(Split.Shares.size(), 2u);
  EXPECT_EQ(Split.Shares[0].NumSms % 8, 0u);
  EXPECT_EQ(Split.Shares[1].FirstSm, Split.Shares[0].NumSms);
  json P = decisionJson(Split, {4, 4});
  EXPECT_EQ(P["kind"], "partition");
  EXPECT_EQ(P["shares"].size(), 2u);
  ASSERT_EQ(P["predicted_ms"].size(), 2u);
  EXPECT_DOUBLE_EQ(P["predicted_stp_vs_original"],
                   4 / P["predicted_ms"][0].get<double>() +
                       4 / P["predicted_ms"][1].get<double>());
}

} // namespace
