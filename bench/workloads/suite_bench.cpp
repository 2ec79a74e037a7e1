//===- suite_bench.cpp - Google Benchmark of the workload suite -----------===//
//
// Every workload of the registry (Workload.h), each timed in three forms:
//   <workload>/original  every kernel of the workload as it is
//   <workload>/smc       SM-centric variants at the original's occupancy
//                        (smc::Policy::smCentric())
//   <workload>/slice     slice variants, one slice (smc::Policy::slice(0))
// The policy is set for every kernel in WorkloadInfo::kernelNames.  Each
// iteration times one Workload::run() with CUDA events on a dedicated stream
// (manual time), after warm-up runs.  Before its first timing a workload is
// set up (once, then kept) and run once under each form with its check();
// a form whose check fails is reported as an error instead of timed.
// Counters: bytes_per_second and FLOPS from Workload::estimate().  Context:
// GPU name, SM count, clocks, CUDA versions, SMC version, size and the
// parameters of every workload.
//
// This file is compiled without the SMC plugin; the kernels, compiled with
// it, and the runtime come from smc_workloads_smc.  Registering the
// benchmarks touches no CUDA, so --benchmark_list_tests works without a GPU.
//
// USAGE: smc_suite_bench [--size small|default|large] \
//          --benchmark_repetitions=3 \
//          --benchmark_enable_random_interleaving=true \
//          --benchmark_out=suite.json --benchmark_out_format=json
//        (scripts/run_suite.sh does this and plots the result).  The size
//        may also come from SMC_SUITE_SIZE; --size wins.
//===----------------------------------------------------------------------===//
#include "Workload.h"

#include "smc/smc.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#ifndef SMC_VERSION
#define SMC_VERSION "unknown"
#endif

using namespace smc::workloads;

namespace {

constexpr int kWarmUpRuns = 2;

struct VariantSpec {
  const char *name;
  smc::Policy policy;
};

const std::vector<VariantSpec> &variants() {
  static const std::vector<VariantSpec> list = {
      {"original", smc::Policy::original()},
      {"smc", smc::Policy::smCentric()},
      {"slice", smc::Policy::slice(0)}};
  return list;
}

void setWorkloadPolicy(const WorkloadInfo &info, const smc::Policy &policy) {
  for (const std::string &kernel : info.kernelNames)
    smc::setPolicy(kernel, policy);
}

// One workload across its benchmarks.
struct Entry {
  const WorkloadInfo *info = nullptr;
  std::unique_ptr<Workload> workload; // set up, or null
  bool verified = false;
  // Why no form of the workload can be timed (setup failed), or "".
  std::string error;
  // Per form: why its check failed, or absent.
  std::map<std::string, std::string> variantError;
};

Size suiteSize = Size::Default;
std::vector<Entry> entries;
cudaStream_t suiteStream = nullptr;

std::string cudaMessage(cudaError_t err) {
  return std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
}

// Frees every set-up workload but `keep`; true if there was one.
bool releaseOthers(const Entry &keep) {
  bool released = false;
  cudaDeviceSynchronize();
  for (Entry &e : entries)
    if (&e != &keep && e.workload) {
      e.workload.reset();
      released = true;
    }
  return released;
}

// Runs the workload once under each form and checks its outputs.
void verify(Entry &e) {
  e.verified = true;
  for (const VariantSpec &v : variants()) {
    setWorkloadPolicy(*e.info, v.policy);
    std::string failure;
    try {
      e.workload->resetOutputs(suiteStream);
      e.workload->run(suiteStream);
      CheckResult r = e.workload->check();
      std::fprintf(stderr, "smc_suite_bench: %s/%s check: %s\n", e.info->name,
                   v.name, r.summary().c_str());
      if (!r.ok)
        failure = "check failed: " + r.summary();
    } catch (const std::exception &ex) {
      failure = std::string("check run failed: ") + ex.what();
      cudaGetLastError();
    }
    if (!failure.empty()) {
      std::fprintf(stderr, "smc_suite_bench: %s/%s: %s\n", e.info->name, v.name,
                   failure.c_str());
      e.variantError[v.name] = failure;
    }
  }
}

// Sets the workload up (and verifies it) the first time one of its
// benchmarks runs; returns "" or why none of its forms can be timed.
const std::string &prepare(Entry &e) {
  if (!e.error.empty() || (e.workload && e.verified))
    return e.error;
  if (!suiteStream) {
    cudaError_t err =
        cudaStreamCreateWithFlags(&suiteStream, cudaStreamNonBlocking);
    if (err != cudaSuccess) {
      suiteStream = nullptr;
      e.error = "cudaStreamCreateWithFlags: " + cudaMessage(err);
      return e.error;
    }
  }
  // Setup kernels (if any) run as they are.
  setWorkloadPolicy(*e.info, smc::Policy::original());
  auto begin = std::chrono::steady_clock::now();
  for (int attempt = 0; !e.workload; ++attempt) {
    try {
      e.workload = setUpWorkload(*e.info, suiteSize);
    } catch (const std::exception &ex) {
      cudaGetLastError();
      // Out of memory, perhaps: free the other workloads (set up again
      // when next timed) and try once more.
      if (attempt == 0 && releaseOthers(e)) {
        std::fprintf(stderr,
                     "smc_suite_bench: %s: setup failed (%s); freed the other "
                     "workloads, trying again\n",
                     e.info->name, ex.what());
        continue;
      }
      e.error = std::string("setup failed: ") + ex.what();
      return e.error;
    }
  }
  // Uploads from pageable memory may still be in flight when cudaMemcpy
  // returns, and suiteStream does not wait for the legacy stream.
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess) {
    e.workload.reset();
    e.error = "setup failed: cudaDeviceSynchronize: " + cudaMessage(err);
    return e.error;
  }
  std::fprintf(
      stderr, "smc_suite_bench: %s set up in %.1f s [%s]\n", e.info->name,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count(),
      e.info->params(suiteSize).str().c_str());
  if (!e.verified)
    verify(e);
  return e.error;
}

