//===- CoRunBenchTest.cpp - Tests of the co-run harness's plan and report -===//
//
// The CUDA-free part of smc_corun_bench (bench/corun/CoRunPlan.h,
// CoRunReport.h): workload classes follow the documented rule, the default
// pairs and triples cover every category and workload they claim, group
// and option parsing (--pairs, --triples) accept what the usage says and
// reject the rest, the N-way oracle and green-context splits and the
// profile SM counts are the documented grids, repetitions target a time,
// STP/ANTT/makespan are computed as defined for pairs and triples, records
// and the summary (by group size too) have the documented JSON layout, the
// oracle's STP bound and the scheduler bridge behave as stated for 2 and 3
// kernels.
//===----------------------------------------------------------------------===//
#include "CoRunPlan.h"
#include "CoRunReport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
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
  // (Pairs are groups of two: the rule is the one of every group.)
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

TEST(CoRunPlan, CategoriesOfTriples) {
  using V = std::vector<std::string>;
  // Both classes, in any number and order: memory x compute.
  EXPECT_EQ(categoriesOf({"spmv", "bs", "mriq"}), V{"memory x compute"});
  EXPECT_EQ(categoriesOf({"mriq", "tea", "bs"}), V{"memory x compute"});
  EXPECT_EQ(categoriesOf({"spmv", "bs", "reduce"}), V{"memory x memory"});
  EXPECT_EQ(categoriesOf({"mriq", "sad", "tea"}), V{"compute x compute"});
  // One Short and one Long among three: short x long, whatever the third.
  EXPECT_EQ(categoriesOf({"mm", "mriq", "tea"}),
            (V{"compute x compute", "short x long"}));
  EXPECT_EQ(categoriesOf({"spmv", "mm", "nn"}),
            (V{"memory x compute", "short x long"}));
  EXPECT_EQ(categoriesOf({"nn", "bs", "reduce", "kmeans"}),
            V{"memory x memory"});
  EXPECT_TRUE(categoriesOf({"spmv", "mm", "nothing"}).empty());
  EXPECT_TRUE(categoriesOf(WorkloadGroup()).empty());
  EXPECT_EQ(classMix({"spmv", "mm", "nn"}), "2 memory + 1 compute");
  EXPECT_EQ(classMix({"mm", "nbody", "nn"}), "1 memory + 2 compute");
  EXPECT_EQ(classMix({"spmv", "bs", "reduce"}), "3 memory");
  EXPECT_EQ(classMix({"mm", "tea"}), "2 compute");
}

TEST(CoRunPlan, GroupNames) {
  EXPECT_EQ(WorkloadGroup({"spmv", "mm", "nn"}).name(), "spmv+mm+nn");
  EXPECT_EQ(WorkloadGroup({"spmv", "mm"}).size(), 2u);
  EXPECT_EQ(groupNoun(2), "pair");
  EXPECT_EQ(groupNoun(3), "triple");
  EXPECT_EQ(groupNoun(4), "group of 4");
  EXPECT_EQ(groupsNoun(defaultPairs()), "pairs");
  EXPECT_EQ(groupsNoun(defaultTriples()), "triples");
  EXPECT_EQ(groupsNoun({{"spmv", "mm"}, {"spmv", "mm", "nn"}}), "groups");
}

void expectCoverage(const std::vector<WorkloadGroup> &Groups, size_t Size,
                    unsigned MinGroups, unsigned MinPerCategory) {
  EXPECT_GE(Groups.size(), MinGroups);
  std::map<std::string, unsigned> PerCategory;
  std::set<std::set<std::string>> Seen;
  for (const WorkloadGroup &G : Groups) {
    SCOPED_TRACE(G.name());
    EXPECT_EQ(G.size(), Size);
    for (const std::string &Name : G.Names)
      EXPECT_NE(findClassified(Name), nullptr) << Name;
    std::set<std::string> Members(G.Names.begin(), G.Names.end());
    EXPECT_EQ(Members.size(), G.size()) << "a workload twice";
    EXPECT_TRUE(Seen.insert(Members).second) << "repeated";
    for (const std::string &C : categoriesOf(G))
      ++PerCategory[C];
  }
  for (const std::string &C : allCategories())
    EXPECT_GE(PerCategory[C], MinPerCategory) << C;
}

