//===- PolicyText.cpp - The SMC_POLICY grammar ----------------------------===//
//
// Parser of policy text into rules, and the rule lookup for a kernel.  Every
// error names the rule and the part of it that is wrong.  See PolicyText.h
// for the grammar.
//===----------------------------------------------------------------------===//
#include "policy/PolicyText.h"
#include "base/Text.h"

#include "base/KernelName.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>

namespace smc {
namespace {

// Parses one rule; reports errors as "<origin>: in rule '<rule>': <what>".
class RuleParser {
public:
  RuleParser(const std::string &Rule, const std::string &Origin,
             std::string &Error)
      : Rule(Rule), Origin(Origin), Error(Error) {}

  bool parse(PolicyRule &Out) {
    if (!checkParens())
      return false;
    size_t Eq = firstTopLevelEquals();
    if (Eq == std::string::npos)
      return fail("missing '=' between kernel name and action");
    std::string Name = trim(Rule.substr(0, Eq));
    std::string Action = trim(Rule.substr(Eq + 1));
    if (Name.empty())
      return fail("empty kernel name before '='");
    if (Name.find('=') != std::string::npos)
      return fail("kernel name '" + Name + "' contains '='");
    if (Action.empty())
      return fail("missing action after '=' (expected original, smc, slice, "
                  "auto, locality or remap)");
    Out.Name = Name == "*" ? Name : normalizeKernelName(Name);
    return parseAction(Action, Out.Policy);
  }

private:
  const std::string &Rule;
  const std::string &Origin;
  std::string &Error;

  bool fail(const std::string &What) {
    Error = Origin + ": in rule '" + Rule + "': " + What;
    return false;
  }

  bool checkParens() {
    int Depth = 0;
    for (char C : Rule) {
      if (C == '(') {
        ++Depth;
      } else if (C == ')') {
        if (--Depth < 0)
          return fail("unbalanced parentheses: ')' without a matching '('");
      }
    }
    if (Depth != 0)
      return fail("unbalanced parentheses: '(' is never closed");
    return true;
  }

  // The '=' that separates name and action: the first one outside
  // parentheses (a kernel name such as "(anonymous namespace)::k" has
  // balanced ones; option values come after it).
  size_t firstTopLevelEquals() const {
    int Depth = 0;
    for (size_t I = 0; I < Rule.size(); ++I) {
      char C = Rule[I];
      if (C == '(')
        ++Depth;
      else if (C == ')')
        --Depth;
      else if (C == '=' && Depth == 0)
        return I;
    }
    return std::string::npos;
  }

  bool parseAction(const std::string &Action, Policy &Policy) {
    size_t IdentEnd = 0;
    while (IdentEnd < Action.size() &&
           (std::isalnum(static_cast<unsigned char>(Action[IdentEnd])) ||
            Action[IdentEnd] == '_'))
      ++IdentEnd;
    std::string Ident = Action.substr(0, IdentEnd);
    std::string Rest = trim(Action.substr(IdentEnd));

    if (Ident == "original") {
      Policy = Policy::original();
    } else if (Ident == "smc") {
      Policy = Policy::smCentric();
    } else if (Ident == "slice") {
      Policy = Policy::slice(0);
    } else if (Ident == "auto") {
      Policy = Policy::automatic();
    } else if (Ident == "locality") {
      Policy = Policy::locality();
    } else if (Ident == "remap") {
      Policy = Policy::remap();
    } else {
      std::string Shown = Ident.empty() ? Action : Ident;
      return fail("unknown action '" + Shown +
                  "' (expected original, smc, slice, auto, locality or "
                  "remap)");
    }
    if (Rest.empty())
      return true;
    if (Rest.front() != '(')
      return fail("unexpected '" + Rest + "' after action '" + Ident + "'");
    // Parentheses are balanced, so the first '(' has a matching ')'.
    size_t Close = matchingParen(Rest, 0);
    if (Close + 1 != Rest.size())
      return fail("unexpected '" + trim(Rest.substr(Close + 1)) +
                  "' after the options of '" + Ident + "'");
    std::string Inner = Rest.substr(1, Close - 1);
    if (trim(Inner).empty())
      return true; // "smc()" is "smc"
    return parseOptions(Ident, Inner, Policy);
  }

  // `S` split at every ',' outside parentheses (order=cluster(x,4) is one
  // option); empty pieces are kept.
  static std::vector<std::string> splitTopLevel(const std::string &S) {
    std::vector<std::string> Parts(1);
    int Depth = 0;
    for (char C : S) {
      Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
      if (C == ',' && Depth == 0)
        Parts.emplace_back();
      else
        Parts.back() += C;
    }
    return Parts;
  }