// Times one run() into `ms`; returns "" or what failed.
std::string timeOneRun(Workload &w, cudaEvent_t start, cudaEvent_t stop,
                       float &ms) {
  cudaError_t err = cudaEventRecord(start, suiteStream);
  if (err != cudaSuccess)
    return "cudaEventRecord: " + cudaMessage(err);
  try {
    w.run(suiteStream);
  } catch (const std::exception &ex) {
    cudaGetLastError();
    return std::string("run failed: ") + ex.what();
  }
  if ((err = cudaEventRecord(stop, suiteStream)) != cudaSuccess)
    return "cudaEventRecord: " + cudaMessage(err);
  if ((err = cudaEventSynchronize(stop)) != cudaSuccess)
    return "run failed: " + cudaMessage(err);
  if ((err = cudaEventElapsedTime(&ms, start, stop)) != cudaSuccess)
    return "cudaEventElapsedTime: " + cudaMessage(err);
  return "";
}

std::string warmUp(Workload &w) {
  try {
    for (int i = 0; i < kWarmUpRuns; ++i)
      w.run(suiteStream);
  } catch (const std::exception &ex) {
    cudaGetLastError();
    return std::string("warm-up run failed: ") + ex.what();
  }
  cudaError_t err = cudaStreamSynchronize(suiteStream);
  return err == cudaSuccess ? "" : "warm-up run failed: " + cudaMessage(err);
}

void timeVariant(benchmark::State &state, Entry &e, const VariantSpec &v) {
  const std::string &setupError = prepare(e);
  if (!setupError.empty()) {
    state.SkipWithError(setupError.c_str());
    return;
  }
  auto failed = e.variantError.find(v.name);
  if (failed != e.variantError.end()) {
    state.SkipWithError(failed->second.c_str());
    return;
  }
  setWorkloadPolicy(*e.info, v.policy);
  Workload &w = *e.workload;
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaError_t err = cudaEventCreate(&start);
  if (err == cudaSuccess)
    err = cudaEventCreate(&stop);
  std::string error =
      err == cudaSuccess ? warmUp(w) : "cudaEventCreate: " + cudaMessage(err);
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
  } else {
    for (auto _ : state) {
      float ms = 0;
      error = timeOneRun(w, start, stop, ms);
      if (!error.empty()) {
        state.SkipWithError(error.c_str());
        break;
      }
      state.SetIterationTime(ms / 1e3);
    }
  }
  if (start)
    cudaEventDestroy(start);
  if (stop)
    cudaEventDestroy(stop);
  if (!error.empty())
    return;
  RunEstimate estimate = w.estimate();
  double iterations = double(state.iterations());
  state.SetBytesProcessed(int64_t(estimate.bytes * iterations));
  if (estimate.flops > 0)
    state.counters["FLOPS"] = benchmark::Counter(estimate.flops * iterations,
                                                 benchmark::Counter::kIsRate);
}

