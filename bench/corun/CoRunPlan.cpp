//===- CoRunPlan.cpp - smc_corun_bench's modes and command line -----------===//
//
// See CoRunPlan.h.  The groups of --pairs, the modes, the usage and the
// options; the workloads and default groups are in CoRunGroups.cpp, the
// splits in CoRunSplits.cpp.
//===----------------------------------------------------------------------===//
#include "CoRunPlan.h"

#include "base/Text.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

namespace smc::corun {

namespace {

// A count of at most Max.
bool parseUnsigned(const std::string &Text, unsigned Max, unsigned &Value) {
  uint64_t Number = 0;
  if (!parseNumber(Text, Max, Number))
    return false;
  Value = unsigned(Number);
  return true;
}

bool parsePositive(const std::string &Text, double &Value) {
  char *End = nullptr;
  Value = std::strtod(Text.c_str(), &End);
  return !Text.empty() && End == Text.c_str() + Text.size() &&
         std::isfinite(Value) && Value > 0;
}

} // namespace

bool parseGroups(const std::string &Text, std::vector<WorkloadGroup> &Groups,
                 std::string &Error) {
  std::vector<WorkloadGroup> Out;
  for (const std::string &Piece : split(Text, ',')) {
    std::vector<std::string> Names = split(Piece, '+');
    bool Empty = std::any_of(Names.begin(), Names.end(),
                             [](const std::string &N) { return N.empty(); });
    if (Names.size() < MinGroupSize || Empty) {
      Error = "'" + Piece + "' is not a group (write a+b, a+b+c or up to " +
              std::to_string(MaxGroupSize) + " workloads joined by +)";
      return false;
    }
    if (Names.size() > MaxGroupSize) {
      Error = "'" + Piece + "' has " + std::to_string(Names.size()) +
              " workloads; a group has " + std::to_string(MinGroupSize) +
              " to " + std::to_string(MaxGroupSize);
      return false;
    }
    for (const std::string &Name : Names)
      if (!findClassified(Name)) {
        Error = "'" + Name + "' in '" + Piece +
                "' is not a workload the harness co-runs (--list shows them)";
        return false;
      }
    for (size_t I = 0; I < Names.size(); ++I)
      if (std::find(Names.begin(), Names.begin() + I, Names[I]) !=
          Names.begin() + I) {
        Error = "'" + Piece + "' has " + Names[I] + " twice";
        return false;
      }
    Out.push_back(WorkloadGroup(std::move(Names)));
  }
  Groups = std::move(Out);
  return true;
}

const std::vector<std::string> &allModes() {
  static const std::vector<std::string> List = {
      "serial",       "streams",         "priority",      "green",
      "smc-shared",   "smc-oracle",      "smc-scheduler", "smc-trials",
      "batch-search", "batch-turnaround"};
  return List;
}

std::string usage() {
  return "usage: smc_corun_bench [--pairs=a+b,c+d+e] [--triples] "
         "[--modes=m1,m2]\n"
         "         [--quick] [--out=FILE] [--rounds=N] [--target-ms=X]\n"
         "         [--split-step=N] [--workers=0,1,2,4] [--sweep-s=X]\n"
         "         [--check=once|pair] [--budget-s=X] [--list]\n"
         "--pairs: groups of 2 to 4 workloads (a+b, a+b+c), default: the 24 "
         "pairs\n"
         "--triples: the 8 default triples instead of the pairs\n"
         "modes: serial, streams, priority, green, smc-shared, smc-oracle,\n"
         "       smc-scheduler, smc-trials, batch-search, batch-turnaround\n"
         "       (default: all)\n"
         "--quick: 8 pairs (4 triples), 3 rounds, split step 16, workers "
         "0,1,\n"
         "         sweeps of 3 s (unless given)\n"
         "--list: print the workloads' classes and the groups, touch no GPU\n"
         "--mps-tenant=NAME [--gate=FILE] [--reps=N]: one workload's loop in "
         "a process\n"
         "         of its own, for bench/corun/run_mps.py --corun\n";
}

bool parseOptions(const std::vector<std::string> &Args, Options &O,
                  std::string &Error) {
  Options Out;
  std::optional<std::vector<WorkloadGroup>> Groups;
  std::optional<unsigned> Rounds, Step;
  std::optional<double> SweepSeconds;
  std::optional<std::vector<unsigned>> Workers;
  for (const std::string &Arg : Args) {
    size_t Eq = Arg.find('=');
    std::string Key = Arg.substr(0, Eq);
    std::string Value = Eq == std::string::npos ? "" : Arg.substr(Eq + 1);
    bool HasValue = Eq != std::string::npos;
    auto Bad = [&](const std::string &Why) {
      Error = "bad argument '" + Arg + "': " + Why;
      return false;
    };
    // A value in 1..Max into Into.
    auto Count = [&](unsigned Max, std::optional<unsigned> &Into) {
      unsigned N = 0;
      if (!parseUnsigned(Value, Max, N) || N == 0)
        return Bad("needs an integer in 1.." + std::to_string(Max));
      Into = N;
      return true;
    };
    if (Key == "--help" || Key == "-h") {
      Error = "help";
      return false;
    }
    if (Key == "--quick" && !HasValue) {
      Out.Quick = true;
    } else if (Key == "--list" && !HasValue) {
      Out.ListOnly = true;
    } else if (Key == "--triples" && !HasValue) {
      if (Groups)
        return Bad("--triples and --pairs exclude each other");
      Out.Triples = true;
    } else if (!HasValue) {
      return Bad("unknown option, or it needs =value");
    } else if (Key == "--pairs") {
      if (Out.Triples)
        return Bad("--triples and --pairs exclude each other");
      std::vector<WorkloadGroup> G;
      if (!parseGroups(Value, G, Error))
        return Bad(Error);
      Groups = std::move(G);
    } else if (Key == "--modes") {
      std::set<std::string> Wanted;
      for (const std::string &Mode : split(Value, ',')) {
        if (std::find(allModes().begin(), allModes().end(), Mode) ==
            allModes().end())
          return Bad("unknown mode '" + Mode + "'");
        Wanted.insert(Mode);
      }
      Out.Modes.clear();
      for (const std::string &Mode : allModes())
        if (Wanted.count(Mode))
          Out.Modes.push_back(Mode);
    } else if (Key == "--out") {
      if (Value.empty())
        return Bad("needs a file name");
      Out.OutFile = Value;
    } else if (Key == "--rounds") {
      if (!Count(1000, Rounds))
        return false;
    } else if (Key == "--target-ms") {
      if (!parsePositive(Value, Out.TargetMs))
        return Bad("needs a positive number");
    } else if (Key == "--split-step") {
      if (!Count(1024, Step))
        return false;
    } else if (Key == "--workers") {
      std::set<unsigned> Set;
      for (const std::string &Piece : split(Value, ',')) {
        unsigned N = 0;
        if (!parseUnsigned(Piece, 64, N))
          return Bad("'" + Piece + "' is not a worker count in 0..64");
        Set.insert(N);
      }
      Workers = std::vector<unsigned>(Set.begin(), Set.end());
    } else if (Key == "--sweep-s") {
      double Seconds = 0;
      if (!parsePositive(Value, Seconds))
        return Bad("needs a positive number");
      SweepSeconds = Seconds;
    } else if (Key == "--check") {
      if (Value == "pair" || Value == "group")
        Out.Check = CheckPolicy::EveryGroup;
      else if (Value == "once")
        Out.Check = CheckPolicy::FirstUse;
      else
        return Bad("needs pair (or group) or once");
    } else if (Key == "--budget-s") {
      if (!parsePositive(Value, Out.BudgetSeconds))
        return Bad("needs a positive number");
    } else if (Key == "--mps-tenant") {
      if (!findClassified(Value))
        return Bad("no workload '" + Value + "' the harness co-runs");
      Out.MpsTenant = Value;
    } else if (Key == "--gate") {
      if (Value.empty())
        return Bad("needs a file name");
      Out.Gate = Value;
    } else if (Key == "--reps") {
      std::optional<unsigned> Reps;
      if (!Count(100000, Reps))
        return false;
      Out.TenantReps = *Reps;
    } else {
      return Bad("unknown option");
    }
  }
  if (Out.Modes.empty())
    Out.Modes = allModes();
  if (Groups)
    Out.Groups = *Groups;
  else if (Out.Triples)
    Out.Groups = Out.Quick ? quickTriples() : defaultTriples();
  else
    Out.Groups = Out.Quick ? quickPairs() : defaultPairs();
  Out.Rounds = Rounds ? *Rounds : Out.Quick ? 3 : 5;
  Out.SplitStep = Step ? *Step : Out.Quick ? 16 : 8;
  Out.SweepSeconds = SweepSeconds ? *SweepSeconds : Out.Quick ? 3 : 6;
  if (Workers)
    Out.Workers = *Workers;
  else if (Out.Quick)
    Out.Workers = {0, 1};
  O = std::move(Out);
  return true;
}

} // namespace smc::corun
