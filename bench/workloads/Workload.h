//===- Workload.h - SMC benchmark workloads: interface and registry -------===//
//
// The workload suite: CUDA implementations of the benchmark kernels of the
// papers SMC is built from (SM-Centric Table 1, Kernelet section 5.1,
// CTA-Clustering Table 2, G-Streamline's dynamic irregularities), each with
// deterministic inputs, a CPU reference and a check.  Tests, benchmarks and the
// co-run and locality experiments all iterate allWorkloads():
//
//   for (const WorkloadInfo *info : allWorkloads()) {
//     std::unique_ptr<Workload> w = info->create();
//     w->setup(info->params(Size::Default), kDefaultSeed);
//     w->resetOutputs(stream);          // poison outputs (checked runs only)
//     w->run(stream);                   // the kernel launches of one run
//     CheckResult r = w->check();       // synchronizes, compares with CPU
//   }
//
// This header does not include CUDA headers: cudaStream_t is declared the way
// the CUDA runtime declares it, so CPU-only code can include it.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_WORKLOAD_H
#define SMC_BENCH_WORKLOADS_WORKLOAD_H

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

typedef struct CUstream_st *cudaStream_t;

namespace smc {
namespace workloads {

// The seed every test and benchmark uses unless told otherwise.
constexpr uint64_t kDefaultSeed = 20150608;

// Named problem sizes.  Small: a test (< ~10 ms on a GPU, < ~1 s for the CPU
// reference).  Default: a benchmark, one run() at least ~0.5 ms on an H100.
// Large: a larger benchmark (several times Default).
enum class Size { Small, Default, Large };
const char *sizeName(Size size);
// Accepts "small", "default", "large" (any case).  False if none matches.
bool parseSize(const std::string &text, Size &out);

// SM-Centric Table 1's "Irregular" column: does the kernel access memory
// through index arrays built from the input?  G-Streamline's workloads are
// all irregular: their control flow (branches, trip counts) or their
// addresses depend on data only the input reveals.
enum class Regularity { Regular, Irregular };
const char *regularityName(Regularity regularity);

// CTA-Clustering section 3.2: where a kernel's inter-CTA locality comes from.
// Unclassified for workloads that CTA-Clustering does not list.
enum class Locality {
  Unclassified,
  AlgorithmRelated,
  CacheLineRelated,
  DataRelated,
  WriteRelated,
  Streaming,
};
const char *localityName(Locality locality);

// Which papers use a workload (bit mask).
enum PaperBits : unsigned {
  // Enabling and Exploiting Flexible Task Assignment on GPU through SM-Centric
  // Program Transformations (ICS 2015), Table 1.
  PaperSmCentric = 1u << 0,
  // Kernelet: High-Throughput GPU Kernel Executions with Dynamic Slicing and
  // Scheduling (TPDS 2014), section 5.1.
  PaperKernelet = 1u << 1,
  // Locality-Aware CTA Clustering for Modern GPUs (ASPLOS 2017), Table 2.
  PaperCtaClustering = 1u << 2,
  // G-Streamline's thread-data remapping: Zheng Zhang, "Locality Enhancement
  // and Dynamic Optimizations on Multi-Core and GPU" (dissertation),
  // chapters 2-3: kernels with dynamic irregularities (divergence on loaded
  // data, gathers through index arrays) that only the input reveals.
  PaperGStreamline = 1u << 3,
};
// "sm-centric,kernelet" style list of the papers in `papers`.
std::string paperList(unsigned papers);

// What the kernels of a workload do that matters to SMC's transformations
// (bit mask).  Tests use it to pick workloads that exercise a hazard.
enum FeatureBits : unsigned {
  FeatureSharedMemory = 1u << 0,
  // __syncthreads().
  FeatureBarriers = 1u << 1,
  // A divergent `return` before a __syncthreads() other threads still reach.
  FeatureEarlyExitBeforeBarrier = 1u << 2,
  // Grid-stride loops (gridDim-based).
  FeatureGridStride = 1u << 3,
  // Gathers or scatters through index arrays.
  FeatureIndexArrays = 1u << 4,
  // Global atomics.
  FeatureAtomics = 1u << 5,
  // run() launches more than once.
  FeatureMultiLaunch = 1u << 6,
  // __shfl_*_sync.
  FeatureWarpShuffle = 1u << 7,
};
// "shared,barriers,..." style list of the features in `features`.
std::string featureList(unsigned features);

// One size parameter of a workload and its value at each named size.
struct ParamSpec {
  const char *name;
  int64_t small;
  int64_t normal; // Size::Default
  int64_t large;
  const char *meaning;
};

// Resolved parameter values (name -> value) for one setup().
class Params {
public:
  // The value of `name`; throws std::invalid_argument if there is none.
  int64_t get(const std::string &name) const;
  bool has(const std::string &name) const;
  // Sets (or adds) a value.
  void set(const std::string &name, int64_t value);
  // "n=4096,deg=16", in the order the values were added.
  std::string str() const;
  const std::vector<std::pair<std::string, int64_t>> &values() const {
    return entries;
  }

private:
  std::vector<std::pair<std::string, int64_t>> entries;
};

// The outcome of comparing a run's outputs with the CPU reference.
struct CheckResult {
  bool ok = false;
  // Largest error found, in the unit `metric` names (0 for exact matches).
  double maxError = 0;
  // Largest error allowed, same unit (0 for exact checks).
  double tolerance = 0;
  // What maxError measures, e.g. "exact" or "|gpu-ref|/max(|ref|,1)".
  std::string metric;
  // Output elements compared, and how many were out of tolerance.
  uint64_t checked = 0;
  uint64_t failures = 0;
  // The first failure, and notes such as "sampled 4096 of 2^27 rows".
  std::string detail;

