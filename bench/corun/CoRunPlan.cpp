//===- CoRunPlan.cpp - What smc_corun_bench co-runs, and how --------------===//
//
// See CoRunPlan.h.  The classification and the pair list are kept here, in
// one place.
//===----------------------------------------------------------------------===//
#include "CoRunPlan.h"

#include "Text.h"

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

std::string WorkloadPair::name() const { return First + "+" + Second; }

const std::vector<std::string> &allCategories() {
  static const std::vector<std::string> List = {
      "memory x compute", "memory x memory", "compute x compute",
      "short x long"};
  return List;
}

std::vector<std::string> categoriesOf(const WorkloadPair &Pair) {
  const ClassifiedWorkload *A = findClassified(Pair.First);
  const ClassifiedWorkload *B = findClassified(Pair.Second);
  if (!A || !B)
    return {};
  std::vector<std::string> Out;
  if (A->Class != B->Class)
    Out.push_back("memory x compute");
  else if (A->Class == WorkloadClass::Memory)
    Out.push_back("memory x memory");
  else
    Out.push_back("compute x compute");
  std::set<RunLength> Lengths = {A->length(), B->length()};
  if (Lengths == std::set<RunLength>{RunLength::Short, RunLength::Long})
    Out.push_back("short x long");
  return Out;
}

// Every classified workload appears at least once; each category has six
// pairs or more (unit-tested).  Within a pair the first is the workload
// that the priority mode puts on the high-priority stream.
const std::vector<WorkloadPair> &defaultPairs() {
  static const std::vector<WorkloadPair> List = {
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

const std::vector<WorkloadPair> &quickPairs() {
  static const std::vector<WorkloadPair> List = {
      {"spmv", "mm"},   {"nn", "nbody"},   {"bs", "mriq"}, {"spmv", "bs"},
      {"nn", "reduce"}, {"reduce", "cfd"}, {"mm", "mriq"}, {"sad", "syrk"},
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

bool parsePairs(const std::string &Text, std::vector<WorkloadPair> &Pairs,
                std::string &Error) {
  std::vector<WorkloadPair> Out;
  for (const std::string &Piece : split(Text, ',')) {
    std::vector<std::string> Names = split(Piece, '+');
    if (Names.size() != 2 || Names[0].empty() || Names[1].empty()) {
      Error = "'" + Piece + "' is not a pair (write first+second)";
      return false;
    }
    for (const std::string &Name : Names)
      if (!findClassified(Name)) {
        Error = "'" + Name + "' in '" + Piece +
                "' is not a workload the harness pairs (--list shows them)";
        return false;
      }
    if (Names[0] == Names[1]) {
      Error = "'" + Piece + "' pairs a workload with itself";
      return false;
    }
    Out.push_back({Names[0], Names[1]});
  }
  Pairs = std::move(Out);
  return true;
}

const std::vector<std::string> &allModes() {
  static const std::vector<std::string> List = {
      "serial",        "streams",      "priority",
      "green",         "smc-shared",   "smc-oracle",
      "smc-scheduler", "batch-search", "batch-turnaround"};
  return List;
}

std::string usage() {
  return "usage: smc_corun_bench [--pairs=a+b,c+d] [--modes=m1,m2] [--quick]\n"
         "         [--out=FILE] [--rounds=N] [--target-ms=X] "
         "[--split-step=N]\n"
         "         [--workers=0,1,2,4] [--sweep-s=X] [--check=once|pair]\n"
         "         [--budget-s=X] [--list]\n"
         "modes: serial, streams, priority, green, smc-shared, smc-oracle,\n"
         "       smc-scheduler, batch-search, batch-turnaround (default: all)\n"
         "--quick: 8 pairs, 3 rounds, split step 16, workers 0,1, sweeps of 3 "
         "s\n"
         "         (unless given)\n"
         "--list: print the workloads' classes and the pairs, touch no GPU\n";
}

bool parseOptions(const std::vector<std::string> &Args, Options &O,
                  std::string &Error) {
  Options Out;
  std::optional<std::vector<WorkloadPair>> Pairs;
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
    } else if (!HasValue) {
      return Bad("unknown option, or it needs =value");
    } else if (Key == "--pairs") {
      std::vector<WorkloadPair> P;
      if (!parsePairs(Value, P, Error))
        return Bad(Error);
      Pairs = std::move(P);
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
      if (Value == "pair")
        Out.Check = CheckPolicy::EveryPair;
      else if (Value == "once")
        Out.Check = CheckPolicy::FirstUse;
      else
        return Bad("needs pair or once");
    } else if (Key == "--budget-s") {
      if (!parsePositive(Value, Out.BudgetSeconds))
        return Bad("needs a positive number");
    } else {
      return Bad("unknown option");
    }
  }
  if (Out.Modes.empty())
    Out.Modes = allModes();
  Out.Pairs = Pairs ? *Pairs : Out.Quick ? quickPairs() : defaultPairs();
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

std::vector<unsigned> splitPoints(unsigned NumSms, unsigned Step) {
  std::vector<unsigned> Points;
  if (Step == 0)
    return Points;
  for (unsigned Sms = Step; Sms + Step <= NumSms; Sms += Step)
    Points.push_back(Sms);
  return Points;
}

std::vector<SplitConfig> oracleConfigs(unsigned NumSms, unsigned Step,
                                       const std::vector<unsigned> &Workers) {
  std::vector<SplitConfig> Configs;
  for (unsigned Sms : splitPoints(NumSms, Step))
    for (unsigned First : Workers)
      for (unsigned Second : Workers)
        Configs.push_back({Sms, First, Second});
  return Configs;
}

std::vector<unsigned> greenRequests(unsigned NumSms, unsigned Step,
                                    unsigned MinPartition, unsigned Alignment) {
  std::vector<unsigned> Requests;
  Alignment = std::max(1u, Alignment);
  for (unsigned Sms : splitPoints(NumSms, Step)) {
    unsigned Granted = std::max(Sms, MinPartition);
    Granted = (Granted + Alignment - 1) / Alignment * Alignment;
    if (Granted < NumSms && NumSms - Granted >= std::max(1u, MinPartition) &&
        std::find(Requests.begin(), Requests.end(), Granted) == Requests.end())
      Requests.push_back(Granted);
  }
  return Requests;
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
