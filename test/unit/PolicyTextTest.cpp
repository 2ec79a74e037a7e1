//===- PolicyTextTest.cpp - Tests of the SMC_POLICY grammar ---------------===//
//
// Every action and option parses to the policy it names; every class of
// error is rejected with a message naming the rule and the bad part, and
// leaves the rules unchanged; rule matching prefers named rules and the last
// of equals.
//===----------------------------------------------------------------------===//
#include "policy/PolicyText.h"

#include <gtest/gtest.h>

using namespace smc;

namespace {

std::vector<PolicyRule> parseOk(const std::string &Text) {
  std::vector<PolicyRule> Rules;
  std::string Error;
  EXPECT_TRUE(parsePolicyText(Text, Rules, Error)) << Error;
  EXPECT_TRUE(Error.empty()) << Error;
  return Rules;
}

// Parses text that must fail; returns the error message.
std::string parseError(const std::string &Text) {
  std::vector<PolicyRule> Rules = {{"sentinel", Policy::slice(3)}};
  std::string Error;
  EXPECT_FALSE(parsePolicyText(Text, Rules, Error)) << Text;
  // A failed parse changes nothing.
  EXPECT_EQ(Rules.size(), 1u);
  EXPECT_EQ(Rules[0].Name, "sentinel");
  EXPECT_FALSE(Error.empty());
  return Error;
}

// The message names the rule and the bad part.
void expectRuleError(const std::string &Text, const std::string &Rule,
                     const std::string &BadPart) {
  std::string Error = parseError(Text);
  EXPECT_EQ(Error.rfind("SMC_POLICY: in rule '" + Rule + "': ", 0), 0u)
      << Error;
  EXPECT_NE(Error.find(BadPart), std::string::npos)
      << "error '" << Error << "' does not name '" << BadPart << "'";
}

} // namespace

TEST(PolicyText, Actions) {
  auto Rules = parseOk("a=original; b=smc; c=slice");
  ASSERT_EQ(Rules.size(), 3u);
  EXPECT_EQ(Rules[0].Name, "a");
  EXPECT_EQ(Rules[0].Policy.variant, Variant::Original);
  EXPECT_EQ(Rules[1].Policy.variant, Variant::SMCentric);
  EXPECT_EQ(Rules[1].Policy.workersPerSM, 0u);
  EXPECT_TRUE(Rules[1].Policy.sms.empty());
  EXPECT_EQ(Rules[1].Policy.order, ChunkOrder::Interleaved); // the default
  EXPECT_EQ(Rules[2].Policy.variant, Variant::Slice);
  EXPECT_EQ(Rules[2].Policy.sliceSize, 0u);
}

// smc::setPolicy(kernel, ...) takes kernels (functions) only, so that
// setPolicy("name", ...) is the by-name overload: a string literal once
// matched the template and set the policy of the literal's address.
template <typename K, typename = void>
struct SetPolicyTakesPointersTo : std::false_type {};
template <typename K>
struct SetPolicyTakesPointersTo<
    K, std::void_t<decltype(smc::setPolicy<K>(nullptr, smc::Policy()))>>
    : std::true_type {};
static_assert(!SetPolicyTakesPointersTo<const char>::value,
              "setPolicy(\"name\", ...) must not take the symbol overload");
static_assert(SetPolicyTakesPointersTo<void(int *)>::value,
              "setPolicy(kernel, ...) takes kernels");

TEST(PolicyText, Auto) {
  auto Rules = parseOk("*=auto; mm=smc");
  ASSERT_EQ(Rules.size(), 2u);
  EXPECT_EQ(Rules[0].Name, "*");
  EXPECT_EQ(Rules[0].Policy.variant, Variant::Auto);
  EXPECT_EQ(parseOk(" k = auto ")[0].Policy.variant, Variant::Auto);
  expectRuleError("k=auto(workers=2)", "k=auto(workers=2)",
                  "unknown option 'workers' (auto takes only urgent or "
                  "reserve)");
  expectRuleError("k=automatic", "k=automatic",
                  "unknown action 'automatic' (expected original, smc, slice, "
                  "auto, locality or remap)");
}

