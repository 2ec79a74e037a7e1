//===- BenchHarness.cpp - Timing workloads as original, smc and slice -----===//
//
// The harness of smc_bench and smc_suite_bench (BenchHarness.h): each
// workload timed in the forms of BenchForms.cpp (original, smc and slice,
// and where asked for the cluster, affinity and locality forms).
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
//===----------------------------------------------------------------------===//
#include "BenchHarness.h"
#include "BenchForms.h"

#include "smc/smc.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <list>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef SMC_VERSION
#define SMC_VERSION "unknown"
#endif

namespace smc::workloads {
namespace {

void setWorkloadPolicy(const WorkloadInfo &info, const smc::Policy &policy) {
  for (const std::string &kernel : info.kernelNames)
    smc::setPolicy(kernel, policy);
}

// One workload across its benchmarks.
struct Entry {
  std::string name; // of its benchmarks
  const WorkloadInfo *info = nullptr;
  std::vector<const VariantSpec *> forms; // its benchmarks
  std::unique_ptr<Workload> workload;     // set up, or null
  bool verified = false;
  // Why no form of the workload can be timed (setup failed), or "".
  std::string error;
  // Per form: why its check failed, or absent.
  std::map<std::string, std::string> variantError;
  // The placements of the affinity forms, once built.
  std::map<std::string, smc::AffinityReport> affinity;
  // Per form with trial runs: their mean time in ms.
  std::map<std::string, double> trialRunMs;
};

// What registerWorkloadBenchmarks() was given.
const char *program = "bench";
Size suiteSize = Size::Default;
int warmUpRuns = 2;
std::list<Entry> entries; // stable addresses

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

// Sets the form's policy for every kernel of the workload; returns "" or
// why it cannot be set.
std::string applyForm(Entry &e, const VariantSpec &v) {
  if (!v.affinity()) {
    setWorkloadPolicy(*e.info, v.policy);
    return "";
  }
  if (e.info->kernelNames.size() != 1)
    return "affinity placement needs a workload of one kernel";
  bool listed = true;
  auto inspect = [&] {
    ChunkReads reads;
    listed = e.workload->chunkReads(reads);
    return smc::ChunkFootprint{std::move(reads.begin), std::move(reads.blocks)};
  };
  smc::AffinityOptions options;
  options.workersPerSM = v.policy.workersPerSM;
  options.minAffinity = v.affinityThreshold;
  options.cheapestOrder = !v.tableOnly;
  // The workload's inputs depend only on its size and seed: one placement.
  smc::AffinityReport report = smc::placeByAffinity(
      e.info->kernelNames[0], uint64_t(suiteSize), inspect, options);
  if (!listed)
    return "the workload does not list its CTAs' reads (chunkReads)";
  if (!report.ok)
    return "affinity placement failed: " + report.error;
  if (!report.cached)
    e.affinity[v.name] = report;
  return "";
}

std::string timeOneRun(Workload &w, cudaEvent_t start, cudaEvent_t stop,
                       float &ms);

// Runs the workload once under each form (a form with trial runs: once per
// trial and once more) and checks its outputs after every run.
void verify(Entry &e) {
  e.verified = true;
  struct Events {
    cudaEvent_t start = nullptr, stop = nullptr;
    ~Events() {
      for (cudaEvent_t event : {start, stop})
        if (event)
          cudaEventDestroy(event);
    }
  } events;
  for (const VariantSpec *vp : e.forms) {
    const VariantSpec &v = *vp;
    std::string failure = applyForm(e, v);
    if (!failure.empty()) {
      std::fprintf(stderr, "%s: %s/%s: %s\n", program, e.name.c_str(), v.name,
                   failure.c_str());
      e.variantError[v.name] = failure;
      continue;
    }
    if (v.affinity()) {
      const smc::AffinityReport &a = e.affinity[v.name];
      std::fprintf(stderr,
                   "%s: %s/%s: %u chunks on %u SMs, %llu edges (one block in "
                   "%llu), %.3f per chunk; kept by the partition %.3f, "
                   "interleaved %.3f, contiguous %.3f: order %s; inspect "
                   "%.1f ms, graph %.1f ms, partition %.1f ms\n",
                   program, e.name.c_str(), v.name, a.chunks, a.parts,
                   (unsigned long long)a.edges,
                   (unsigned long long)a.sampleEvery, a.affinityPerChunk,
                   a.keptAffinity, a.interleavedAffinity, a.contiguousAffinity,
                   smc::chunkOrderName(a.order), a.inspectSeconds * 1e3,
                   a.graphSeconds * 1e3, a.partitionSeconds * 1e3);
    }
    try {
      // One checked run, or one per trial run and one after them.
      double trialMs = 0;
      if (!events.start && (cudaEventCreate(&events.start) != cudaSuccess ||
                            cudaEventCreate(&events.stop) != cudaSuccess))
        throw std::runtime_error("cudaEventCreate failed");
      for (int run = 0; run <= v.trialRuns && failure.empty(); ++run) {
        e.workload->resetOutputs(suiteStream);
        float ms = 0;
        if (std::string err =
                timeOneRun(*e.workload, events.start, events.stop, ms);
            !err.empty())
          throw std::runtime_error(err);
        if (run < v.trialRuns)
          trialMs += ms;
        CheckResult r = e.workload->check();
        if (run == v.trialRuns)
          std::fprintf(stderr, "%s: %s/%s check%s: %s\n", program,
                       e.name.c_str(), v.name,
                       v.trialRuns ? "s after every trial" : "",
                       r.summary().c_str());
        if (!r.ok)
          failure = "check failed (run " + std::to_string(run + 1) +
                    "): " + r.summary();
      }
      if (v.trialRuns)
        e.trialRunMs[v.name] = trialMs / v.trialRuns;
    } catch (const std::exception &ex) {
      failure = std::string("check run failed: ") + ex.what();
      cudaGetLastError();
    }
    if (!failure.empty()) {
      std::fprintf(stderr, "%s: %s/%s: %s\n", program, e.name.c_str(), v.name,
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
                     "%s: %s: setup failed (%s); freed the other workloads, "
                     "trying again\n",
                     program, e.name.c_str(), ex.what());
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
      stderr, "%s: %s set up in %.1f s [%s]\n", program, e.name.c_str(),
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
    for (int i = 0; i < warmUpRuns; ++i)
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
  if (std::string error = applyForm(e, v); !error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
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
  if (auto trial = e.trialRunMs.find(v.name); trial != e.trialRunMs.end())
    state.counters["trial_run_ms"] = trial->second;
  if (v.affinity()) {
    const smc::AffinityReport &a = e.affinity[v.name];
    state.counters["inspect_ms"] = a.inspectSeconds * 1e3;
    state.counters["graph_ms"] = a.graphSeconds * 1e3;
    state.counters["partition_ms"] = a.partitionSeconds * 1e3;
    state.counters["affinity_per_chunk"] = a.affinityPerChunk;
    state.counters["kept_affinity"] = a.keptAffinity;
    state.counters["interleaved_affinity"] = a.interleavedAffinity;
    state.counters["contiguous_affinity"] = a.contiguousAffinity;
    state.counters["table"] = a.order == smc::ChunkOrder::Table;
    state.counters["edges"] = double(a.edges);
    state.counters["sample_every"] = double(a.sampleEvery);
  }
}

// The workloads the affinity forms apply to: one kernel gathering through
// index arrays (Workload::chunkReads lists its reads).  G-Streamline's
// divergence workloads are irregular without index arrays, and mcubes has
// two kernels.
bool affinityCandidate(const WorkloadInfo &info) {
  return info.regularity == Regularity::Irregular &&
         (info.features & FeatureIndexArrays) && info.kernelNames.size() == 1;
}

} // namespace

void registerWorkloadBenchmarks(const char *programName,
                                const std::vector<BenchWorkload> &list,
                                Size size, int warmUps, bool localityForms) {
  program = programName;
  suiteSize = size;
  warmUpRuns = warmUps;
  for (const BenchWorkload &w : list) {
    entries.emplace_back();
    entries.back().name = w.name;
    entries.back().info = w.info;
    Entry *ep = &entries.back();
    for (const VariantSpec &v : variants())
      ep->forms.push_back(&v);
    if (localityForms)
      for (const VariantSpec &v : clusterVariants())
        if (w.info->gridDims >= v.minGridDims &&
            (!v.affinity() || affinityCandidate(*w.info)))
          ep->forms.push_back(&v);
    for (const VariantSpec *vp : ep->forms) {
      const VariantSpec &v = *vp;
      benchmark::RegisterBenchmark(
          (w.name + "/" + v.name).c_str(),
          [ep, vp](benchmark::State &state) { timeVariant(state, *ep, *vp); })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
}

namespace {
std::string attribute(cudaDeviceAttr attr, double scale, const char *unit) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, attr, 0) != cudaSuccess)
    return "unknown";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.0f %s", value * scale, unit);
  return buf;
}

} // namespace

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
  for (const Entry &e : entries)
    benchmark::AddCustomContext("params." + e.name,
                                e.info->params(suiteSize).str());
}

void releaseWorkloads() {
  entries.clear();
  if (suiteStream)
    cudaStreamDestroy(suiteStream);
  suiteStream = nullptr;
}

} // namespace smc::workloads
