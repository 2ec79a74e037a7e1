//===- ConfigTest.cpp - Every SMC_* variable, read once -------------------===//
//
// readConfig (runtime/policy/Config.h): the defaults, each variable's
// values, and one message per bad value naming what is used instead.
//===----------------------------------------------------------------------===//
#include "policy/Config.h"

#include <gtest/gtest.h>

#include <map>

using namespace smc;

namespace {

Config read(const std::map<std::string, std::string> &Env,
            std::vector<std::string> &Messages) {
  return readConfig(
      [&](const char *Name) -> const char * {
        auto It = Env.find(Name);
        return It == Env.end() ? nullptr : It->second.c_str();
      },
      Messages);
}

} // namespace

TEST(Config, DefaultsWithNothingSet) {
  std::vector<std::string> Messages;
  Config C = read({}, Messages);
  EXPECT_TRUE(Messages.empty());
  EXPECT_FALSE(C.Disabled);
  EXPECT_TRUE(C.PolicyRules.empty());
  EXPECT_FALSE(C.PolicyBroken);
  EXPECT_EQ(C.StatsPath, "");
  EXPECT_EQ(C.TracePath, "");
  EXPECT_EQ(C.TraceRecords, Config::DefaultTraceRecords);
  EXPECT_EQ(C.Priority, PriorityMode::Auto);
  EXPECT_EQ(C.ProfilePath, "");
  EXPECT_EQ(C.ProfileRecordPath, "");
  EXPECT_TRUE(C.AutoSearch);
  EXPECT_EQ(C.GraphLayoutMode, GraphLayouts::Off);
  EXPECT_FALSE(C.Tenants);
}

TEST(Config, GoodValues) {
  std::vector<std::string> Messages;
  Config C = read({{"SMC_DISABLE", "1"},
                   {"SMC_POLICY", "vecAdd=slice(size=4); *=original"},
                   {"SMC_STATS", "s.json"},
                   {"SMC_TRACE", "t.csv"},
                   {"SMC_TRACE_RECORDS", "4096"},
                   {"SMC_PRIORITY", "Off"},
                   {"SMC_PROFILE", "p.json"},
                   {"SMC_PROFILE_RECORD", "r.json"},
                   {"SMC_AUTO_SEARCH", "off"},
                   {"SMC_TENANTS", "on"},
                   {"SMC_GRAPH_LAYOUTS", "random"}},
                  Messages);
  EXPECT_TRUE(Messages.empty());
  EXPECT_TRUE(C.Disabled);
  ASSERT_EQ(C.PolicyRules.size(), 2u);
  EXPECT_EQ(C.PolicyRules[0].Name, "vecAdd");
  EXPECT_EQ(C.PolicyRules[0].Policy.variant, Variant::Slice);
  EXPECT_EQ(C.PolicyRules[0].Policy.sliceSize, 4u);
  EXPECT_EQ(C.PolicyRules[1].Policy.variant, Variant::Original);
  EXPECT_EQ(C.StatsPath, "s.json");
  EXPECT_EQ(C.TracePath, "t.csv");
  EXPECT_EQ(C.TraceRecords, 4096u);
  EXPECT_EQ(C.Priority, PriorityMode::Off);
  EXPECT_EQ(C.ProfilePath, "p.json");
  EXPECT_EQ(C.ProfileRecordPath, "r.json");
  EXPECT_FALSE(C.AutoSearch);
  EXPECT_EQ(C.GraphLayoutMode, GraphLayouts::Random);
  EXPECT_TRUE(C.Tenants);
}

TEST(Config, DisableIsAnyValueButEmptyAndZero) {
  std::vector<std::string> Messages;
  EXPECT_FALSE(read({{"SMC_DISABLE", "0"}}, Messages).Disabled);
  EXPECT_FALSE(read({{"SMC_DISABLE", ""}}, Messages).Disabled);
  EXPECT_TRUE(read({{"SMC_DISABLE", "yes"}}, Messages).Disabled);
  EXPECT_TRUE(Messages.empty());
}

TEST(Config, BlankPolicyIsNoPolicy) {
  std::vector<std::string> Messages;
  Config C = read({{"SMC_POLICY", " \t\n"}}, Messages);
  EXPECT_TRUE(Messages.empty());
  EXPECT_TRUE(C.PolicyRules.empty());
  EXPECT_FALSE(C.PolicyBroken);
}

TEST(Config, EachBadValueGetsOneMessage) {
  std::vector<std::string> Messages;
  Config C = read({{"SMC_POLICY", "vecAdd=smc(workers=x)"},
                   {"SMC_TRACE_RECORDS", "0"},
                   {"SMC_PRIORITY", "sometimes"},
                   {"SMC_AUTO_SEARCH", "maybe"},
                   {"SMC_TENANTS", "yes"},
                   {"SMC_GRAPH_LAYOUTS", "always"}},
                  Messages);
  ASSERT_EQ(Messages.size(), 6u);
  EXPECT_TRUE(C.PolicyBroken);
  EXPECT_NE(Messages[0].find("SMC_POLICY: in rule 'vecAdd=smc(workers=x)'"),
            std::string::npos)
      << Messages[0];
  EXPECT_NE(Messages[0].find("; every kernel runs the original"),
            std::string::npos);
  EXPECT_EQ(C.TraceRecords, Config::DefaultTraceRecords);
  EXPECT_EQ(Messages[1], "SMC_TRACE_RECORDS: '0' is not a number of records "
                         "from 1 to 2^27; using 2^20");
  EXPECT_EQ(C.Priority, PriorityMode::Auto);
  EXPECT_EQ(
      Messages[2],
      "SMC_PRIORITY: 'sometimes' is not one of auto, on, off; using auto");
  EXPECT_TRUE(C.AutoSearch);
  EXPECT_EQ(Messages[3],
            "SMC_AUTO_SEARCH: 'maybe' is not one of on, off; using on");
  EXPECT_EQ(C.GraphLayoutMode, GraphLayouts::Off);
  EXPECT_FALSE(C.Tenants);
  EXPECT_EQ(Messages[4], "SMC_TENANTS: 'yes' is not one of on, off; using off");
  EXPECT_EQ(Messages[5], "SMC_GRAPH_LAYOUTS: 'always' is not one of off, "
                         "search, random; using off");
}

TEST(Config, TraceRecordsOutOfRange) {
  std::vector<std::string> Messages;
  EXPECT_EQ(read({{"SMC_TRACE_RECORDS", "134217728"}}, Messages).TraceRecords,
            Config::MaxTraceRecords);
  EXPECT_TRUE(Messages.empty());
  Config C = read({{"SMC_TRACE_RECORDS", "134217729"}}, Messages);
  EXPECT_EQ(C.TraceRecords, Config::DefaultTraceRecords);
  EXPECT_EQ(Messages.size(), 1u);
  read({{"SMC_TRACE_RECORDS", "12k"}}, Messages);
  EXPECT_EQ(Messages.size(), 2u);
}