TEST(PolicyText, Locality) {
  auto Rules = parseOk("*=locality; mm=smc");
  ASSERT_EQ(Rules.size(), 2u);
  EXPECT_EQ(Rules[0].Policy.variant, Variant::Locality);
  Policy Urgent = parseOk("k=locality(urgent)")[0].Policy;
  EXPECT_EQ(Urgent.variant, Variant::Locality);
  EXPECT_TRUE(Urgent.urgent);
  expectRuleError("k=locality(order=contiguous)",
                  "k=locality(order=contiguous)",
                  "unknown option 'order' (locality takes only urgent or "
                  "reserve)");
}

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
                  "urgent or reserve)");
  expectRuleError("k=remap(size=4)", "k=remap(size=4)",
                  "unknown option 'size' (remap takes ratio, keys, control, "
                  "urgent or reserve)");
  expectRuleError("k=smc(ratio=0.5)", "k=smc(ratio=0.5)",
                  "unknown option 'ratio' (smc takes workers, sms, order, "
                  "urgent or reserve)");
  expectRuleError("k=locality(keys=random)", "k=locality(keys=random)",
                  "unknown option 'keys' (locality takes only urgent or "
                  "reserve)");
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

TEST(PolicyText, SmcOptions) {
  auto Rules =
      parseOk("vecAdd=smc(workers=4, sms=0-3+7+5-5, order=interleaved)");
  ASSERT_EQ(Rules.size(), 1u);
  const Policy &P = Rules[0].Policy;
  EXPECT_EQ(P.variant, Variant::SMCentric);
  EXPECT_EQ(P.workersPerSM, 4u);
  EXPECT_EQ(P.sms, (std::vector<unsigned>{0, 1, 2, 3, 7, 5}));
  EXPECT_EQ(P.order, ChunkOrder::Interleaved);

  auto Contiguous = parseOk("k=smc(order=contiguous)");
  EXPECT_EQ(Contiguous[0].Policy.order, ChunkOrder::Contiguous);
  auto Empty = parseOk("k=smc()");
  EXPECT_EQ(Empty[0].Policy.variant, Variant::SMCentric);
}

TEST(PolicyText, SliceOptions) {
  auto Rules = parseOk("ns::scale<float>=slice(size=64)");
  ASSERT_EQ(Rules.size(), 1u);
  EXPECT_EQ(Rules[0].Name, "ns::scale<float>");
  EXPECT_EQ(Rules[0].Policy.variant, Variant::Slice);
  EXPECT_EQ(Rules[0].Policy.sliceSize, 64u);
}

TEST(PolicyText, WhitespaceAndSeparators) {
  auto Rules = parseOk("  * = smc ( workers = 2 , sms = 1 - 3 + 9 ) ;\n"
                       "\tvecAdd =original ; ");
  ASSERT_EQ(Rules.size(), 2u);
  EXPECT_EQ(Rules[0].Name, "*");
  EXPECT_EQ(Rules[0].Policy.workersPerSM, 2u);
  EXPECT_EQ(Rules[0].Policy.sms, (std::vector<unsigned>{1, 2, 3, 9}));
  EXPECT_EQ(Rules[1].Name, "vecAdd");
  EXPECT_EQ(Rules[1].Policy.variant, Variant::Original);
}

TEST(PolicyText, KernelNames) {
  auto Rules = parseOk("_Z6vecAddPKfS0_Pfi=original;"
                       "(anonymous namespace)::k=slice(size=2);"
                       "ns::k2<unsigned int, 3>=smc");
  ASSERT_EQ(Rules.size(), 3u);
  EXPECT_EQ(Rules[0].Name, "_Z6vecAddPKfS0_Pfi");
  EXPECT_EQ(Rules[1].Name, "(anonymous namespace)::k");
  EXPECT_EQ(Rules[1].Policy.sliceSize, 2u);
  // Names are stored normalized.
  EXPECT_EQ(Rules[2].Name, "ns::k2<unsigned int,3>");
}

TEST(PolicyText, ExampleErrorMessage) {
  EXPECT_EQ(parseError("vecAdd=smc(workers=x)"),
            "SMC_POLICY: in rule 'vecAdd=smc(workers=x)': 'x' is not a "
            "positive integer");
}

TEST(PolicyText, BadNumbers) {
  expectRuleError("k=smc(workers=0)", "k=smc(workers=0)", "'0'");
  expectRuleError("k=smc(workers=-1)", "k=smc(workers=-1)", "'-1'");
  expectRuleError("k=smc(workers=2.5)", "k=smc(workers=2.5)", "'2.5'");
  expectRuleError("k=smc(workers=99999999999)", "k=smc(workers=99999999999)",
                  "'99999999999' is too large");
  expectRuleError("k=slice(size=abc)", "k=slice(size=abc)",
                  "'abc' is not a positive integer");
  expectRuleError("k=slice(size=0)", "k=slice(size=0)",
                  "'0' is not a positive integer");
}

