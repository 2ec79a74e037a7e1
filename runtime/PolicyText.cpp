//===- PolicyText.cpp - The SMC_POLICY grammar ----------------------------===//
//
// Parser of policy text into rules, and the rule lookup for a kernel.  Every
// error names the rule and the part of it that is wrong.  See PolicyText.h
// for the grammar.
//===----------------------------------------------------------------------===//
#include "PolicyText.h"

#include "KernelName.h"

#include <cctype>
#include <cstdint>
#include <set>

namespace smc {
namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

std::string trim(const std::string &s) {
  size_t b = 0, e = s.size();
  while (b < e && isSpace(s[b]))
    ++b;
  while (e > b && isSpace(s[e - 1]))
    --e;
  return s.substr(b, e - b);
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  size_t begin = 0;
  for (;;) {
    size_t end = s.find(sep, begin);
    if (end == std::string::npos) {
      parts.push_back(s.substr(begin));
      return parts;
    }
    parts.push_back(s.substr(begin, end - begin));
    begin = end + 1;
  }
}

// Parses a decimal number made of digits only; false if empty, not all
// digits or above `max`.
bool parseNumber(const std::string &s, uint64_t max, uint64_t &value) {
  if (s.empty())
    return false;
  value = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
    if (value > max)
      return false;
  }
  return true;
}

// Parses one rule; reports errors as "<origin>: in rule '<rule>': <what>".
class RuleParser {
public:
  RuleParser(const std::string &rule, const std::string &origin,
             std::string &error)
      : Rule(rule), Origin(origin), Error(error) {}

  bool parse(PolicyRule &out) {
    if (!checkParens())
      return false;
    size_t eq = firstTopLevelEquals();
    if (eq == std::string::npos)
      return fail("missing '=' between kernel name and action");
    std::string name = trim(Rule.substr(0, eq));
    std::string action = trim(Rule.substr(eq + 1));
    if (name.empty())
      return fail("empty kernel name before '='");
    if (name.find('=') != std::string::npos)
      return fail("kernel name '" + name + "' contains '='");
    if (action.empty())
      return fail("missing action after '=' (expected original, smc or "
                  "slice)");
    out.name = name == "*" ? name : normalizeKernelName(name);
    return parseAction(action, out.policy);
  }

private:
  const std::string &Rule;
  const std::string &Origin;
  std::string &Error;

  bool fail(const std::string &what) {
    Error = Origin + ": in rule '" + Rule + "': " + what;
    return false;
  }

  bool checkParens() {
    int depth = 0;
    for (char c : Rule) {
      if (c == '(') {
        ++depth;
      } else if (c == ')') {
        if (--depth < 0)
          return fail("unbalanced parentheses: ')' without a matching '('");
      }
    }
    if (depth != 0)
      return fail("unbalanced parentheses: '(' is never closed");
    return true;
  }

  // The '=' that separates name and action: the first one outside
  // parentheses (a kernel name such as "(anonymous namespace)::k" has
  // balanced ones; option values come after it).
  size_t firstTopLevelEquals() const {
    int depth = 0;
    for (size_t i = 0; i < Rule.size(); ++i) {
      char c = Rule[i];
      if (c == '(')
        ++depth;
      else if (c == ')')
        --depth;
      else if (c == '=' && depth == 0)
        return i;
    }
    return std::string::npos;
  }

  bool parseAction(const std::string &action, Policy &policy) {
    size_t identEnd = 0;
    while (identEnd < action.size() &&
           (std::isalnum(static_cast<unsigned char>(action[identEnd])) ||
            action[identEnd] == '_'))
      ++identEnd;
    std::string ident = action.substr(0, identEnd);
    std::string rest = trim(action.substr(identEnd));

    if (ident == "original") {
      policy = Policy::original();
    } else if (ident == "smc") {
      policy = Policy::smCentric();
    } else if (ident == "slice") {
      policy = Policy::slice(0);
    } else {
      std::string shown = ident.empty() ? action : ident;
      return fail("unknown action '" + shown +
                  "' (expected original, smc or slice)");
    }
    if (rest.empty())
      return true;
    if (rest.front() != '(')
      return fail("unexpected '" + rest + "' after action '" + ident + "'");
    // Parentheses are balanced, so the first '(' has a matching ')'.
    size_t close = matchingParen(rest, 0);
    if (close + 1 != rest.size())
      return fail("unexpected '" + trim(rest.substr(close + 1)) +
                  "' after the options of '" + ident + "'");
    if (ident == "original")
      return fail("'original' takes no options");
    std::string inner = rest.substr(1, close - 1);
    if (trim(inner).empty())
      return true; // "smc()" is "smc"
    return parseOptions(ident, inner, policy);
  }

