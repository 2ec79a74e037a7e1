//===- CoRunGroups.cpp - The workloads and groups smc_corun_bench co-runs -===//
//
// See CoRunPlan.h.  The classification, the pair list and the triple list
// are kept here, in one place, with the groups' names and categories.
//===----------------------------------------------------------------------===//
#include "CoRunPlan.h"

#include "base/Text.h"

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

} // namespace smc::corun