TEST(PolicyText, BadSmLists) {
  expectRuleError("k=smc(sms=a)", "k=smc(sms=a)", "'a' is not an SM id");
  expectRuleError("k=smc(sms=5-3)", "k=smc(sms=5-3)",
                  "'5-3' is not a valid SM range");
  expectRuleError("k=smc(sms=0-)", "k=smc(sms=0-)",
                  "'0-' is not a valid SM range");
  expectRuleError("k=smc(sms=1++2)", "k=smc(sms=1++2)",
                  "empty item in SM list '1++2'");
  expectRuleError("k=smc(sms=70000)", "k=smc(sms=70000)",
                  "'70000' is not an SM id");
  expectRuleError("k=smc(sms=1-x)", "k=smc(sms=1-x)", "'x' is not an SM id");
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

TEST(PolicyText, UnknownKey) {
  expectRuleError("k=smc(speed=3)", "k=smc(speed=3)", "unknown option 'speed'");
  expectRuleError("k=slice(count=3)", "k=slice(count=3)",
                  "unknown option 'count'");
}

TEST(PolicyText, DuplicateKey) {
  expectRuleError("k=smc(workers=1, workers=2)", "k=smc(workers=1, workers=2)",
                  "option 'workers' is given twice");
  expectRuleError("k=slice(size=1,size=1)", "k=slice(size=1,size=1)",
                  "option 'size' is given twice");
}

TEST(PolicyText, KeyOfOtherAction) {
  expectRuleError("k=smc(size=4)", "k=smc(size=4)",
                  "'size' is an option of slice, not of smc");
  expectRuleError("k=slice(workers=4)", "k=slice(workers=4)",
                  "'workers' is an option of smc, not of slice");
  expectRuleError("k=slice(sms=1)", "k=slice(sms=1)", "'sms'");
  expectRuleError("k=original(workers=1)", "k=original(workers=1)",
                  "unknown option 'workers' (original takes only urgent or "
                  "reserve)");
}

TEST(PolicyText, UrgentIsAFlagOfEveryAction) {
  auto Rules = parseOk("a=original(urgent); b=auto(urgent); "
                       "c=smc(workers=2, urgent); d=slice(urgent, size=8); "
                       "e=smc");
  ASSERT_EQ(Rules.size(), 5u);
  EXPECT_EQ(Rules[0].Policy.variant, Variant::Original);
  EXPECT_EQ(Rules[1].Policy.variant, Variant::Auto);
  EXPECT_EQ(Rules[2].Policy.workersPerSM, 2u);
  EXPECT_EQ(Rules[3].Policy.sliceSize, 8u);
  for (size_t I = 0; I < 4; ++I)
    EXPECT_TRUE(Rules[I].Policy.urgent) << Rules[I].Name;
  EXPECT_FALSE(Rules[4].Policy.urgent);
  expectRuleError("k=smc(urgent,urgent)", "k=smc(urgent,urgent)",
                  "option 'urgent' is given twice");
  expectRuleError("k=smc(urgent=1)", "k=smc(urgent=1)",
                  "option 'urgent' takes no value");
  expectRuleError("k=original(urgnet)", "k=original(urgnet)",
                  "option 'urgnet' has no value (expected key=value, urgent "
                  "or reserve)");
}

TEST(PolicyText, ReserveIsAFlagOfEveryAction) {
  auto Rules = parseOk("a=original(reserve); b=smc(workers=2, reserve); "
                       "c=original(urgent)");
  ASSERT_EQ(Rules.size(), 3u);
  EXPECT_TRUE(Rules[0].Policy.reserve);
  EXPECT_FALSE(Rules[0].Policy.urgent); // reserve implies urgent at launch
  EXPECT_TRUE(Rules[1].Policy.reserve);
  EXPECT_EQ(Rules[1].Policy.workersPerSM, 2u);
  EXPECT_FALSE(Rules[2].Policy.reserve);
  expectRuleError("k=original(reserve, reserve)",
                  "k=original(reserve, reserve)",
                  "option 'reserve' is given twice");
  expectRuleError("k=original(reserve=2)", "k=original(reserve=2)",
                  "option 'reserve' takes no value (write 'reserve')");
}

TEST(PolicyText, MalformedOptions) {
  expectRuleError("k=smc(workers)", "k=smc(workers)",
                  "option 'workers' has no value");
  expectRuleError("k=smc(workers=)", "k=smc(workers=)",
                  "option 'workers' has an empty value");
  expectRuleError("k=smc(=3)", "k=smc(=3)", "option '=3' has no key");
  expectRuleError("k=smc(workers=2,)", "k=smc(workers=2,)", "empty option");
}

TEST(PolicyText, EmptyName) {
  expectRuleError("=smc", "=smc", "empty kernel name");
  expectRuleError("  = original", "= original", "empty kernel name");
}

TEST(PolicyText, MissingEquals) {
  expectRuleError("vecAdd", "vecAdd", "missing '='");
  expectRuleError("a=smc; vecAdd original", "vecAdd original", "missing '='");
}

TEST(PolicyText, MissingOrUnknownAction) {
  expectRuleError("vecAdd=", "vecAdd=", "missing action");
  expectRuleError("vecAdd=fast", "vecAdd=fast", "unknown action 'fast'");
  expectRuleError("a=b=original", "a=b=original", "unknown action 'b'");
  expectRuleError("vecAdd=smc workers=2", "vecAdd=smc workers=2",
                  "unexpected 'workers=2'");
  expectRuleError("vecAdd=smc(workers=2)x", "vecAdd=smc(workers=2)x",
                  "unexpected 'x'");
}

TEST(PolicyText, UnbalancedParens) {
  expectRuleError("k=smc(workers=2", "k=smc(workers=2",
                  "unbalanced parentheses");
  expectRuleError("k=smc(workers=2))", "k=smc(workers=2))",
                  "unbalanced parentheses");
  expectRuleError("k=smc)(", "k=smc)(", "unbalanced parentheses");
}

TEST(PolicyText, EmptyRulesAndText) {
  EXPECT_NE(parseError("a=smc;;b=original").find("rule 2 of 3 is empty"),
            std::string::npos);
  EXPECT_NE(parseError("a=smc;;").find("rule 2 of 2 is empty"),
            std::string::npos);
  EXPECT_NE(parseError(";").find("empty policy"), std::string::npos);
  EXPECT_NE(parseError("").find("empty policy"), std::string::npos);
  EXPECT_NE(parseError("   ").find("empty policy"), std::string::npos);
}

TEST(PolicyText, ErrorInLaterRuleNamesThatRule) {
  expectRuleError("a=smc; b=slice(size=2); c=smc(workers=q)",
                  "c=smc(workers=q)", "'q'");
}

TEST(PolicyText, Origin) {
  std::vector<PolicyRule> Rules;
  std::string Error;
  EXPECT_FALSE(parsePolicyText("k=x", Rules, Error, "setPolicyText"));
  EXPECT_EQ(Error.rfind("setPolicyText: in rule 'k=x': ", 0), 0u) << Error;
}

TEST(PolicyText, NamedRuleBeatsStar) {
  auto Rules = parseOk("vecAdd=slice(size=1); *=original");
  const Policy *P = findPolicy(Rules, "vecAdd", "_Z6vecAddPKfS0_Pfi");
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->variant, Variant::Slice);
  P = findPolicy(Rules, "other", "_Z5otherv");
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->variant, Variant::Original);
}