  static size_t matchingParen(const std::string &s, size_t open) {
    int depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
      if (s[i] == '(')
        ++depth;
      else if (s[i] == ')' && --depth == 0)
        return i;
    }
    return std::string::npos;
  }

  bool parseOptions(const std::string &action, const std::string &inner,
                    Policy &policy) {
    bool isSmc = action == "smc";
    const char *keysOfAction = isSmc ? "workers, sms or order" : "size";
    std::set<std::string> seen;
    for (const std::string &rawOption : split(inner, ',')) {
      std::string option = trim(rawOption);
      if (option.empty())
        return fail("empty option in '" + action + "(" + inner + ")'");
      size_t eq = option.find('=');
      if (eq == std::string::npos)
        return fail("option '" + option + "' has no value (expected " +
                    "key=value)");
      std::string key = trim(option.substr(0, eq));
      std::string value = trim(option.substr(eq + 1));
      if (key.empty())
        return fail("option '" + option + "' has no key");
      bool smcKey = key == "workers" || key == "sms" || key == "order";
      bool sliceKey = key == "size";
      if (!smcKey && !sliceKey)
        return fail("unknown option '" + key + "' (" + action + " takes " +
                    keysOfAction + ")");
      if (isSmc ? sliceKey : smcKey)
        return fail("'" + key + "' is an option of " +
                    (isSmc ? "slice" : "smc") + ", not of " + action);
      if (!seen.insert(key).second)
        return fail("option '" + key + "' is given twice");
      if (value.empty())
        return fail("option '" + key + "' has an empty value");
      if (!parseValue(key, value, policy))
        return false;
    }
    return true;
  }

  bool parseValue(const std::string &key, const std::string &value,
                  Policy &policy) {
    if (key == "workers" || key == "size") {
      unsigned n = 0;
      if (!parsePositive(value, n))
        return false;
      (key == "workers" ? policy.workersPerSM : policy.sliceSize) = n;
      return true;
    }
    if (key == "order") {
      if (value == "contiguous") {
        policy.order = ChunkOrder::Contiguous;
      } else if (value == "interleaved") {
        policy.order = ChunkOrder::Interleaved;
      } else if (value == "table") {
        return fail("order 'table' needs a chunk table: use smc::Policy "
                    "with ChunkOrder::Table from C++");
      } else {
        return fail("'" + value +
                    "' is not a chunk order (expected contiguous or "
                    "interleaved)");
      }
      return true;
    }
    return parseSmList(value, policy.sms);
  }

  bool parsePositive(const std::string &text, unsigned &out) {
    uint64_t n = 0;
    bool digits = !text.empty() &&
                  text.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || (parseNumber(text, UINT32_MAX, n) && n == 0))
      return fail("'" + text + "' is not a positive integer");
    if (!parseNumber(text, UINT32_MAX, n))
      return fail("'" + text + "' is too large (at most " +
                  std::to_string(UINT32_MAX) + ")");
    out = static_cast<unsigned>(n);
    return true;
  }

  bool parseSmId(const std::string &text, unsigned &id) {
    uint64_t n = 0;
    if (!parseNumber(text, kMaxPolicySmId, n))
      return fail("'" + text + "' is not an SM id (a number from 0 to " +
                  std::to_string(kMaxPolicySmId) + ")");
    id = static_cast<unsigned>(n);
    return true;
  }

  bool parseSmList(const std::string &value, std::vector<unsigned> &sms) {
    sms.clear();
    for (const std::string &rawItem : split(value, '+')) {
      std::string item = trim(rawItem);
      if (item.empty())
        return fail("empty item in SM list '" + value + "'");
      size_t dash = item.find('-');
      if (dash == std::string::npos) {
        unsigned id = 0;
        if (!parseSmId(item, id))
          return false;
        sms.push_back(id);
        continue;
      }
      std::string firstText = trim(item.substr(0, dash));
      std::string lastText = trim(item.substr(dash + 1));
      if (firstText.empty() || lastText.empty())
        return fail("'" + item + "' is not a valid SM range (expected A-B)");
      unsigned first = 0, last = 0;
      if (!parseSmId(firstText, first) || !parseSmId(lastText, last))
        return false;
      if (first > last)
        return fail("'" + item + "' is not a valid SM range (" +
                    std::to_string(first) + " > " + std::to_string(last) + ")");
      for (unsigned id = first; id <= last; ++id)
        sms.push_back(id);
    }
    return true;
  }
};

} // namespace

bool parsePolicyText(const std::string &text, std::vector<PolicyRule> &rules,
                     std::string &error, const std::string &origin) {
  std::vector<std::string> pieces = split(text, ';');
  // One trailing ';' is allowed.
  if (pieces.size() > 1 && trim(pieces.back()).empty())
    pieces.pop_back();
  if (pieces.size() == 1 && trim(pieces[0]).empty()) {
    error = origin + ": empty policy (expected name=action rules separated "
                     "by ';')";
    return false;
  }

  std::vector<PolicyRule> parsed;
  for (size_t i = 0; i < pieces.size(); ++i) {
    std::string rule = trim(pieces[i]);
    if (rule.empty()) {
      error = origin + ": rule " + std::to_string(i + 1) + " of " +
              std::to_string(pieces.size()) + " is empty (two ';' in a row?)";
      return false;
    }
    PolicyRule out;
    if (!RuleParser(rule, origin, error).parse(out))
      return false;
    parsed.push_back(std::move(out));
  }
  rules = std::move(parsed);
  return true;
}

const Policy *findPolicy(const std::vector<PolicyRule> &rules,
                         const std::string &sourceName,
                         const std::string &mangledName) {
  std::string source = normalizeKernelName(sourceName);
  const Policy *named = nullptr;
  const Policy *star = nullptr;
  for (const PolicyRule &rule : rules) {
    if (rule.name == "*")
      star = &rule.policy;
    else if (rule.name == source || rule.name == mangledName)
      named = &rule.policy;
  }
  return named ? named : star;
}

} // namespace smc
