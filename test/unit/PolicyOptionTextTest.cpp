//===- PolicyOptionTextTest.cpp - SMC_POLICY's remap, order, p99 options --===//
//
// The options of the remap action, the chunk orders of smc (cluster
// orders included) and the p99 target of every action parse to the policy
// they name, and every bad value is rejected with a message naming the rule
// and the bad part.
//===----------------------------------------------------------------------===//
#include "PolicyTextChecks.h"

using namespace smc;
using namespace smc::test;

TEST(PolicyText, Remap) {
  Policy Plain = parseOk("k=remap")[0].Policy;
  EXPECT_EQ(Plain.variant, Variant::Remap);
  EXPECT_DOUBLE_EQ(Plain.remapRatio, 1.0); // the defaults
  EXPECT_EQ(Plain.remapKeys, RemapKeys::Inspector);
  EXPECT_EQ(Plain.remapControl, RemapControl::Adaptive);
  EXPECT_FALSE(Plain.urgent);
  Policy Empty = parseOk("k=remap()")[0].Policy;
  EXPECT_EQ(Empty.variant, Variant::Remap);
  EXPECT_DOUBLE_EQ(Empty.remapRatio, 1.0);

  Policy All =
      parseOk("k=remap(ratio=0.5,keys=random,control=always)")[0].Policy;
  EXPECT_EQ(All.variant, Variant::Remap);
  EXPECT_DOUBLE_EQ(All.remapRatio, 0.5);
  EXPECT_EQ(All.remapKeys, RemapKeys::Random);
  EXPECT_EQ(All.remapControl, RemapControl::Always);
  EXPECT_FALSE(All.urgent);

  Policy Named = parseOk(" k = remap ( control = adaptive , keys = inspector , "
                         "ratio = 1 ) ")[0]
                     .Policy;
  EXPECT_DOUBLE_EQ(Named.remapRatio, 1.0);
  EXPECT_EQ(Named.remapKeys, RemapKeys::Inspector);
  EXPECT_EQ(Named.remapControl, RemapControl::Adaptive);
  EXPECT_DOUBLE_EQ(parseOk("k=remap(ratio=1e-3)")[0].Policy.remapRatio, 0.001);

  Policy Urgent = parseOk("k=remap(urgent)")[0].Policy;
  EXPECT_EQ(Urgent.variant, Variant::Remap);
  EXPECT_TRUE(Urgent.urgent);
  EXPECT_DOUBLE_EQ(Urgent.remapRatio, 1.0);
  Policy UrgentToo = parseOk("k=remap(keys=random, urgent)")[0].Policy;
  EXPECT_TRUE(UrgentToo.urgent);
  EXPECT_EQ(UrgentToo.remapKeys, RemapKeys::Random);

  auto Rules = parseOk("*=remap(ratio=0.25); mm=smc");
  ASSERT_EQ(Rules.size(), 2u);
  EXPECT_EQ(Rules[0].Name, "*");
  EXPECT_EQ(Rules[0].Policy.variant, Variant::Remap);
  EXPECT_DOUBLE_EQ(Rules[0].Policy.remapRatio, 0.25);
  EXPECT_EQ(Rules[1].Policy.variant, Variant::SMCentric);
}