TEST(PolicyText, LastOfEqualsWins) {
  auto Rules = parseOk("*=slice; *=original; k=smc(workers=1);"
                       "_Z1kv=smc(workers=2); x=original");
  const Policy *P = findPolicy(Rules, "k", "_Z1kv");
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->workersPerSM, 2u); // mangled and source names rank equal
  P = findPolicy(Rules, "y", "_Z1yv");
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->variant, Variant::Original);
}

TEST(PolicyText, MatchesByMangledOrNormalizedSourceName) {
  auto Rules = parseOk("_Z6vecAddPKfS0_Pfi=original;"
                       "ns::k2<unsigned int,3>=slice;"
                       "V<V<int>>=smc(workers=3)");
  EXPECT_NE(findPolicy(Rules, "vecAdd", "_Z6vecAddPKfS0_Pfi"), nullptr);
  const Policy *P = findPolicy(Rules, "ns::k2<unsigned int, 3>", "_Zx");
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->variant, Variant::Slice);
  P = findPolicy(Rules, "V<V<int> >", "_Zy");
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->workersPerSM, 3u);
  EXPECT_EQ(findPolicy(Rules, "vecAdd2", "_Z7vecAdd2v"), nullptr);
  EXPECT_EQ(findPolicy({}, "vecAdd", "_Z6vecAddPKfS0_Pfi"), nullptr);
}
