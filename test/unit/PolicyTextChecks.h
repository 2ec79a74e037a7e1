//===- PolicyTextChecks.h - What the policy-text tests share ----*- C++ -*-===//
//
// Parsing that must succeed, or fail with a message naming the rule and the
// bad part while leaving the rules unchanged (PolicyTextTest,
// PolicyOptionTextTest).  Failures are reported through googletest.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_UNIT_POLICYTEXTCHECKS_H
#define SMC_TEST_UNIT_POLICYTEXTCHECKS_H

#include "policy/PolicyText.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace smc::test {

inline std::vector<smc::PolicyRule> parseOk(const std::string &Text) {
  std::vector<smc::PolicyRule> Rules;
  std::string Error;
  EXPECT_TRUE(parsePolicyText(Text, Rules, Error)) << Error;
  EXPECT_TRUE(Error.empty()) << Error;
  return Rules;
}

// Parses text that must fail; returns the error message.
inline std::string parseError(const std::string &Text) {
  std::vector<smc::PolicyRule> Rules = {{"sentinel", smc::Policy::slice(3)}};
  std::string Error;
  EXPECT_FALSE(parsePolicyText(Text, Rules, Error)) << Text;
  // A failed parse changes nothing.
  EXPECT_EQ(Rules.size(), 1u);
  EXPECT_EQ(Rules[0].Name, "sentinel");
  EXPECT_FALSE(Error.empty());
  return Error;
}

// The message names the rule and the bad part.
inline void expectRuleError(const std::string &Text, const std::string &Rule,
                            const std::string &BadPart) {
  std::string Error = parseError(Text);
  EXPECT_EQ(Error.rfind("SMC_POLICY: in rule '" + Rule + "': ", 0), 0u)
      << Error;
  EXPECT_NE(Error.find(BadPart), std::string::npos)
      << "error '" << Error << "' does not name '" << BadPart << "'";
}

} // namespace smc::test

#endif // SMC_TEST_UNIT_POLICYTEXTCHECKS_H