TEST(PolicyText, BadRemapOptions) {
  // The ratio is a number in (0, 1].
  expectRuleError("k=remap(ratio=0)", "k=remap(ratio=0)",
                  "'0' is not a remap ratio (expected a number in (0, 1])");
  expectRuleError("k=remap(ratio=1.5)", "k=remap(ratio=1.5)",
                  "'1.5' is not a remap ratio (expected a number in (0, 1])");
  expectRuleError("k=remap(ratio=abc)", "k=remap(ratio=abc)",
                  "'abc' is not a remap ratio (expected a number in (0, 1])");
  expectRuleError("k=remap(ratio=-0.5)", "k=remap(ratio=-0.5)",
                  "'-0.5' is not a remap ratio");
  expectRuleError("k=remap(ratio=0.5x)", "k=remap(ratio=0.5x)",
                  "'0.5x' is not a remap ratio");
  expectRuleError("k=remap(ratio=nan)", "k=remap(ratio=nan)",
                  "'nan' is not a remap ratio");
  expectRuleError("k=remap(ratio=)", "k=remap(ratio=)",
                  "'' is not a remap ratio");
  expectRuleError("k=remap(keys=foo)", "k=remap(keys=foo)",
                  "'foo' is not a source of remap keys (expected inspector or "
                  "random)");
  expectRuleError("k=remap(control=foo)", "k=remap(control=foo)",
                  "'foo' is not a remap control (expected adaptive or always)");
  // Options of other actions, and remap's options on other actions.
  expectRuleError("k=remap(workers=2)", "k=remap(workers=2)",
                  "unknown option 'workers' (remap takes ratio, keys, control, "
                  "urgent, reserve or p99)");
  expectRuleError("k=remap(size=4)", "k=remap(size=4)",
                  "unknown option 'size' (remap takes ratio, keys, control, "
                  "urgent, reserve or p99)");
  expectRuleError("k=smc(ratio=0.5)", "k=smc(ratio=0.5)",
                  "unknown option 'ratio' (smc takes workers, sms, order, "
                  "urgent, reserve or p99)");
  expectRuleError("k=locality(keys=random)", "k=locality(keys=random)",
                  "unknown option 'keys' (locality takes only urgent, "
                  "reserve or p99)");
  // Each option once.
  expectRuleError("k=remap(ratio=0.5,ratio=0.5)",
                  "k=remap(ratio=0.5,ratio=0.5)",
                  "option 'ratio' is given twice");
  expectRuleError("k=remap(keys=random, control=always, keys=inspector)",
                  "k=remap(keys=random, control=always, keys=inspector)",
                  "option 'keys' is given twice");
  expectRuleError("k=remap(urgent, urgent)", "k=remap(urgent, urgent)",
                  "option 'urgent' is given twice");
  expectRuleError("k=remapped", "k=remapped",
                  "unknown action 'remapped' (expected original, smc, slice, "
                  "auto, locality or remap)");
}

TEST(PolicyText, BadOrder) {
  expectRuleError("k=smc(order=diagonal)", "k=smc(order=diagonal)",
                  "'diagonal' is not a chunk order");
  expectRuleError("k=smc(order=table)", "k=smc(order=table)", "'table'");
}

TEST(PolicyText, ClusterOrder) {
  auto Rules = parseOk("a=smc(order=cluster(x));"
                       "b=smc(workers=2, order=cluster(y,3), sms=0-1);"
                       "c=smc(order=cluster(tile,8));"
                       "d=smc(order = cluster ( tile , 4 x 2 ));"
                       "mm=smc(order=cluster(tile));"
                       "e=smc(order=cluster(x,1));"
                       "f=smc(order=cluster(tile,3x2),workers=1,sms=4+0+2);"
                       "g=smc(order=cluster(y,4294967295))");
  ASSERT_EQ(Rules.size(), 8u);
  const Policy &A = Rules[0].Policy;
  EXPECT_EQ(A.order, ChunkOrder::Cluster);
  EXPECT_EQ(A.clusterDir, ClusterDir::X);
  EXPECT_EQ(A.clusterSize, 0u); // the per-SM target
  const Policy &B = Rules[1].Policy;
  EXPECT_EQ(B.order, ChunkOrder::Cluster);
  EXPECT_EQ(B.clusterDir, ClusterDir::Y);
  EXPECT_EQ(B.clusterSize, 3u);
  EXPECT_EQ(B.workersPerSM, 2u); // the commas inside cluster(...) do not
  EXPECT_EQ(B.sms, (std::vector<unsigned>{0, 1})); // end the option
  const Policy &C = Rules[2].Policy;
  EXPECT_EQ(C.clusterDir, ClusterDir::Tile);
  EXPECT_EQ(C.clusterSize, 8u);
  EXPECT_EQ(C.clusterWidth, 0u);
  const Policy &D = Rules[3].Policy;
  EXPECT_EQ(D.clusterDir, ClusterDir::Tile);
  EXPECT_EQ(D.clusterSize, 0u);
  EXPECT_EQ(D.clusterWidth, 4u);
  EXPECT_EQ(D.clusterHeight, 2u);
  EXPECT_EQ(Rules[4].Policy.clusterDir, ClusterDir::Tile);
  EXPECT_EQ(Rules[4].Policy.clusterSize, 0u);
  EXPECT_EQ(Rules[5].Policy.clusterDir, ClusterDir::X);
  EXPECT_EQ(Rules[5].Policy.clusterSize, 1u);
  const Policy &F = Rules[6].Policy;
  EXPECT_EQ(F.order, ChunkOrder::Cluster);
  EXPECT_EQ(F.clusterDir, ClusterDir::Tile);
  EXPECT_EQ(F.clusterWidth, 3u);
  EXPECT_EQ(F.clusterHeight, 2u);
  EXPECT_EQ(F.workersPerSM, 1u);
  EXPECT_EQ(F.sms, (std::vector<unsigned>{4, 0, 2}));
  EXPECT_EQ(Rules[7].Policy.clusterSize, 4294967295u);

  // The C++ helpers build the same policies.
  Policy Helper = Policy::clustered(ClusterDir::Y, 3, 2, {0, 1});
  EXPECT_EQ(Helper.order, B.order);
  EXPECT_EQ(Helper.clusterDir, B.clusterDir);
  EXPECT_EQ(Helper.clusterSize, B.clusterSize);
  EXPECT_EQ(Helper.workersPerSM, B.workersPerSM);
  EXPECT_EQ(Helper.sms, B.sms);
  Policy Tiles = Policy::clusteredTiles(4, 2);
  EXPECT_EQ(Tiles.order, ChunkOrder::Cluster);
  EXPECT_EQ(Tiles.clusterDir, ClusterDir::Tile);
  EXPECT_EQ(Tiles.clusterWidth, 4u);
  EXPECT_EQ(Tiles.clusterHeight, 2u);
}

