//===- CoRunOptionsTest.cpp - Tests of the co-run harness's options -------===//
//
// The command line of smc_corun_bench (bench/corun/CoRunPlan.h,
// CoRunPlan.cpp): the defaults, what --quick changes, the option values,
// --triples, --mps-tenant and the options it rejects.
//===----------------------------------------------------------------------===//
#include "CoRunPlan.h"

#include <gtest/gtest.h>

using namespace smc::corun;

namespace {

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