  static size_t matchingParen(const std::string &S, size_t Open) {
    int Depth = 0;
    for (size_t I = Open; I < S.size(); ++I) {
      if (S[I] == '(')
        ++Depth;
      else if (S[I] == ')' && --Depth == 0)
        return I;
    }
    return std::string::npos;
  }

  bool parseOptions(const std::string &Action, const std::string &Inner,
                    Policy &Policy) {
    bool IsSmc = Action == "smc", IsSlice = Action == "slice";
    bool IsRemap = Action == "remap";
    const char *KeysOfAction =
        IsSmc     ? "workers, sms, order, urgent, reserve or p99"
        : IsSlice ? "size, urgent, reserve or p99"
        : IsRemap ? "ratio, keys, control, urgent, reserve or p99"
                  : "only urgent, reserve or p99";
    std::set<std::string> Seen;
    for (const std::string &RawOption : splitTopLevel(Inner)) {
      std::string Option = trim(RawOption);
      if (Option.empty())
        return fail("empty option in '" + Action + "(" + Inner + ")'");
      if (Option == "urgent" || Option == "reserve") { // flags, of every action
        if (!Seen.insert(Option).second)
          return fail("option '" + Option + "' is given twice");
        (Option == "urgent" ? Policy.urgent : Policy.reserve) = true;
        continue;
      }
      size_t Eq = Option.find('=');
      if (Eq == std::string::npos)
        return fail("option '" + Option + "' has no value (expected " +
                    "key=value, urgent, reserve or p99=...)");
      std::string Key = trim(Option.substr(0, Eq));
      std::string Value = trim(Option.substr(Eq + 1));
      if (Key.empty())
        return fail("option '" + Option + "' has no key");
      if (Key == "urgent" || Key == "reserve")
        return fail("option '" + Key + "' takes no value (write '" + Key +
                    "')");
      if (Key == "p99") { // of every action
        if (!Seen.insert(Key).second)
          return fail("option 'p99' is given twice");
        if (!parseLatencyTarget(Value, Policy))
          return false;
        continue;
      }
      bool SmcKey = Key == "workers" || Key == "sms" || Key == "order";
      bool SliceKey = Key == "size";
      bool RemapKey = Key == "ratio" || Key == "keys" || Key == "control";
      if (RemapKey && IsRemap) {
        if (!Seen.insert(Key).second)
          return fail("option '" + Key + "' is given twice");
        if (!parseRemapValue(Key, Value, Policy))
          return false;
        continue;
      }
      if ((!SmcKey && !SliceKey) || (!IsSmc && !IsSlice))
        return fail("unknown option '" + Key + "' (" + Action + " takes " +
                    KeysOfAction + ")");
      if (IsSmc ? SliceKey : SmcKey)
        return fail("'" + Key + "' is an option of " +
                    (IsSmc ? "slice" : "smc") + ", not of " + Action);
      if (!Seen.insert(Key).second)
        return fail("option '" + Key + "' is given twice");
      if (Value.empty())
        return fail("option '" + Key + "' has an empty value");
      if (!parseValue(Key, Value, Policy))
        return false;
    }
    if (Policy.reserve && (Policy.p99Ratio > 0 || Policy.p99Micros > 0))
      return fail("options 'reserve' and 'p99' together: a p99 target "
                  "chooses between taking SMs and keeping room (give it "
                  "without 'reserve')");
    return true;
  }

  bool parseValue(const std::string &Key, const std::string &Value,
                  Policy &Policy) {
    if (Key == "workers" || Key == "size") {
      unsigned N = 0;
      if (!parsePositive(Value, N))
        return false;
      (Key == "workers" ? Policy.workersPerSM : Policy.sliceSize) = N;
      return true;
    }
    if (Key == "order") {
      if (Value == "contiguous") {
        Policy.order = ChunkOrder::Contiguous;
      } else if (Value == "interleaved") {
        Policy.order = ChunkOrder::Interleaved;
      } else if (Value == "table") {
        return fail("order 'table' needs a chunk table: use smc::Policy "
                    "with ChunkOrder::Table from C++");
      } else if (Value.compare(0, 7, "cluster") == 0 &&
                 (Value.size() == 7 || Value[7] == '(' || isSpace(Value[7]))) {
        return parseCluster(Value, Policy);
      } else {
        return fail("'" + Value +
                    "' is not a chunk order (expected contiguous, "
                    "interleaved or cluster(x|y|tile[,N|WxH]))");
      }
      return true;
    }
    return parseSmList(Value, Policy.sms);
  }