TEST(PolicyText, BadClusterOrder) {
  // Each error names the rule, the bad part and, where a number is wrong,
  // the cluster it belongs to.
  expectRuleError("k=smc(order=cluster)", "k=smc(order=cluster)",
                  "order 'cluster' needs a direction (expected "
                  "cluster(x|y|tile[,N]) or cluster(tile,WxH)");
  expectRuleError("k=smc(order=cluster()", "k=smc(order=cluster()",
                  "unbalanced parentheses: '(' is never closed");
  expectRuleError("k=smc(order=cluster(", "k=smc(order=cluster(",
                  "'(' is never closed");
  expectRuleError("k=smc(order=cluster(x,4)", "k=smc(order=cluster(x,4)",
                  "'(' is never closed");
  expectRuleError("k=smc(order=cluster())", "k=smc(order=cluster())",
                  "'cluster()' names no direction");
  expectRuleError("k=smc(order=cluster( ))", "k=smc(order=cluster( ))",
                  "'cluster( )' names no direction");
  expectRuleError("k=smc(order=cluster(,4))", "k=smc(order=cluster(,4))",
                  "'cluster(,4)' names no direction");
  expectRuleError("k=smc(order=cluster(diag))", "k=smc(order=cluster(diag))",
                  "'diag' in 'cluster(diag)' is not a cluster direction "
                  "(expected x, y or tile)");
  expectRuleError("k=smc(order=cluster(z,4))", "k=smc(order=cluster(z,4))",
                  "'z' in 'cluster(z,4)' is not a cluster direction");
  expectRuleError("k=smc(order=cluster(X))", "k=smc(order=cluster(X))",
                  "'X' in 'cluster(X)' is not a cluster direction");
  expectRuleError("k=smc(order=cluster(x,0))", "k=smc(order=cluster(x,0))",
                  "'0' is not a positive integer (the cluster size in "
                  "'cluster(x,0)')");
  expectRuleError("k=smc(order=cluster(y,abc))", "k=smc(order=cluster(y,abc))",
                  "'abc' is not a positive integer (the cluster size in "
                  "'cluster(y,abc)')");
  expectRuleError("k=smc(order=cluster(y,-2))", "k=smc(order=cluster(y,-2))",
                  "'-2' is not a positive integer");
  expectRuleError("k=smc(order=cluster(x,99999999999))",
                  "k=smc(order=cluster(x,99999999999))",
                  "'99999999999' is too large");
  expectRuleError("k=smc(order=cluster(x,))", "k=smc(order=cluster(x,))",
                  "empty cluster size in 'cluster(x,)'");
  expectRuleError("k=smc(order=cluster(x,4,2))", "k=smc(order=cluster(x,4,2))",
                  "too many arguments in 'cluster(x,4,2)'");
  expectRuleError("k=smc(order=cluster(x,3x2))", "k=smc(order=cluster(x,3x2))",
                  "'3x2' in 'cluster(x,3x2)' is a tile shape: only "
                  "cluster(tile,WxH) takes one");
  expectRuleError("k=smc(order=cluster(y,3x))", "k=smc(order=cluster(y,3x))",
                  "'3x' in 'cluster(y,3x)' is a tile shape");
  expectRuleError("k=smc(order=cluster(tile,4x))",
                  "k=smc(order=cluster(tile,4x))",
                  "'4x' in 'cluster(tile,4x)' is not a tile shape (expected "
                  "WxH, e.g. 4x2)");
  expectRuleError("k=smc(order=cluster(tile,x2))",
                  "k=smc(order=cluster(tile,x2))",
                  "'x2' in 'cluster(tile,x2)' "
                  "is not a tile shape");
  expectRuleError("k=smc(order=cluster(tile,2x0))",
                  "k=smc(order=cluster(tile,2x0))",
                  "'0' is not a positive integer (the cluster size in "
                  "'cluster(tile,2x0)')");
  expectRuleError("k=smc(order=cluster(tile,0x2))",
                  "k=smc(order=cluster(tile,0x2))",
                  "'0' is not a positive integer");
  expectRuleError("k=smc(order=cluster(tile,2x3x4))",
                  "k=smc(order=cluster(tile,2x3x4))",
                  "'3x4' is not a positive integer");
  expectRuleError("k=smc(order=cluster(tile,100000x100000))",
                  "k=smc(order=cluster(tile,100000x100000))",
                  "the tile 100000x100000 in 'cluster(tile,100000x100000)' "
                  "has more than 4294967295 chunks");
  expectRuleError("k=smc(order=cluster(x)y)", "k=smc(order=cluster(x)y)",
                  "unexpected 'y' after 'cluster(x)'");
  expectRuleError("k=smc(order=cluster x)", "k=smc(order=cluster x)",
                  "unexpected 'x' after order 'cluster'");
  expectRuleError("k=smc(order=clusters(x))", "k=smc(order=clusters(x))",
                  "'clusters(x)' is not a chunk order (expected contiguous, "
                  "interleaved or cluster(x|y|tile[,N|WxH]))");
  expectRuleError("k=smc(order=cluster(x),order=contiguous)",
                  "k=smc(order=cluster(x),order=contiguous)",
                  "option 'order' is given twice");
  expectRuleError("k=slice(order=cluster(x))", "k=slice(order=cluster(x))",
                  "'order' is an option of smc, not of slice");
  // The rules before a bad one are not kept either (parseError checks).
  parseError("a=smc(order=cluster(tile,2x2)); b=smc(order=cluster(q))");
}

