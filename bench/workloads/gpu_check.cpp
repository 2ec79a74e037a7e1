//===- gpu_check.cpp - Runs, checks and times every workload on a GPU -----===//
//
// For each workload: setup, poison outputs, run, check against the CPU
// reference; then times `--reps` back-to-back runs with CUDA events and
// checks again (runs must be repeatable without resetOutputs).  One line per
// workload, then "N passed, M failed"; exit status 1 on any failure.
//
// USAGE: smc_workloads_gpu_check [--size small|default|large] [--seed N]
//          [--reps N] [--params name=v,...] [workload...]
// --params overrides parameters of the one workload named.
//===----------------------------------------------------------------------===//
#include "Workload.h"

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

using namespace smc::workloads;

namespace {

void cudaOrThrow(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " +
                             cudaGetErrorString(err));
}

struct Timing {
  double setupS = 0, checkS = 0, runMs = 0;
  RunEstimate estimate;
};

CheckResult runOne(const WorkloadInfo &info, const Params &params,
                   uint64_t seed, int reps, cudaStream_t stream,
                   Timing &timing) {
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  std::unique_ptr<Workload> w = info.create();
  w->setup(params, seed);
  timing.setupS = std::chrono::duration<double>(Clock::now() - t0).count();
  timing.estimate = w->estimate();

  w->resetOutputs(stream);
  w->run(stream);
  t0 = Clock::now();
  CheckResult first = w->check();
  timing.checkS = std::chrono::duration<double>(Clock::now() - t0).count();

  cudaEvent_t begin, end;
  cudaOrThrow(cudaEventCreate(&begin), "cudaEventCreate");
  cudaOrThrow(cudaEventCreate(&end), "cudaEventCreate");
  w->run(stream); // warm-up
  cudaOrThrow(cudaEventRecord(begin, stream), "cudaEventRecord");
  for (int i = 0; i < reps; ++i)
    w->run(stream);
  cudaOrThrow(cudaEventRecord(end, stream), "cudaEventRecord");
  cudaOrThrow(cudaEventSynchronize(end), "cudaEventSynchronize");
  float ms = 0;
  cudaOrThrow(cudaEventElapsedTime(&ms, begin, end), "cudaEventElapsedTime");
  timing.runMs = reps ? ms / reps : 0;
  cudaEventDestroy(begin);
  cudaEventDestroy(end);

  CheckResult again = w->check();
  if (!again.ok) {
    again.detail = "after repeated runs: " + again.detail;
    first.merge(again);
  }
  return first;
}

} // namespace

int main(int argc, char **argv) {
  Size size = Size::Small;
  uint64_t seed = kDefaultSeed;
  int reps = 5;
  std::string overrides;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--size" && i + 1 < argc) {
      if (!parseSize(argv[++i], size)) {
        std::fprintf(stderr, "bad size '%s'\n", argv[i]);
        return 2;
      }
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 0);
    } else if (arg == "--reps" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (arg == "--params" && i + 1 < argc) {
      overrides = argv[++i];
    } else if (arg[0] == '-') {
      std::fprintf(stderr,
                   "usage: %s [--size small|default|large] [--seed N] "
                   "[--reps N] [--params name=v,...] [workload...]\n",
                   argv[0]);
      return 2;
    } else if (!findWorkload(arg)) {
      std::fprintf(stderr, "unknown workload '%s'\n", arg.c_str());
      return 2;
    } else {
      only.push_back(arg);
    }
  }
  if (!overrides.empty() && only.size() != 1) {
    std::fprintf(stderr, "--params needs exactly one workload\n");
    return 2;
  }
  cudaStream_t stream;
  try {
    cudaOrThrow(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                "cudaStreamCreate");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "no usable GPU: %s\n", e.what());
    return 1;
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
    Timing timing;
    CheckResult result;
    std::string paramText;
    try {
      Params params = info->params(size, overrides);
      paramText = params.str();
      result = runOne(*info, params, seed, reps, stream, timing);
    } catch (const std::exception &e) {
      result.ok = false;
      result.detail = std::string("exception: ") + e.what();
      cudaGetLastError();
    }
    double gbPerS =
        timing.runMs > 0 ? timing.estimate.bytes / (timing.runMs * 1e6) : 0;
    std::printf("%-4s %-9s %9.3f ms/run %7.0f GB/s  setup %5.1f s  check "
                "%5.1f s  [%s]  %s\n",
                result.ok ? "PASS" : "FAIL", info->name, timing.runMs, gbPerS,
                timing.setupS, timing.checkS, paramText.c_str(),
                result.summary().c_str());
    std::fflush(stdout);
    (result.ok ? passed : failed)++;
  }
  cudaStreamDestroy(stream);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
