//===- CoRunReportTest.cpp - Tests of the co-run harness's report ---------===//
//
// The metrics and JSON of smc_corun_bench (bench/corun/CoRunReport.h):
// STP/ANTT/makespan are computed as defined for pairs and triples, records
// and the summary (by group size too) have the documented JSON layout, the
// oracle's STP bound and the scheduler bridge behave as stated for 2 and 3
// kernels.
//===----------------------------------------------------------------------===//
#include "CoRunReport.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace smc;
using namespace smc::corun;
using nlohmann::json;

namespace {

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

TEST(CoRunReport, MetricsOfTriples) {
  // Serial: each waits for those before it.  STP sums over the three,
  // ANTT is the mean of their slowdowns.
  CoRunMetrics Serial = coRunMetrics({5, 5, 5}, {5, 10, 15});
  EXPECT_DOUBLE_EQ(Serial.Stp, 1 + 0.5 + 1.0 / 3);
  EXPECT_DOUBLE_EQ(Serial.Antt, 2);
  EXPECT_DOUBLE_EQ(Serial.MakespanMs, 15);
  EXPECT_EQ(Serial.Slowdowns, (std::vector<double>{1, 2, 3}));
  CoRunMetrics Ideal = coRunMetrics({4, 6, 2}, {4, 6, 2});
  EXPECT_DOUBLE_EQ(Ideal.Stp, 3);
  EXPECT_DOUBLE_EQ(Ideal.Antt, 1);
  EXPECT_EQ(coRunMetrics({4, 6, 2}, {4, 6}).Stp, 0);
  EXPECT_EQ(coRunMetrics({4, 6, 2}, {4, 6, NAN}).Stp, 0);
}

ModeRecord record(const std::string &Pair, const std::string &Mode,
                  std::vector<double> SamplesA, std::vector<double> SamplesB) {
  ModeRecord R;
  R.Group = Pair;
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

TEST(CoRunReport, RecordJsonOfATriple) {
  ModeRecord R;
  R.Group = "a+b+c";
  R.Mode = "serial";
  R.Categories = {"memory x compute", "short x long"};
  R.Kernels = {
      {"a", 1, 2.0, {2, 2}}, {"b", 1, 2.0, {4, 4}}, {"c", 1, 4.0, {8, 8}}};
  EXPECT_EQ(R.workloads(), (std::vector<std::string>{"a", "b", "c"}));
  json J = json::parse(toJson(R).dump());
  EXPECT_EQ(J["name"], "a+b+c/serial");
  EXPECT_EQ(J["pair"], "a+b+c"); // the field results of pairs have
  EXPECT_EQ(J["workloads"], (json{"a", "b", "c"}));
  EXPECT_EQ(J["group_size"], 3);
  ASSERT_EQ(J["kernels"].size(), 3u);
  EXPECT_DOUBLE_EQ(J["kernels"][2]["slowdown"], 2);
  EXPECT_DOUBLE_EQ(J["stp"], 1 + 0.5 + 0.5);
  EXPECT_DOUBLE_EQ(J["antt"], (1 + 2 + 2) / 3.0);
  EXPECT_DOUBLE_EQ(J["makespan_ms"], 8);
  ASSERT_EQ(J["stp_samples"].size(), 2u);
  EXPECT_DOUBLE_EQ(J["stp_samples"][1], 2);
  // A pair's record names its two workloads the same way.
  json P = toJson(record("a+b", "streams", {2}, {4}));
  EXPECT_EQ(P["workloads"], (json{"a", "b"}));
  EXPECT_EQ(P["group_size"], 2);
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
  // Only pairs: by_size has them alone, the same as the whole.
  ASSERT_TRUE(O.contains("by_size"));
  EXPECT_EQ(O["by_size"].size(), 1u);
  json WithoutBySize = O;
  WithoutBySize.erase("by_size");
  EXPECT_EQ(O["by_size"]["2"], WithoutBySize);
}

// A record of three kernels a, b, c alone 2, 4, 4 ms.
ModeRecord record3(const std::string &Group, const std::string &Mode, double A,
                   double B, double C) {
  ModeRecord R;
  R.Group = Group;
  R.Mode = Mode;
  R.Kernels = {{"a", 1, 2.0, {A}}, {"b", 1, 4.0, {B}}, {"c", 1, 4.0, {C}}};
  return R;
}

TEST(CoRunReport, SummaryBySize) {
  std::vector<ModeRecord> Records = {
      record("p+q", "streams", {4}, {8}),       // STP 1.0
      record("p+q", "smc-oracle", {2}, {8}),    // STP 1.5
      record3("x+y+z", "streams", 4, 8, 8),     // STP 1.5, ANTT 2
      record3("x+y+z", "smc-oracle", 2, 8, 4),  // STP 2.5, ANTT 4/3
      record3("u+v+w", "smc-oracle", 2, 4, 4)}; // STP 3, no streams
  json S = summarize(Records, {"streams", "smc-oracle"});
  const json &O = S["smc-oracle"];
  // The whole: every group, whatever its size.
  EXPECT_EQ(O["pairs"], 3);
  EXPECT_DOUBLE_EQ(O["mean_stp"], (1.5 + 2.5 + 3) / 3);
  EXPECT_EQ(O["pairs_vs_streams"], 2);
  // By size: pairs and triples apart.
  const json &Pairs = O["by_size"]["2"];
  const json &Triples = O["by_size"]["3"];
  EXPECT_EQ(Pairs["pairs"], 1);
  EXPECT_DOUBLE_EQ(Pairs["mean_stp"], 1.5);
  EXPECT_DOUBLE_EQ(Pairs["stp_vs_streams_mean"], 1.5);
  EXPECT_EQ(Triples["pairs"], 2);
  EXPECT_DOUBLE_EQ(Triples["mean_stp"], (2.5 + 3) / 2);
  EXPECT_DOUBLE_EQ(Triples["min_stp"], 2.5);
  EXPECT_EQ(Triples["min_stp_pair"], "x+y+z");
  EXPECT_EQ(Triples["pairs_vs_streams"], 1);
  EXPECT_DOUBLE_EQ(Triples["stp_vs_streams_mean"], 2.5 / 1.5);
  EXPECT_DOUBLE_EQ(Triples["antt_vs_streams"], 2 / (4.0 / 3));
  EXPECT_EQ(S["streams"]["by_size"]["3"]["pairs"], 1);
  EXPECT_DOUBLE_EQ(S["streams"]["by_size"]["3"]["mean_antt"], 2);
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
  double Bound =
      stpUpperBound({&A, &B}, {4, 2}, sharesOf({{40, 92}, {0, 0}}, 132));
  EXPECT_DOUBLE_EQ(Bound, 64.0 / 132 + 1);
  // No point for the workers, or none at or above the share: no bound.
  EXPECT_TRUE(std::isinf(
      stpUpperBound({&A, &B}, {4, 2}, sharesOf({{40, 92}, {2, 0}}, 132))));
  KernelProfile Small("c", "H100", 132);
  Small.addSample({16, 0, 0.01});
  EXPECT_TRUE(std::isinf(
      stpUpperBound({&Small, &B}, {4, 2}, sharesOf({{40, 92}, {0, 0}}, 132))));
  // Three kernels on 16, 32 and 84 SMs: no faster than on 16, 32, 132.
  KernelProfile C = scaling("c", 0.001);
  EXPECT_DOUBLE_EQ(stpUpperBound({&A, &B, &C}, {4, 2, 1},
                                 sharesOf({{16, 32, 84}, {0, 0, 0}}, 132)),
                   16.0 / 132 + 32.0 / 132 + 1);
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
  CoRunDecision Shared = decideGroup({&A, &B}, 132, 8);
  EXPECT_EQ(Shared.Kind, CoRunKind::Shared);
  json J = decisionJson(Shared, {4, 4});
  EXPECT_EQ(J["kind"], "shared");
  EXPECT_FALSE(J["reason"].get<std::string>().empty());

  // A kernel that saturates at 32 SMs next to a perfectly scaling one: a
  // split, in whole groups of 8 SMs, with predictions.
  KernelProfile Sat("sat", "H100", 132);
  for (unsigned Sms : {8u, 16u, 32u, 132u})
    Sat.addSample({Sms, 0, Sms >= 32 ? 0.004 : 0.004 * 32 / Sms});
  CoRunDecision Split = decideGroup({&Sat, &B}, 132, 8);
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

TEST(CoRunReport, SchedulerDecisionForATriple) {
  // Three perfectly scaling kernels: no split beats sharing.
  KernelProfile A = scaling("a", 0.004), B = scaling("b", 0.004),
                C = scaling("c", 0.002);
  CoRunDecision Shared = decideGroup({&A, &B, &C}, 132, 8);
  EXPECT_EQ(Shared.Kind, CoRunKind::Shared) << Shared.Reason;
  ASSERT_EQ(Shared.Shares.size(), 3u);
  for (const KernelShare &S : Shared.Shares)
    EXPECT_EQ(S.NumSms, 132u);

  // Two kernels that saturate at 32 SMs beside a perfectly scaling one: a
  // split of the three, contiguous, in whole groups of 8 SMs, the
  // saturating ones on no more than they use.
  KernelProfile Sat1("sat1", "H100", 132), Sat2("sat2", "H100", 132);
  for (KernelProfile *Sat : {&Sat1, &Sat2})
    for (unsigned Sms : {8u, 16u, 32u, 132u})
      Sat->addSample({Sms, 0, Sms >= 32 ? 0.004 : 0.004 * 32 / Sms});
  CoRunDecision Split = decideGroup({&Sat1, &B, &Sat2}, 132, 8);
  ASSERT_EQ(Split.Kind, CoRunKind::Partition) << Split.Reason;
  ASSERT_EQ(Split.Shares.size(), 3u);
  unsigned Next = 0;
  for (const KernelShare &S : Split.Shares) {
    EXPECT_EQ(S.FirstSm, Next);
    EXPECT_EQ(S.NumSms % 8, 0u);
    EXPECT_GE(S.NumSms, 8u);
    Next += S.NumSms;
  }
  EXPECT_LE(Next, 132u);
  EXPECT_LE(Split.Shares[0].NumSms, 32u);
  EXPECT_LE(Split.Shares[2].NumSms, 32u);
  EXPECT_GT(Split.Shares[1].NumSms, 32u);
  json P = decisionJson(Split, {4, 4, 4});
  ASSERT_EQ(P["predicted_ms"].size(), 3u);
  EXPECT_EQ(P["shares"].size(), 3u);
  EXPECT_DOUBLE_EQ(P["predicted_stp_vs_original"],
                   4 / P["predicted_ms"][0].get<double>() +
                       4 / P["predicted_ms"][1].get<double>() +
                       4 / P["predicted_ms"][2].get<double>());
}

} // namespace