  // Folds another comparison (another output array) into this one.
  void merge(const CheckResult &other);
  // One line: "ok max_err=... tol=... (metric) checked=... [detail]".
  std::string summary() const;
};

// Rough cost of one run(), for bandwidth and throughput counters.
struct RunEstimate {
  // Compulsory DRAM traffic: every input array read once and every output
  // array written once per launch that touches it (gathers and reuse through
  // the caches not counted).
  double bytes = 0;
  double flops = 0; // arithmetic operations (integer ones for integer kernels)
};

// What each CTA of a workload's kernel reads through its index arrays, for
// affinity placement (smc::placeByAffinity; the layout of
// smc::ChunkFootprint): CTA c (linear blockIdx) reads blocks[begin[c]] ..
// blocks[begin[c + 1] - 1], each a 128-byte line of the gathered array.
struct ChunkReads {
  std::vector<uint64_t> begin{0};
  std::vector<uint64_t> blocks;
  // For a kernel whose CTAs take `perCta` consecutive items of `items`
  // (the last CTA fewer): calls itemReads(i) for every item i in order,
  // which calls read() for each byte offset the item gathers from, and
  // closes each CTA's list.
  template <typename ItemReads>
  void byCta(size_t items, size_t perCta, ItemReads itemReads) {
    for (size_t first = 0; first < items; first += perCta) {
      for (size_t i = first; i < std::min(first + perCta, items); ++i)
        itemReads(i);
      begin.push_back(blocks.size());
    }
  }
  // The current item reads byte `offset` of the gathered array.
  void read(uint64_t offset) { blocks.push_back(offset / 128); }
};

// One workload: owns its host inputs, its device buffers and its reference.
// All CUDA calls throw std::runtime_error("file:line: call: message") on
// failure.  Not thread-safe; one object per stream.
class Workload {
public:
  virtual ~Workload();
  // Generates the host inputs from `seed` at the given parameters, computes
  // nothing else on the CPU, allocates and uploads the device buffers.
  virtual void setup(const Params &params, uint64_t seed) = 0;
  // One complete execution of the workload: its kernel launches (with
  // <<<>>>), and the memsets and copies between them, on `stream`.  The
  // outputs depend only on the inputs, so run() can be repeated without
  // resetOutputs().  Does not synchronize.
  virtual void run(cudaStream_t stream) = 0;
  // Fills every output buffer with 0xFF bytes (NaN for floats, -1 or the
  // largest value for integers), so that outputs a run does not write fail
  // the check.  Call before a run that is to be checked.
  virtual void resetOutputs(cudaStream_t stream) = 0;
  // Waits for the device, copies the outputs back and compares them with
  // the CPU reference (computed on first use and kept).  For the sizes
  // where a full CPU reference would take too long, a documented sample of
  // the outputs is compared and all outputs are checked for plausibility.
  virtual CheckResult check() = 0;
  virtual RunEstimate estimate() const = 0;
  // For a workload of one kernel with one launch per run() that gathers
  // through index arrays: fills `reads` with the lines of the gathered
  // arrays each CTA reads (after setup(); arrays read only at the CTA's own
  // indices are left out: they create no affinity) and returns true.
  // False for every other workload.
  virtual bool chunkReads(ChunkReads &reads) const;
};

// What the registry knows about a workload.
struct WorkloadInfo {
  const char *name;        // "spmv", "3dconv", ...
  const char *description; // one line
  int gridDims;            // largest grid dimensionality its launches use
  Regularity regularity;
  Locality locality;
  unsigned papers;   // PaperBits; 0 for SMC's own workloads (micro.h)
  unsigned features; // FeatureBits
  // Source names of its kernels (global namespace, C++ linkage), the names
  // SMC policies select kernels by.
  std::vector<std::string> kernelNames;
  std::vector<ParamSpec> paramSpecs;
  // A new, not yet set up, GPU workload.
  std::unique_ptr<Workload> (*create)();
  // Runs the CPU reference at Size::Small against an independent CPU
  // formulation or known invariants.  Never calls CUDA.
  CheckResult (*cpuSelfCheck)(uint64_t seed);
  // Short text of the GPU check (what is compared, tolerance), for reports.
  const char *checkText;

  // The parameters at a named size.
  Params params(Size size) const;
  // The same, then "name=value,name=value" overrides; throws
  // std::invalid_argument on an unknown name or a malformed value.
  Params params(Size size, const std::string &overrides) const;
};

// Every workload, in a fixed order (SM-Centric Table 1, then Kernelet, then
// CTA-Clustering, then G-Streamline's, then SMC's own workloads, whose
// `papers` is 0).
const std::vector<const WorkloadInfo *> &allWorkloads();
// info.create(), then setup() at a named size.
std::unique_ptr<Workload> setUpWorkload(const WorkloadInfo &info, Size size,
                                        uint64_t seed = kDefaultSeed);
// The workload called `name`, or nullptr.
const WorkloadInfo *findWorkload(const std::string &name);

} // namespace workloads
} // namespace smc

#endif // SMC_BENCH_WORKLOADS_WORKLOAD_H
