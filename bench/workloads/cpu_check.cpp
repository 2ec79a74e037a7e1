//===- cpu_check.cpp - Runs every workload's CPU self-check, no GPU -------===//
//
// For CI machines without a GPU: generates each workload's Small inputs,
// runs its CPU reference and compares it with an independent formulation or
// known invariants.  Never calls CUDA.  One line per workload, then
// "N passed, M failed"; exit status 1 on any failure.
//
// USAGE: smc_workloads_cpu_check [--seed N] [workload...]
//===----------------------------------------------------------------------===//
#include "Workload.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

using namespace smc::workloads;

int main(int argc, char **argv) {
  uint64_t seed = kDefaultSeed;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 0);
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "usage: %s [--seed N] [workload...]\n", argv[0]);
      return 2;
    } else if (!findWorkload(argv[i])) {
      std::fprintf(stderr, "unknown workload '%s'\n", argv[i]);
      return 2;
    } else {
      only.push_back(argv[i]);
    }
  }
  int passed = 0, failed = 0;
  for (const WorkloadInfo *info : allWorkloads()) {
    if (!only.empty()) {
      bool wanted = false;
      for (const std::string &name : only)
        wanted |= name == info->name;
      if (!wanted)
        continue;
    }
    auto start = std::chrono::steady_clock::now();
    CheckResult result;
    try {
      result = info->cpuSelfCheck(seed);
    } catch (const std::exception &e) {
      result.ok = false;
      result.detail = std::string("exception: ") + e.what();
    }
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    std::printf("%-4s %-9s %8.1f ms  %s\n", result.ok ? "PASS" : "FAIL",
                info->name, ms, result.summary().c_str());
    std::fflush(stdout);
    (result.ok ? passed : failed)++;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