TEST(CoRunPlan, DefaultPairsCoverCategoriesAndWorkloads) {
  expectCoverage(defaultPairs(), 2, 24, 6);
  EXPECT_EQ(defaultPairs().size(), 24u);
  std::set<std::string> Used;
  for (const WorkloadGroup &P : defaultPairs())
    Used.insert(P.Names.begin(), P.Names.end());
  for (const ClassifiedWorkload &W : classifiedWorkloads())
    EXPECT_TRUE(Used.count(W.Name)) << W.Name << " is in no pair";
}

TEST(CoRunPlan, QuickPairsCoverCategories) {
  expectCoverage(quickPairs(), 2, 8, 2);
}

TEST(CoRunPlan, DefaultTriplesCoverWhatTheyClaim) {
  const std::vector<WorkloadGroup> &Triples = defaultTriples();
  expectCoverage(Triples, 3, 8, 2);
  std::set<std::string> Mixes;
  for (const WorkloadGroup &T : Triples) {
    SCOPED_TRACE(T.name());
    Mixes.insert(classMix(T));
    // Each is a default pair, in the pair's order, and a third workload.
    WorkloadGroup Pair = {T.Names[0], T.Names[1]};
    EXPECT_NE(std::find(defaultPairs().begin(), defaultPairs().end(), Pair),
              defaultPairs().end());
  }
  // Both mixes of the two classes, and triples of one class each.
  for (const char *Mix : {"2 memory + 1 compute", "1 memory + 2 compute",
                          "3 memory", "3 compute"})
    EXPECT_TRUE(Mixes.count(Mix)) << Mix;
  // --quick --triples: a subset, every category at least once.
  expectCoverage(quickTriples(), 3, 4, 1);
  for (const WorkloadGroup &T : quickTriples())
    EXPECT_NE(std::find(Triples.begin(), Triples.end(), T), Triples.end())
        << T.name();
}

TEST(CoRunPlan, ParseGroups) {
  std::vector<WorkloadGroup> Groups;
  std::string Error;
  ASSERT_TRUE(parseGroups("spmv+mm,nn+reduce", Groups, Error)) << Error;
  EXPECT_EQ(Groups,
            (std::vector<WorkloadGroup>{{"spmv", "mm"}, {"nn", "reduce"}}));
  EXPECT_EQ(Groups[0].name(), "spmv+mm");
  // Triples and groups of four, mixed with pairs, in the order given.
  ASSERT_TRUE(
      parseGroups("spmv+mm+nn,tea+sad,nn+bs+reduce+kmeans", Groups, Error))
      << Error;
  ASSERT_EQ(Groups.size(), 3u);
  EXPECT_EQ(Groups[0], (WorkloadGroup{"spmv", "mm", "nn"}));
  EXPECT_EQ(Groups[1], (WorkloadGroup{"tea", "sad"}));
  EXPECT_EQ(Groups[2].size(), 4u);
  EXPECT_EQ(Groups[0].name(), "spmv+mm+nn");
  for (const char *Bad :
       {"", "spmv", "spmv+", "+spmv+mm", "spmv++mm", "spmv+mm,", "hotspot+mm",
        "mm+mm", "spmv+mm+spmv", "nn+bs+reduce+kmeans+md", "spmv mm",
        "spmv+mm+nothing"}) {
    SCOPED_TRACE(Bad);
    Groups = {{"a", "b"}};
    Error.clear();
    EXPECT_FALSE(parseGroups(Bad, Groups, Error));
    EXPECT_FALSE(Error.empty());
    EXPECT_EQ(Groups.size(), 1u) << "unchanged on error";
  }
  parseGroups("hotspot+mm", Groups, Error);
  EXPECT_NE(Error.find("'hotspot'"), std::string::npos) << Error;
  parseGroups("spmv+mm+spmv", Groups, Error);
  EXPECT_NE(Error.find("spmv twice"), std::string::npos) << Error;
  parseGroups("nn+bs+reduce+kmeans+md", Groups, Error);
  EXPECT_NE(Error.find("has 5 workloads"), std::string::npos) << Error;
  parseGroups("spmv", Groups, Error);
  EXPECT_NE(Error.find("is not a group"), std::string::npos) << Error;
}

