//===- CoRunGroupsTest.cpp - Tests of the co-run harness's groups ---------===//
//
// The workloads and groups of smc_corun_bench (bench/corun/CoRunPlan.h,
// CoRunGroups.cpp): workload classes follow the documented rule, the
// default pairs and triples cover every category and workload they claim,
// and group parsing (--pairs) accepts what the usage says and rejects the
// rest.
//===----------------------------------------------------------------------===//
#include "CoRunPlan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

using namespace smc::corun;

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

} // namespace