  // p99=<ratio>x (over the fastest launch, above 1) or p99=<micros>us.
  bool parseLatencyTarget(const std::string &Value, Policy &Policy) {
    auto Bad = [&] {
      return fail("'" + Value +
                  "' is not a p99 target (expected a ratio over the "
                  "fastest launch such as 1.5x, above 1, or a time such "
                  "as 120us)");
    };
    bool Ratio = Value.size() > 1 && Value.back() == 'x';
    bool Micros =
        Value.size() > 2 && Value.compare(Value.size() - 2, 2, "us") == 0;
    if (!Ratio && !Micros)
      return Bad();
    std::string Number = Value.substr(0, Value.size() - (Ratio ? 1 : 2));
    char *End = nullptr;
    double N = std::strtod(Number.c_str(), &End);
    if (Number.empty() || isSpace(Number[0]) || *End != '\0' ||
        !std::isfinite(N) || (Ratio ? !(N > 1) : !(N > 0)))
      return Bad();
    (Ratio ? Policy.p99Ratio : Policy.p99Micros) = N;
    return true;
  }

  // remap's ratio=R (0 < R <= 1), keys=inspector|random,
  // control=adaptive|always.
  bool parseRemapValue(const std::string &Key, const std::string &Value,
                       Policy &Policy) {
    if (Key == "ratio") {
      char *End = nullptr;
      double R = Value.empty() ? 0 : std::strtod(Value.c_str(), &End);
      if (Value.empty() || *End != '\0' || !(R > 0 && R <= 1))
        return fail("'" + Value +
                    "' is not a remap ratio (expected a number in (0, 1])");
      Policy.remapRatio = R;
    } else if (Key == "keys") {
      if (Value == "inspector")
        Policy.remapKeys = RemapKeys::Inspector;
      else if (Value == "random")
        Policy.remapKeys = RemapKeys::Random;
      else
        return fail("'" + Value +
                    "' is not a source of remap keys (expected inspector or "
                    "random)");
    } else if (Value == "adaptive") {
      Policy.remapControl = RemapControl::Adaptive;
    } else if (Value == "always") {
      Policy.remapControl = RemapControl::Always;
    } else {
      return fail("'" + Value +
                  "' is not a remap control (expected adaptive or always)");
    }
    return true;
  }

  // order=cluster(DIR[,SIZE]): DIR is x, y or tile; SIZE is N chunks, or
  // for tile also WxH.
  bool parseCluster(const std::string &Value, Policy &Policy) {
    const char *Expected = "expected cluster(x|y|tile[,N]) or "
                           "cluster(tile,WxH), e.g. cluster(tile,4x2)";
    std::string Rest = trim(Value.substr(7));
    if (Rest.empty())
      return fail("order 'cluster' needs a direction (" +
                  std::string(Expected) + ")");
    if (Rest.front() != '(')
      return fail("unexpected '" + Rest + "' after order 'cluster' (" +
                  Expected + ")");
    // Parentheses are balanced, so the first '(' has a matching ')'.
    size_t Close = matchingParen(Rest, 0);
    std::string Shown = "cluster" + Rest.substr(0, Close + 1);
    if (Close + 1 != Rest.size())
      return fail("unexpected '" + trim(Rest.substr(Close + 1)) + "' after '" +
                  Shown + "'");
    std::vector<std::string> Args = split(Rest.substr(1, Close - 1), ',');
    if (Args.size() > 2)
      return fail("too many arguments in '" + Shown + "' (" + Expected + ")");
    std::string Dir = trim(Args[0]);
    if (Dir.empty())
      return fail("'" + Shown + "' names no direction (" + Expected + ")");
    if (Dir == "x") {
      Policy.clusterDir = ClusterDir::X;
    } else if (Dir == "y") {
      Policy.clusterDir = ClusterDir::Y;
    } else if (Dir == "tile") {
      Policy.clusterDir = ClusterDir::Tile;
    } else {
      return fail("'" + Dir + "' in '" + Shown +
                  "' is not a cluster direction (expected x, y or tile)");
    }
    Policy.order = ChunkOrder::Cluster;
    Policy.clusterSize = Policy.clusterWidth = Policy.clusterHeight = 0;
    if (Args.size() == 1)
      return true;
    std::string Size = trim(Args[1]);
    if (Size.empty())
      return fail("empty cluster size in '" + Shown + "' (" + Expected + ")");
    // A bad number names the cluster it belongs to.
    auto InCluster = [&](bool Ok) {
      if (!Ok)
        Error += " (the cluster size in '" + Shown + "')";
      return Ok;
    };
    size_t Times = Size.find('x');
    if (Times == std::string::npos)
      return InCluster(parsePositive(Size, Policy.clusterSize));
    if (Policy.clusterDir != ClusterDir::Tile)
      return fail("'" + Size + "' in '" + Shown +
                  "' is a tile shape: only cluster(tile,WxH) takes one");
    std::string Width = trim(Size.substr(0, Times));
    std::string Height = trim(Size.substr(Times + 1));
    if (Width.empty() || Height.empty())
      return fail("'" + Size + "' in '" + Shown +
                  "' is not a tile shape (expected WxH, e.g. 4x2)");
    if (!InCluster(parsePositive(Width, Policy.clusterWidth)) ||
        !InCluster(parsePositive(Height, Policy.clusterHeight)))
      return false;
    if (uint64_t(Policy.clusterWidth) * Policy.clusterHeight > UINT32_MAX)
      return fail("the tile " + Size + " in '" + Shown + "' has more than " +
                  std::to_string(UINT32_MAX) + " chunks");
    return true;
  }