// p99=<ratio>x or p99=<micros>us, an option of every action: a latency
// target (latency/LatencySearch.h), which makes the kernel urgent at launch.
TEST(PolicyText, LatencyTarget) {
  auto Rules = parseOk("a=original(p99=1.5x); b=smc(workers=2, p99=120us); "
                       "c=slice(size=8,p99 = 2x); d=auto(p99=250.5us, urgent);"
                       "e=remap(p99=1e1x)");
  ASSERT_EQ(Rules.size(), 5u);
  EXPECT_DOUBLE_EQ(Rules[0].Policy.p99Ratio, 1.5);
  EXPECT_DOUBLE_EQ(Rules[0].Policy.p99Micros, 0);
  EXPECT_EQ(Rules[0].Policy.variant, Variant::Original);
  EXPECT_FALSE(Rules[0].Policy.urgent); // a target implies urgent at launch
  EXPECT_FALSE(Rules[0].Policy.reserve);
  EXPECT_DOUBLE_EQ(Rules[1].Policy.p99Micros, 120);
  EXPECT_DOUBLE_EQ(Rules[1].Policy.p99Ratio, 0);
  EXPECT_EQ(Rules[1].Policy.workersPerSM, 2u);
  EXPECT_DOUBLE_EQ(Rules[2].Policy.p99Ratio, 2);
  EXPECT_EQ(Rules[2].Policy.sliceSize, 8u);
  EXPECT_DOUBLE_EQ(Rules[3].Policy.p99Micros, 250.5);
  EXPECT_TRUE(Rules[3].Policy.urgent);
  EXPECT_DOUBLE_EQ(Rules[4].Policy.p99Ratio, 10);
  EXPECT_DOUBLE_EQ(parseOk("k=smc")[0].Policy.p99Ratio, 0); // none by default
}

TEST(PolicyText, BadLatencyTargets) {
  const char *Expected = "is not a p99 target (expected a ratio over the "
                         "fastest launch such as 1.5x, above 1, or a time "
                         "such as 120us)";
  for (const char *Value :
       {"1.5", "120", "x", "us", "1x", "0.9x", "0us", "-5us", "abcx", "1.5xx",
        "1.5 x", "infx", "nanus", "1.5ms"}) {
    std::string Rule = std::string("k=original(p99=") + Value + ")";
    expectRuleError(Rule, Rule, "'" + std::string(Value) + "' " + Expected);
  }
  expectRuleError("k=original(p99=)", "k=original(p99=)",
                  std::string("'' ") + Expected);
  expectRuleError("k=original(p99=2x,p99=3x)", "k=original(p99=2x,p99=3x)",
                  "option 'p99' is given twice");
  expectRuleError("k=original(p99)", "k=original(p99)",
                  "option 'p99' has no value");
  // With reserve, room is kept whatever the latency: nothing to choose.
  expectRuleError("k=original(reserve,p99=2x)", "k=original(reserve,p99=2x)",
                  "options 'reserve' and 'p99' together");
}
