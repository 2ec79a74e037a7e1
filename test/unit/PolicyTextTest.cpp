//===- PolicyTextTest.cpp - Tests of the SMC_POLICY grammar ---------------===//
//
// Every action and option parses to the policy it names; every class of
// error is rejected with a message naming the rule and the bad part, and
// leaves the rules unchanged; rule matching prefers named rules and the last
// of equals.
//===----------------------------------------------------------------------===//
#include "PolicyTextChecks.h"

using namespace smc;
using namespace smc::test;

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
                  "unknown option 'workers' (auto takes only urgent, "
                  "reserve or p99)");
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
                  "unknown option 'order' (locality takes only urgent, "
                  "reserve or p99)");
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
                  "unknown option 'workers' (original takes only urgent, "
                  "reserve or p99)");
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
                  "option 'urgnet' has no value (expected key=value, urgent, "
                  "reserve or p99=...)");
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