  bool parsePositive(const std::string &Text, unsigned &Out) {
    uint64_t N = 0;
    bool Digits = !Text.empty() &&
                  Text.find_first_not_of("0123456789") == std::string::npos;
    if (!Digits || (parseNumber(Text, UINT32_MAX, N) && N == 0))
      return fail("'" + Text + "' is not a positive integer");
    if (!parseNumber(Text, UINT32_MAX, N))
      return fail("'" + Text + "' is too large (at most " +
                  std::to_string(UINT32_MAX) + ")");
    Out = static_cast<unsigned>(N);
    return true;
  }

  bool parseSmId(const std::string &Text, unsigned &Id) {
    uint64_t N = 0;
    if (!parseNumber(Text, MaxPolicySmId, N))
      return fail("'" + Text + "' is not an SM id (a number from 0 to " +
                  std::to_string(MaxPolicySmId) + ")");
    Id = static_cast<unsigned>(N);
    return true;
  }

  bool parseSmList(const std::string &Value, std::vector<unsigned> &Sms) {
    Sms.clear();
    for (const std::string &RawItem : split(Value, '+')) {
      std::string Item = trim(RawItem);
      if (Item.empty())
        return fail("empty item in SM list '" + Value + "'");
      size_t Dash = Item.find('-');
      if (Dash == std::string::npos) {
        unsigned Id = 0;
        if (!parseSmId(Item, Id))
          return false;
        Sms.push_back(Id);
        continue;
      }
      std::string FirstText = trim(Item.substr(0, Dash));
      std::string LastText = trim(Item.substr(Dash + 1));
      if (FirstText.empty() || LastText.empty())
        return fail("'" + Item + "' is not a valid SM range (expected A-B)");
      unsigned First = 0, Last = 0;
      if (!parseSmId(FirstText, First) || !parseSmId(LastText, Last))
        return false;
      if (First > Last)
        return fail("'" + Item + "' is not a valid SM range (" +
                    std::to_string(First) + " > " + std::to_string(Last) + ")");
      for (unsigned Id = First; Id <= Last; ++Id)
        Sms.push_back(Id);
    }
    return true;
  }
};

} // namespace

const char *chunkOrderName(ChunkOrder Order) {
  switch (Order) {
  case ChunkOrder::Interleaved:
    return "interleaved";
  case ChunkOrder::Contiguous:
    return "contiguous";
  case ChunkOrder::Table:
    return "table";
  case ChunkOrder::Cluster:
    return "cluster";
  }
  return "unknown";
}

bool parsePolicyText(const std::string &Text, std::vector<PolicyRule> &Rules,
                     std::string &Error, const std::string &Origin) {
  std::vector<std::string> Pieces = split(Text, ';');
  // One trailing ';' is allowed.
  if (Pieces.size() > 1 && trim(Pieces.back()).empty())
    Pieces.pop_back();
  if (Pieces.size() == 1 && trim(Pieces[0]).empty()) {
    Error = Origin + ": empty policy (expected name=action rules separated "
                     "by ';')";
    return false;
  }

  std::vector<PolicyRule> Parsed;
  for (size_t I = 0; I < Pieces.size(); ++I) {
    std::string Rule = trim(Pieces[I]);
    if (Rule.empty()) {
      Error = Origin + ": rule " + std::to_string(I + 1) + " of " +
              std::to_string(Pieces.size()) + " is empty (two ';' in a row?)";
      return false;
    }
    PolicyRule Out;
    if (!RuleParser(Rule, Origin, Error).parse(Out))
      return false;
    Parsed.push_back(std::move(Out));
  }
  Rules = std::move(Parsed);
  return true;
}

const Policy *findPolicy(const std::vector<PolicyRule> &Rules,
                         const std::string &SourceName,
                         const std::string &MangledName) {
  std::string Source = normalizeKernelName(SourceName);
  const Policy *Named = nullptr;
  const Policy *Star = nullptr;
  for (const PolicyRule &Rule : Rules) {
    if (Rule.Name == "*")
      Star = &Rule.Policy;
    else if (Rule.Name == Source || Rule.Name == MangledName)
      Named = &Rule.Policy;
  }
  return Named ? Named : Star;
}

} // namespace smc