// Registers <workload>/<form> for every workload and form; no CUDA calls.
void registerBenchmarks() {
  for (const WorkloadInfo *info : allWorkloads()) {
    entries.emplace_back();
    entries.back().info = info;
  }
  for (Entry &e : entries)
    for (const VariantSpec &v : variants()) {
      Entry *ep = &e;
      const VariantSpec *vp = &v;
      benchmark::RegisterBenchmark(
          (std::string(e.info->name) + "/" + v.name).c_str(),
          [ep, vp](benchmark::State &state) { timeVariant(state, *ep, *vp); })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
}

// Removes --size X / --size=X from argv; falls back to SMC_SUITE_SIZE.
bool takeSizeFlag(int &argc, char **argv, Size &size) {
  const char *text = std::getenv("SMC_SUITE_SIZE");
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc)
      text = argv[++i];
    else if (std::strncmp(argv[i], "--size=", 7) == 0)
      text = argv[i] + 7;
    else
      argv[out++] = argv[i];
  }
  argc = out;
  argv[argc] = nullptr;
  if (text && !parseSize(text, size)) {
    std::fprintf(stderr,
                 "smc_suite_bench: bad size '%s' (small, default or large)\n",
                 text);
    return false;
  }
  return true;
}

// Google Benchmark's reading of a boolean flag's value.
bool truthy(std::string value) {
  for (char &c : value)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return !(value == "0" || value == "f" || value == "n" || value == "false" ||
           value == "no" || value == "off");
}

// Whether the run only lists the benchmarks (--benchmark_list_tests).
bool listOnly(int argc, char **argv) {
  const char *env = std::getenv("BENCHMARK_LIST_TESTS");
  bool list = env && truthy(env);
  const char *flag = "--benchmark_list_tests";
  size_t len = std::strlen(flag);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], flag, len) != 0)
      continue;
    if (argv[i][len] == '\0')
      list = true;
    else if (argv[i][len] == '=')
      list = truthy(argv[i] + len + 1);
  }
  return list;
}

std::string attribute(cudaDeviceAttr attr, double scale, const char *unit) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, attr, 0) != cudaSuccess)
    return "unknown";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.0f %s", value * scale, unit);
  return buf;
}

// Adds the GPU's context; returns "" or why there is no usable GPU.
std::string addGpuContext() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess)
    return "cudaGetDeviceCount: " + cudaMessage(err);
  if (count == 0)
    return "cudaGetDeviceCount found 0 devices";
  cudaDeviceProp prop;
  if ((err = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess)
    return "cudaGetDeviceProperties: " + cudaMessage(err);
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  benchmark::AddCustomContext("gpu", prop.name);
  benchmark::AddCustomContext("gpu_sm_count",
                              std::to_string(prop.multiProcessorCount));
  benchmark::AddCustomContext("gpu_cc", std::to_string(prop.major) + "." +
                                            std::to_string(prop.minor));
  benchmark::AddCustomContext("gpu_sm_clock",
                              attribute(cudaDevAttrClockRate, 1e-3, "MHz"));
  benchmark::AddCustomContext(
      "gpu_memory_clock", attribute(cudaDevAttrMemoryClockRate, 1e-3, "MHz"));
  benchmark::AddCustomContext("cuda_runtime", std::to_string(runtime));
  benchmark::AddCustomContext("cuda_driver", std::to_string(driver));
  return "";
}

void addSuiteContext() {
  benchmark::AddCustomContext("smc_version", SMC_VERSION);
  benchmark::AddCustomContext("suite_size", sizeName(suiteSize));
  benchmark::AddCustomContext("suite_seed", std::to_string(kDefaultSeed));
  for (const char *var : {"SMC_POLICY", "SMC_DISABLE", "SMC_STATS"})
    if (const char *value = std::getenv(var))
      benchmark::AddCustomContext(var, value);
  for (const WorkloadInfo *info : allWorkloads())
    benchmark::AddCustomContext(std::string("params.") + info->name,
                                info->params(suiteSize).str());
}

} // namespace

int main(int argc, char **argv) {
  if (!takeSizeFlag(argc, argv, suiteSize))
    return 2;
  bool list = listOnly(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 2;
  registerBenchmarks();
  if (!list) {
    std::string noGpu = addGpuContext();
    if (!noGpu.empty()) {
      std::fprintf(stderr,
                   "smc_suite_bench: no usable CUDA GPU (%s); nothing was "
                   "timed. (--benchmark_list_tests lists the benchmarks "
                   "without a GPU.)\n",
                   noGpu.c_str());
      return 1;
    }
    addSuiteContext();
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // Free the workloads while the CUDA runtime is still up.
  entries.clear();
  if (suiteStream)
    cudaStreamDestroy(suiteStream);
  return 0;
}
