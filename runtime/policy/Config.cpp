//===- Config.cpp - Every SMC_* environment variable, read once -----------===//
//
// readConfig() checks each variable's value (see Config.h); config() runs
// it once on the process's environment and prints its messages.
//===----------------------------------------------------------------------===//
#include "policy/Config.h"

#include "base/Messages.h"
#include "base/Text.h"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace smc {

bool parsePriorityMode(const std::string &Text, PriorityMode &Mode,
                       std::string &Error) {
  std::string Word;
  for (char C : Text)
    if (!isSpace(C))
      Word += char(std::tolower(static_cast<unsigned char>(C)));
  if (Word == "auto")
    Mode = PriorityMode::Auto;
  else if (Word == "on")
    Mode = PriorityMode::On;
  else if (Word == "off")
    Mode = PriorityMode::Off;
  else {
    Error = "'" + Text + "' is not one of auto, on, off";
    return false;
  }
  return true;
}

Config readConfig(const std::function<const char *(const char *)> &Lookup,
                  std::vector<std::string> &Messages) {
  Config C;
  // The value of `Name`, or "" when it is unset.
  auto Value = [&](const char *Name) -> std::string {
    const char *V = Lookup(Name);
    return V ? V : "";
  };

  std::string Disable = Value("SMC_DISABLE");
  C.Disabled = !Disable.empty() && Disable != "0";

  std::string PolicyText = Value("SMC_POLICY");
  if (!trim(PolicyText).empty()) {
    std::string Error;
    if (!parsePolicyText(PolicyText, C.PolicyRules, Error)) {
      C.PolicyBroken = true;
      Messages.push_back(Error + "; every kernel runs the original");
    }
  }

  C.StatsPath = Value("SMC_STATS");
  C.TracePath = Value("SMC_TRACE");
  if (std::string Records = Value("SMC_TRACE_RECORDS"); !Records.empty()) {
    uint64_t Number = 0;
    if (parseNumber(Records, Config::MaxTraceRecords, Number) && Number != 0)
      C.TraceRecords = uint32_t(Number);
    else
      Messages.push_back("SMC_TRACE_RECORDS: '" + Records +
                         "' is not a number of records from 1 to 2^27; "
                         "using 2^20");
  }

  if (std::string Priority = Value("SMC_PRIORITY"); !Priority.empty()) {
    std::string Error;
    if (!parsePriorityMode(Priority, C.Priority, Error)) {
      C.Priority = PriorityMode::Auto;
      Messages.push_back("SMC_PRIORITY: " + Error + "; using auto");
    }
  }

  C.ProfilePath = Value("SMC_PROFILE");
  C.ProfileRecordPath = Value("SMC_PROFILE_RECORD");
  // A switch: on or off; anything else keeps Field's default, told.
  auto OnOff = [&](const char *Name, bool &Field) {
    std::string Text = Value(Name);
    if (Text == "on" || Text == "off")
      Field = Text == "on";
    else if (!Text.empty())
      Messages.push_back(std::string(Name) + ": '" + Text +
                         "' is not one of on, off; using " +
                         (Field ? "on" : "off"));
  };
  OnOff("SMC_AUTO_SEARCH", C.AutoSearch);
  OnOff("SMC_TENANTS", C.Tenants);
  if (std::string Layouts = Value("SMC_GRAPH_LAYOUTS"); !Layouts.empty()) {
    if (Layouts == "off")
      C.GraphLayoutMode = GraphLayouts::Off;
    else if (Layouts == "search")
      C.GraphLayoutMode = GraphLayouts::Search;
    else if (Layouts == "random")
      C.GraphLayoutMode = GraphLayouts::Random;
    else
      Messages.push_back("SMC_GRAPH_LAYOUTS: '" + Layouts +
                         "' is not one of off, search, random; using off");
  }
  return C;
}

const Config &config() {
  static const Config *Instance = [] {
    std::vector<std::string> Messages;
    auto *C = new Config(readConfig(
        [](const char *Name) { return std::getenv(Name); }, Messages));
    for (const std::string &Message : Messages)
      tell(Message);
    return C;
  }();
  return *Instance;
}

} // namespace smc
