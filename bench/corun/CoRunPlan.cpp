//===- CoRunPlan.cpp - What smc_corun_bench co-runs, and how --------------===//
//
// See CoRunPlan.h.  The classification, the pair list and the triple list
// are kept here, in one place.
//===----------------------------------------------------------------------===//
#include "CoRunPlan.h"

#include "base/Text.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

namespace smc::corun {

const char *className(WorkloadClass Class) {
  return Class == WorkloadClass::Memory ? "memory" : "compute";
}

const char *lengthName(RunLength Length) {
  switch (Length) {
  case RunLength::Short:
    return "short";
  case RunLength::Medium:
    return "medium";
  case RunLength::Long:
    return "long";
  }
  return "?";
}

RunLength ClassifiedWorkload::length() const {
  if (H100RunMs < 1.0)
    return RunLength::Short;
  return H100RunMs >= 2.0 ? RunLength::Long : RunLength::Medium;
}

// The rule: a workload is memory-bound when its arithmetic intensity,
// Workload::estimate()'s operations per byte of compulsory DRAM traffic at
// Size::Default, is below the ridge point of the H100's roofline (about 67
// TFLOP/s FP32 over 3.35 TB/s: 20 operations per byte), compute-bound
// otherwise.  The estimate counts each input read once, so gathers through
// index arrays (irreg, nbf, md, spmv, cfd, pc) move more bytes than it says
// and are, if anything, more memory-bound than their number.  The closest
// to the ridge is sad (23.7, integer SADs on bytes).  The harness records
// each workload's measured DRAM throughput (estimate bytes / time alone)
// next to this class, so a class the device contradicts shows in the JSON.
// Run times are the suite README's H100 column; they only tag short x long.
const std::vector<ClassifiedWorkload> &classifiedWorkloads() {
  using C = WorkloadClass;
  static const std::vector<ClassifiedWorkload> List = {
      {"irreg", C::Memory, 0.30, 1.37},   {"nbf", C::Memory, 4.4, 1.26},
      {"md", C::Memory, 3.0, 2.74},       {"spmv", C::Memory, 0.23, 1.03},
      {"cfd", C::Memory, 3.1, 4.86},      {"nn", C::Memory, 0.5, 0.56},
      {"mm", C::Compute, 344, 2.11},      {"reduce", C::Memory, 0.25, 0.57},
      {"pc", C::Memory, 0.12, 2.05},      {"sad", C::Compute, 23.7, 0.85},
      {"mriq", C::Compute, 255, 1.14},    {"bs", C::Memory, 3.0, 0.63},
      {"tea", C::Compute, 36, 0.51},      {"kmeans", C::Memory, 3.6, 0.75},
      {"backprop", C::Memory, 0.4, 0.69}, {"dct8x8", C::Memory, 4.0, 1.89},
      {"syrk", C::Compute, 171, 4.43},    {"syr2k", C::Compute, 256, 8.85},
      {"atax", C::Memory, 0.5, 2.03},     {"mvt", C::Memory, 0.5, 2.02},
      {"bicg", C::Memory, 0.5, 2.03},     {"nbody", C::Compute, 20480, 2.65},
      {"3dconv", C::Memory, 6.75, 1.01},
  };
  return List;
}

const ClassifiedWorkload *findClassified(const std::string &Name) {
  for (const ClassifiedWorkload &W : classifiedWorkloads())
    if (Name == W.Name)
      return &W;
  return nullptr;
}

std::string WorkloadGroup::name() const { return join(Names, "+"); }

std::string groupNoun(size_t Size) {
  if (Size == 2)
    return "pair";
  if (Size == 3)
    return "triple";
  return "group of " + std::to_string(Size);
}

std::string groupsNoun(const std::vector<WorkloadGroup> &Groups) {
  std::set<size_t> Sizes;
  for (const WorkloadGroup &G : Groups)
    Sizes.insert(G.size());
  if (Sizes == std::set<size_t>{2})
    return "pairs";
  if (Sizes == std::set<size_t>{3})
    return "triples";
  return "groups";
}

std::string classMix(const WorkloadGroup &Group) {
  unsigned Memory = 0, Compute = 0;
  for (const std::string &Name : Group.Names)
    if (const ClassifiedWorkload *W = findClassified(Name))
      ++(W->Class == WorkloadClass::Memory ? Memory : Compute);
  std::string Mix;
  if (Memory)
    Mix = std::to_string(Memory) + " memory";
  if (Compute)
    Mix += (Mix.empty() ? "" : " + ") + std::to_string(Compute) + " compute";
  return Mix;
}

const std::vector<std::string> &allCategories() {
  static const std::vector<std::string> List = {
      "memory x compute", "memory x memory", "compute x compute",
      "short x long"};
  return List;
}

std::vector<std::string> categoriesOf(const WorkloadGroup &Group) {
  std::set<WorkloadClass> Classes;
  std::set<RunLength> Lengths;
  for (const std::string &Name : Group.Names) {
    const ClassifiedWorkload *W = findClassified(Name);
    if (!W)
      return {};
    Classes.insert(W->Class);
    Lengths.insert(W->length());
  }
  if (Classes.empty())
    return {};
  std::vector<std::string> Out;
  if (Classes.size() == 2)
    Out.push_back("memory x compute");
  else if (*Classes.begin() == WorkloadClass::Memory)
    Out.push_back("memory x memory");
  else
    Out.push_back("compute x compute");
  if (Lengths.count(RunLength::Short) && Lengths.count(RunLength::Long))
    Out.push_back("short x long");
  return Out;
}

// Every classified workload appears at least once; each category has six
// pairs or more (unit-tested).  Within a pair the first is the workload
// that the priority mode puts on the high-priority stream.
const std::vector<WorkloadGroup> &defaultPairs() {
  static const std::vector<WorkloadGroup> List = {
      // memory x compute
      {"spmv", "mm"},
      {"nn", "nbody"},
      {"bs", "mriq"},
      {"kmeans", "sad"},
      {"3dconv", "syrk"},
      {"atax", "tea"},
      {"cfd", "mriq"},
      {"irreg", "nbody"},
      {"backprop", "mm"},
      // memory x memory
      {"spmv", "bs"},
      {"nn", "reduce"},
      {"irreg", "kmeans"},
      {"pc", "backprop"},
      {"md", "dct8x8"},
      {"mvt", "3dconv"},
      {"nbf", "bicg"},
      {"reduce", "cfd"},
      {"bs", "md"},
      // compute x compute
      {"mm", "mriq"},
      {"nbody", "tea"},
      {"sad", "syrk"},
      {"mriq", "syr2k"},
      {"mm", "nbody"},
      {"tea", "sad"},
  };
  return List;
}

const std::vector<WorkloadGroup> &quickPairs() {
  static const std::vector<WorkloadGroup> List = {
      {"spmv", "mm"},   {"nn", "nbody"},   {"bs", "mriq"}, {"spmv", "bs"},
      {"nn", "reduce"}, {"reduce", "cfd"}, {"mm", "mriq"}, {"sad", "syrk"},
  };
  return List;
}

// Each triple is a default pair (its first two, in the pair's order) and a
// third workload; the classes and lengths (S short, M medium, L long) are
// in the comments.  Unit-tested: categories, mixes, pairs.
const std::vector<WorkloadGroup> &defaultTriples() {
  static const std::vector<WorkloadGroup> List = {
      // memory x compute
      {"spmv", "mm", "nn"},     // 2 memory + 1 compute; M L S
      {"nn", "nbody", "tea"},   // 1 memory + 2 compute; S L S
      {"bs", "mriq", "kmeans"}, // 2 memory + 1 compute; S M S
      {"sad", "syrk", "cfd"},   // 1 memory + 2 compute; S L L
      // memory x memory
      {"spmv", "bs", "reduce"},  // M S S
      {"irreg", "kmeans", "md"}, // M S L
      // compute x compute
      {"mm", "mriq", "tea"},    // L M S
      {"mriq", "syr2k", "sad"}, // M L S
  };
  return List;
}

const std::vector<WorkloadGroup> &quickTriples() {
  static const std::vector<WorkloadGroup> List = {
      {"spmv", "mm", "nn"},
      {"nn", "nbody", "tea"},
      {"spmv", "bs", "reduce"},
      {"mm", "mriq", "tea"},
  };
  return List;
}

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

std::vector<std::vector<unsigned>> smSplits(unsigned NumSms, unsigned Step,
                                            unsigned Parts) {
  std::vector<std::vector<unsigned>> Splits;
  if (Step == 0 || Parts < 2)
    return Splits;
  // The first Parts - 1 counts, odometer-wise (the last of them fastest);
  // each at least Step, leaving the last kernel at least Step.
  std::vector<unsigned> Counts(Parts - 1, Step);
  auto Rest = [&]() -> long long {
    long long Used = 0;
    for (unsigned C : Counts)
      Used += C;
    return (long long)NumSms - Used;
  };
  while (true) {
    if (Rest() >= (long long)Step) {
      std::vector<unsigned> Split = Counts;
      Split.push_back(unsigned(Rest()));
      Splits.push_back(std::move(Split));
      Counts.back() += Step;
      continue;
    }
    // Carry: reset the fastest count that overflowed, advance the one
    // before it; done when the first overflows.
    size_t I = Counts.size() - 1;
    while (I > 0 && Rest() < (long long)Step) {
      Counts[I] = Step;
      --I;
      Counts[I] += Step;
    }
    if (Rest() < (long long)Step)
      break;
  }
  return Splits;
}

std::vector<unsigned> oracleWorkers(const std::vector<unsigned> &Workers,
                                    unsigned Parts) {
  if (Parts <= 2 || Workers.empty())
    return Workers;
  return {*std::min_element(Workers.begin(), Workers.end())};
}

std::vector<SplitConfig> oracleConfigs(unsigned NumSms, unsigned Step,
                                       const std::vector<unsigned> &Workers,
                                       unsigned Parts) {
  std::vector<SplitConfig> Configs;
  std::vector<unsigned> Choices = oracleWorkers(Workers, Parts);
  if (Choices.empty())
    return Configs;
  for (const std::vector<unsigned> &Sms : smSplits(NumSms, Step, Parts)) {
    // Every tuple of choices, the last kernel's innermost.
    std::vector<size_t> Index(Parts, 0);
    while (true) {
      SplitConfig C;
      C.Sms = Sms;
      for (size_t I : Index)
        C.Workers.push_back(Choices[I]);
      Configs.push_back(std::move(C));
      size_t K = Parts;
      while (K > 0 && ++Index[K - 1] == Choices.size())
        Index[--K] = 0;
      if (K == 0)
        break;
    }
  }
  return Configs;
}

std::vector<std::vector<unsigned>> greenRequests(unsigned NumSms, unsigned Step,
                                                 unsigned MinPartition,
                                                 unsigned Alignment,
                                                 unsigned Parts) {
  std::vector<std::vector<unsigned>> Requests;
  Alignment = std::max(1u, Alignment);
  for (std::vector<unsigned> Split : smSplits(NumSms, Step, Parts)) {
    Split.pop_back(); // the last context gets the rest
    unsigned Granted = 0;
    for (unsigned &Sms : Split) {
      Sms = std::max(Sms, MinPartition);
      Sms = (Sms + Alignment - 1) / Alignment * Alignment;
      Granted += Sms;
    }
    if (Granted < NumSms && NumSms - Granted >= std::max(1u, MinPartition) &&
        std::find(Requests.begin(), Requests.end(), Split) == Requests.end())
      Requests.push_back(Split);
  }
  return Requests;
}

GreenSweep greenSweep(unsigned NumSms, unsigned Step, unsigned MinPartition,
                      unsigned Alignment, unsigned Parts, unsigned MaxSplits) {
  GreenSweep Sweep;
  if (Step == 0)
    return Sweep;
  for (unsigned S = Step;; S += Step) {
    Sweep.Step = S;
    Sweep.Requests = greenRequests(NumSms, S, MinPartition, Alignment, Parts);
    if (Sweep.Requests.size() <= MaxSplits || S > NumSms)
      return Sweep;
  }
}

std::vector<unsigned> profileSmCounts(unsigned NumSms, bool Quick) {
  std::vector<unsigned> Wanted = {16, 32, 64, 96};
  if (!Quick)
    Wanted = {8, 16, 24, 32, 48, 64, 80, 96, 112};
  std::vector<unsigned> Counts;
  for (unsigned Sms : Wanted)
    if (Sms < NumSms)
      Counts.push_back(Sms);
  if (NumSms > 0)
    Counts.push_back(NumSms);
  return Counts;
}

unsigned repsFor(double RunMs, double TargetMs, unsigned MaxReps) {
  if (!(RunMs > 0) || !(TargetMs > 0))
    return 1;
  double Reps = std::round(TargetMs / RunMs);
  return unsigned(std::clamp(Reps, 1.0, double(std::max(1u, MaxReps))));
}

std::vector<unsigned> smRange(unsigned First, unsigned Count) {
  std::vector<unsigned> R(Count);
  for (unsigned I = 0; I < Count; ++I)
    R[I] = First + I;
  return R;
}

} // namespace smc::corun