bool parse(std::vector<std::string> Args, Options &O, std::string &Error) {
  return parseOptions(Args, O, Error);
}

TEST(CoRunPlan, DefaultOptions) {
  Options O;
  std::string Error;
  ASSERT_TRUE(parse({}, O, Error)) << Error;
  EXPECT_EQ(O.Groups, defaultPairs());
  EXPECT_FALSE(O.Triples);
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
  EXPECT_EQ(O.Groups, quickPairs());
  EXPECT_EQ(O.Rounds, 3u);
  EXPECT_EQ(O.SplitStep, 8u);
  EXPECT_EQ(O.Workers, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(O.SweepSeconds, 3);
  ASSERT_TRUE(parse({"--quick", "--pairs=mm+mriq", "--rounds=7",
                     "--workers=4,2,2", "--sweep-s=1.5"},
                    O, Error))
      << Error;
  EXPECT_EQ(O.Groups, (std::vector<WorkloadGroup>{{"mm", "mriq"}}));
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
  EXPECT_EQ(O.Check, CheckPolicy::EveryGroup);
  EXPECT_EQ(O.BudgetSeconds, 60);
  EXPECT_TRUE(O.ListOnly);
}

TEST(CoRunPlan, TriplesOption) {
  Options O;
  std::string Error;
  ASSERT_TRUE(parse({"--triples"}, O, Error)) << Error;
  EXPECT_TRUE(O.Triples);
  EXPECT_EQ(O.Groups, defaultTriples());
  // The other defaults are those of pairs.
  EXPECT_EQ(O.Rounds, 5u);
  EXPECT_EQ(O.SplitStep, 8u);
  EXPECT_EQ(O.Modes, allModes());
  ASSERT_TRUE(parse({"--triples", "--quick", "--budget-s=300"}, O, Error))
      << Error;
  EXPECT_EQ(O.Groups, quickTriples());
  EXPECT_EQ(O.Rounds, 3u);
  EXPECT_EQ(O.BudgetSeconds, 300);
  ASSERT_TRUE(parse({"--list", "--triples"}, O, Error)) << Error;
  EXPECT_TRUE(O.ListOnly);
  EXPECT_EQ(O.Groups, defaultTriples());
  // Explicit groups of two to four through --pairs.
  ASSERT_TRUE(parse({"--pairs=spmv+mm+nn,tea+sad"}, O, Error)) << Error;
  EXPECT_FALSE(O.Triples);
  EXPECT_EQ(O.Groups,
            (std::vector<WorkloadGroup>{{"spmv", "mm", "nn"}, {"tea", "sad"}}));
  // --triples and --pairs exclude each other, in either order.
  for (std::vector<std::string> Both :
       {std::vector<std::string>{"--triples", "--pairs=spmv+mm"},
        std::vector<std::string>{"--pairs=spmv+mm", "--triples"}}) {
    EXPECT_FALSE(parse(Both, O, Error));
    EXPECT_NE(Error.find("exclude"), std::string::npos) << Error;
  }
  EXPECT_NE(usage().find("--triples"), std::string::npos);
  ASSERT_TRUE(parse({"--check=group"}, O, Error)) << Error;
  EXPECT_EQ(O.Check, CheckPolicy::EveryGroup);
}

TEST(CoRunPlan, BadOptionsAreRejected) {
  for (const char *Bad :
       {"--modes=streams,mps", "--rounds=0", "--rounds=x", "--target-ms=-1",
        "--split-step=0", "--workers=1,x", "--workers=65", "--check=all",
        "--budget-s=0", "--out=", "--pairs=mm", "--pairs=a+b+c+d+e",
        "--pairs=mm+spmv+mm", "--triples=1", "--quick=1", "--bogus", "--rounds",
        "positional"}) {
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
  EXPECT_NE(usage().find("--pairs=a+b,c+d+e"), std::string::npos);
}

// The counts of the splits smSplits makes, checked one by one: each sums
// to NumSms, each of the first Parts - 1 is a positive multiple of Step,
// the last at least Step, no repeats, lexicographic order.
void expectSplits(unsigned NumSms, unsigned Step, unsigned Parts,
                  size_t Count) {
  SCOPED_TRACE(std::to_string(NumSms) + " SMs, step " + std::to_string(Step) +
               ", " + std::to_string(Parts) + " parts");
  std::vector<std::vector<unsigned>> Splits = smSplits(NumSms, Step, Parts);
  EXPECT_EQ(Splits.size(), Count);
  for (size_t I = 0; I < Splits.size(); ++I) {
    const std::vector<unsigned> &S = Splits[I];
    ASSERT_EQ(S.size(), Parts);
    unsigned Sum = 0;
    for (size_t K = 0; K < S.size(); ++K) {
      Sum += S[K];
      EXPECT_GE(S[K], Step);
      if (K + 1 < S.size())
        EXPECT_EQ(S[K] % Step, 0u);
    }
    EXPECT_EQ(Sum, NumSms);
    if (I > 0)
      EXPECT_LT(Splits[I - 1], S) << "order";
  }
  // Every split that follows the rules is there: count them directly.
  size_t Expected = 0;
  std::vector<unsigned> Counts(Parts - 1, Step);
  std::function<void(size_t, unsigned)> Walk = [&](size_t K, unsigned Used) {
    if (K + 1 == Parts) {
      Expected += NumSms >= Used + Step;
      return;
    }
    for (unsigned C = Step; Used + C + Step <= NumSms; C += Step)
      Walk(K + 1, Used + C);
  };
  Walk(0, 0);
  EXPECT_EQ(Splits.size(), Expected);
}

TEST(CoRunPlan, SplitGrids) {
  std::vector<std::vector<unsigned>> Eights = smSplits(132, 8, 2);
  ASSERT_EQ(Eights.size(), 15u);
  EXPECT_EQ(Eights.front(), (std::vector<unsigned>{8, 124}));
  EXPECT_EQ(Eights.back(), (std::vector<unsigned>{120, 12}));
  EXPECT_EQ(smSplits(132, 16, 2),
            (std::vector<std::vector<unsigned>>{{16, 116},
                                                {32, 100},
                                                {48, 84},
                                                {64, 68},
                                                {80, 52},
                                                {96, 36},
                                                {112, 20}}));
  EXPECT_TRUE(smSplits(12, 8, 2).empty());
  EXPECT_TRUE(smSplits(132, 0, 2).empty());
  EXPECT_TRUE(smSplits(132, 8, 1).empty());
  EXPECT_TRUE(smSplits(20, 8, 3).empty()); // three need 24
  // The last keeps at least a whole step: 7 SMs are not enough.
  EXPECT_EQ(smSplits(23, 8, 2), (std::vector<std::vector<unsigned>>{{8, 15}}));
  EXPECT_EQ(smSplits(31, 8, 3),
            (std::vector<std::vector<unsigned>>{{8, 8, 15}}));
  EXPECT_EQ(smSplits(24, 8, 3),
            (std::vector<std::vector<unsigned>>{{8, 8, 8}}));
  EXPECT_EQ(smSplits(40, 8, 3),
            (std::vector<std::vector<unsigned>>{{8, 8, 24},
                                                {8, 16, 16},
                                                {8, 24, 8},
                                                {16, 8, 16},
                                                {16, 16, 8},
                                                {24, 8, 8}}));
  expectSplits(132, 8, 2, 15);
  expectSplits(132, 8, 3, 105);
  expectSplits(132, 16, 3, 21);
  expectSplits(132, 8, 4, 455);
  expectSplits(100, 12, 3, 21);
  expectSplits(114, 8, 3, 78);

  std::vector<SplitConfig> Configs = oracleConfigs(132, 8, {0, 1, 2, 4}, 2);
  EXPECT_EQ(Configs.size(), 15u * 16u);
  EXPECT_EQ(Configs[0], (SplitConfig{{8, 124}, {0, 0}}));
  EXPECT_EQ(Configs[1], (SplitConfig{{8, 124}, {0, 1}}));
  EXPECT_EQ(Configs[4], (SplitConfig{{8, 124}, {1, 0}}));
  EXPECT_EQ(Configs.back(), (SplitConfig{{120, 12}, {4, 4}}));

  std::vector<KernelShare> Shares = sharesOf({{40, 92}, {2, 0}}, 132);
  ASSERT_EQ(Shares.size(), 2u);
  EXPECT_EQ(Shares[0], (KernelShare{0, 40, 2}));
  EXPECT_EQ(Shares[1], (KernelShare{40, 92, 0}));
}

TEST(CoRunPlan, OracleOfTriplesKeepsWorkersFixed) {
  EXPECT_EQ(oracleWorkers({0, 1, 2, 4}, 2),
            (std::vector<unsigned>{0, 1, 2, 4}));
  EXPECT_EQ(oracleWorkers({0, 1, 2, 4}, 3), (std::vector<unsigned>{0}));
  EXPECT_EQ(oracleWorkers({2, 4}, 3), (std::vector<unsigned>{2}));
  EXPECT_EQ(oracleWorkers({2, 4}, 4), (std::vector<unsigned>{2}));
  std::vector<SplitConfig> Configs = oracleConfigs(132, 8, {0, 1, 2, 4}, 3);
  ASSERT_EQ(Configs.size(), 105u);
  EXPECT_EQ(Configs.front(), (SplitConfig{{8, 8, 116}, {0, 0, 0}}));
  EXPECT_EQ(Configs.back(), (SplitConfig{{112, 8, 12}, {0, 0, 0}}));
  for (const SplitConfig &C : Configs) {
    std::vector<KernelShare> Shares = sharesOf(C, 132);
    ASSERT_EQ(Shares.size(), 3u);
    // Contiguous from SM 0, every SM to exactly one kernel.
    EXPECT_EQ(Shares[0].FirstSm, 0u);
    EXPECT_EQ(Shares[1].FirstSm, Shares[0].NumSms);
    EXPECT_EQ(Shares[2].FirstSm, Shares[0].NumSms + Shares[1].NumSms);
    EXPECT_EQ(Shares[2].FirstSm + Shares[2].NumSms, 132u);
    for (size_t I = 0; I < 3; ++I)
      EXPECT_EQ(Shares[I].NumSms, C.Sms[I]);
  }
  // Four kernels: still one worker choice each.
  EXPECT_EQ(oracleConfigs(132, 8, {0, 1}, 4).size(), 455u);
  EXPECT_TRUE(oracleConfigs(132, 8, {}, 3).empty());
}

TEST(CoRunPlan, GreenRequestsFollowTheDriversGranularity) {
  // Pairs: one request each, the first context's.
  auto FirstOf = [](const std::vector<std::vector<unsigned>> &Requests) {
    std::vector<unsigned> First;
    for (const std::vector<unsigned> &R : Requests) {
      EXPECT_EQ(R.size(), 1u);
      First.push_back(R.at(0));
    }
    return First;
  };
  std::vector<unsigned> Eights;
  for (const std::vector<unsigned> &S : smSplits(132, 8, 2))
    Eights.push_back(S[0]);
  EXPECT_EQ(FirstOf(greenRequests(132, 8, 8, 8, 2)), Eights);
  // Steps finer than the alignment round up, without repeats.
  EXPECT_EQ(FirstOf(greenRequests(40, 4, 8, 8, 2)),
            (std::vector<unsigned>{8, 16, 24, 32}));
  // Both contexts need the minimum partition.
  EXPECT_EQ(FirstOf(greenRequests(40, 8, 16, 8, 2)),
            (std::vector<unsigned>{16, 24}));
  // Triples: the first two contexts' requests, the last keeps the rest.
  EXPECT_EQ(greenRequests(40, 8, 8, 8, 3),
            (std::vector<std::vector<unsigned>>{
                {8, 8}, {8, 16}, {8, 24}, {16, 8}, {16, 16}, {24, 8}}));
  EXPECT_EQ(greenRequests(40, 8, 16, 8, 3), // 16 + 16 leave 8 < 16
            (std::vector<std::vector<unsigned>>{}));
  for (const std::vector<unsigned> &R : greenRequests(132, 8, 8, 8, 3)) {
    ASSERT_EQ(R.size(), 2u);
    EXPECT_EQ(R[0] % 8, 0u);
    EXPECT_EQ(R[1] % 8, 0u);
    EXPECT_GE(132u - R[0] - R[1], 8u);
  }
}

TEST(CoRunPlan, GreenSweepIsBounded) {
  // Pairs keep the step: every split, as before.
  GreenSweep Pairs = greenSweep(132, 8, 8, 8, 2);
  EXPECT_EQ(Pairs.Step, 8u);
  EXPECT_EQ(Pairs.Requests, greenRequests(132, 8, 8, 8, 2));
  // Triples: 105 splits at step 8, 21 at step 16.
  EXPECT_EQ(greenRequests(132, 8, 8, 8, 3).size(), 105u);
  GreenSweep Triples = greenSweep(132, 8, 8, 8, 3);
  EXPECT_EQ(Triples.Step, 16u);
  EXPECT_EQ(Triples.Requests.size(), 21u);
  EXPECT_EQ(Triples.Requests, greenRequests(132, 16, 8, 8, 3));
  GreenSweep Fours = greenSweep(132, 8, 8, 8, 4);
  EXPECT_EQ(Fours.Step, 24u);
  EXPECT_EQ(Fours.Requests.size(), 4u);
  for (unsigned Parts : {2u, 3u, 4u})
    for (unsigned Max : {1u, 5u, MaxGreenSplits}) {
      GreenSweep S = greenSweep(132, 8, 8, 8, Parts, Max);
      EXPECT_LE(S.Requests.size(), Max);
      EXPECT_EQ(S.Step % 8, 0u);
      // The smallest such step: the one before gives too many.
      if (S.Step > 8)
        EXPECT_GT(greenRequests(132, S.Step - 8, 8, 8, Parts).size(), Max);
    }
  EXPECT_EQ(greenSweep(132, 0, 8, 8, 3).Requests.size(), 0u);
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

TEST(CoRunPlan, MpsTenantOptions) {
  Options O;
  std::string Error;
  ASSERT_TRUE(
      parse({"--mps-tenant=spmv", "--gate=/tmp/g", "--reps=7"}, O, Error))
      << Error;
  EXPECT_EQ(O.MpsTenant, "spmv");
  EXPECT_EQ(O.Gate, "/tmp/g");
  EXPECT_EQ(O.TenantReps, 7u);
  ASSERT_TRUE(parse({"--mps-tenant=mm"}, O, Error)) << Error;
  EXPECT_TRUE(O.Gate.empty());
  EXPECT_EQ(O.TenantReps, 0u);
  // A workload the harness does not co-run (one-chunk mode), none at all,
  // no gate file, no repetitions.
  EXPECT_FALSE(parse({"--mps-tenant=hotspot"}, O, Error));
  EXPECT_NE(Error.find("no workload 'hotspot'"), std::string::npos) << Error;
  EXPECT_FALSE(parse({"--mps-tenant=nope"}, O, Error));
  EXPECT_FALSE(parse({"--mps-tenant=mm", "--gate="}, O, Error));
  EXPECT_FALSE(parse({"--mps-tenant=mm", "--reps=0"}, O, Error));
}
