//===- smc/smc.h - Public C++ API of the SMC runtime ----------------------===//
//
// Programs compiled with the SMC plugin launch their kernels through the SMC
// runtime.  By default each launch runs the kernel's SM-centric variant at
// the original kernel's occupancy.  This API chooses, per kernel, what a
// launch runs instead: the original kernel, the SM-centric variant with a
// given number of workers per SM, SM set and chunk order (also clusters of
// neighbouring chunks kept on one SM, or a placement built from the data
// the chunks read: placeByAffinity), or slices.
//
// Precedence for a launch of kernel K: a policy set for K's host symbol
// (setPolicy(&K, ...)), then one set for K's name, then SMC_POLICY, then the
// default.  SMC_DISABLE=1 overrides all of them.  See docs/policies.md for the
// SMC_POLICY grammar, which setPolicyText() accepts too.
//===----------------------------------------------------------------------===//
#ifndef SMC_SMC_H
#define SMC_SMC_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

// As the CUDA runtime declares it, so that this header needs no CUDA header.
typedef struct CUstream_st *cudaStream_t;

namespace smc {

// Auto: the co-run scheduler decides at each launch, from the kernel
// profiles it has (loadProfiles, SMC_PROFILE) and the other launches of
// policy Auto in flight on the device: the original (sharing the GPU as the
// hardware places CTAs), or the SM-centric variant on an SM range of its
// own where a partition is predicted to beat sharing.
// Locality: per launch configuration, the placement that ran fastest of the
// original, the SM-centric variant in the interleaved order and the order
// the kernel's CTA locality class suggests (clusters along x, y or in
// tiles, also throttled to half the workers; contiguous for irregular),
// each tried on the first launches and timed; the original unless another
// beats it by 2%.
// Remap: thread-data remapping (G-Streamline, "Locality Enhancement and
// Dynamic Optimizations on Multi-Core and GPU"): the kernel's __remap
// variant, in which thread t runs job R[t], with R the jobs sorted by the
// key the plugin found (a loaded value that decides a branch, a loop's trip
// count or a gather address; docs/remap.md), so that a warp's jobs branch
// alike or read neighbouring data.  The runtime builds R on the GPU (the
// inspector kernel, then a radix sort), keeps it while the launch's
// arguments stay the same (refreshRemap() says the data changed), and, with
// remapControl Adaptive, times the original against the remap on the first
// launches and keeps the remap only if it beats the original by 2% with its
// cost included.
enum class Variant { Original, SMCentric, Slice, Auto, Locality, Remap };

// Variant::Remap: where the keys come from.
enum class RemapKeys {
  Inspector, // the plugin's inspector kernel (K__remap_keys)
  Random,    // a random permutation (tests: any permutation is legal)
};
// Variant::Remap: whether the remap is measured against the original.
enum class RemapControl {
  Adaptive, // timed trials; the original unless the remap wins
  Always,   // every launch remapped
};

// The order in which an SM-centric launch puts chunks (original CTAs) into
// the per-SM queues.  Interleaved is the default: the chunks running at any
// moment are then neighbours, as under the hardware's own dispatch, which
// keeps the L2 reuse between neighbouring CTAs (a tiled matrix multiply ran
// 1.30x slower with Contiguous on an H200).  Contiguous keeps neighbouring
// chunks on one SM instead (L1 reuse; SM partitions of co-running kernels).
// Cluster does both (CTA-Clustering, ASPLOS'17): small clusters of
// neighbouring chunks stay whole on one SM, whose workers run a cluster's
// chunks at the same time (L1 reuse), and the clusters are dealt over the
// SMs in grid order (L2 reuse between SMs, as with Interleaved).
enum class ChunkOrder {
  Interleaved, // chunk c goes to the (c mod |set|)-th SM of the set
  Contiguous,  // SM k gets one contiguous range of chunks
  Table,       // Policy::chunkToSM says which SM runs each chunk
  Cluster,     // clusters of neighbours (Policy::cluster*) dealt over SMs
};

// The name of a chunk order as SMC_POLICY writes it (order=interleaved,
// contiguous, cluster; table has no text form) and SMC_STATS reports it.
const char *chunkOrderName(ChunkOrder order);

// ChunkOrder::Cluster: which neighbours of the grid (X x Y x Z chunks) form
// a cluster.  A cluster never spans two z planes; clusters at the edges of
// the grid are cut off by them (partial clusters).
enum class ClusterDir {
  X,    // a run of clusterSize chunks along x (one row: same y and z)
  Y,    // a run of clusterSize chunks along y (same x and z)
  Tile, // a clusterWidth x clusterHeight tile of chunks (same z)
};

struct Policy {
  Variant variant = Variant::SMCentric;
  // SMCentric: active workers per SM; 0 means the original kernel's
  // occupancy (the most CTAs of the original that fit on one SM).
  unsigned workersPerSM = 0;
  // SMCentric: the SMs (by %smid) the launch may use; empty means all.
  std::vector<unsigned> sms;
  ChunkOrder order = ChunkOrder::Interleaved;
  // ChunkOrder::Table: chunkToSM[c] is the SM whose queue holds chunk c
  // (c = linear blockIdx, x fastest).  Must have one entry per chunk, each
  // SM in the set.
  std::vector<unsigned> chunkToSM;
  // ChunkOrder::Cluster.  The grid is cut into clusters of neighbouring
  // chunks (clusterDir); each SM's queue holds whole clusters, one after
  // the other, so that the SM's active workers run the chunks of one
  // cluster at a time.  Clusters go, in grid order (x fastest), each to the
  // SM of the set with the fewest chunks so far (ties: the first in set
  // order), which is round robin while clusters are whole, and keeps every
  // two SMs' chunk counts within one cluster of each other.  clusterSize:
  // chunks per cluster; 0 means the per-SM target of active workers (each
  // wave of an SM's workers is then one cluster).  Tile: clusterWidth x
  // clusterHeight chunks (x by y) when both are given (clusterSize must then
  // be 0 or their product), else a tile of clusterSize chunks with height
  // the largest divisor of clusterSize not above its square root and width
  // clusterSize / height (8: 4 x 2, 9: 3 x 3, 7: 7 x 1).  Combine with
  // workersPerSM to throttle (fewer active workers per SM, less contention
  // for L1).
  ClusterDir clusterDir = ClusterDir::Tile;
  unsigned clusterSize = 0;
  unsigned clusterWidth = 0;
  unsigned clusterHeight = 0;
  // Slice: chunks (original CTAs) per slice launch; 0 means one slice.
  unsigned sliceSize = 0;
  // Every launch of the kernel is urgent, whatever its stream: as a launch
  // on a stream of higher priority than the least (PriorityMode below), it
  // takes SMs from the yielding SM-centric launches of best-effort streams,
  // and under Variant::Auto it counts as a kernel of high priority.  Any
  // variant; in SMC_POLICY, the option `urgent` (`k=original(urgent)`).
  // Ignored under PriorityMode::Off and on a stream with a live partition.
  bool urgent = false;
  // Urgent, and room is kept for it: once the kernel has launched,
  // every best-effort SM-centric launch leaves room on each SM for one of
  // its CTAs (fewer workers per SM, from the two kernels' threads,
  // registers and shared memory), and its launches take no SMs: their
  // CTAs start in that room at once, not at a chunk boundary.  While room
  // is kept, an original launch of at most one CTA per SM runs with over
  // half an SM's shared memory per CTA, so that its CTAs cannot pile onto
  // one SM.  Costs the best effort the room it leaves (each best-effort
  // kernel is told once how many workers per SM it keeps).  With
  // SMC_TENANTS=on, the other SMC processes on the GPU keep the room too.
  // In SMC_POLICY, the option `reserve` (`k=original(reserve)`).  Ignored
  // under PriorityMode::Off.
  bool reserve = false;
  // A tail-latency target for the kernel's launches (it makes them urgent):
  // the runtime times each launch on its stream (events from the stream
  // reaching the launch to the kernel's end) and judges the p99 of every
  // 200.  Room is kept for it first (as `reserve`, which costs the best
  // effort the room, each best-effort kernel told how much); once room met
  // the target 4 windows in a row, it takes SMs instead (as `urgent`), and
  // keeps room again as soon as 3 launches of a window are over the target
  // (the next try twice as late).  Every change is told once with its
  // numbers.  p99Ratio: over the fastest launch of the kernel seen so far;
  // p99Micros: in microseconds; 0: no target.  In SMC_POLICY, the option
  // `p99=1.5x` or `p99=120us` (`k=original(p99=2x)`).  Not with `reserve`;
  // ignored under PriorityMode::Off.
  double p99Ratio = 0;
  double p99Micros = 0;
  // Remap: the share of the jobs (0 < remapRatio <= 1) that are remapped,
  // the first ones in thread order (partial remapping: a smaller table and
  // sort); where the keys come from; whether trials decide.
  double remapRatio = 1.0;
  RemapKeys remapKeys = RemapKeys::Inspector;
  RemapControl remapControl = RemapControl::Adaptive;

  static Policy original() {
    Policy p;
    p.variant = Variant::Original;
    return p;
  }
  static Policy smCentric(unsigned workersPerSM = 0,
                          std::vector<unsigned> sms = {},
                          ChunkOrder order = ChunkOrder::Interleaved) {
    Policy p;
    p.workersPerSM = workersPerSM;
    p.sms = std::move(sms);
    p.order = order;
    return p;
  }
  // ChunkOrder::Cluster with clusters of `clusterSize` neighbours along
  // `dir` (0: the per-SM target).
  static Policy clustered(ClusterDir dir, unsigned clusterSize = 0,
                          unsigned workersPerSM = 0,
                          std::vector<unsigned> sms = {}) {
    Policy p = smCentric(workersPerSM, std::move(sms), ChunkOrder::Cluster);
    p.clusterDir = dir;
    p.clusterSize = clusterSize;
    return p;
  }
  // ChunkOrder::Cluster with tiles of width x height chunks (x by y).
  static Policy clusteredTiles(unsigned width, unsigned height,
                               unsigned workersPerSM = 0,
                               std::vector<unsigned> sms = {}) {
    Policy p = clustered(ClusterDir::Tile, 0, workersPerSM, std::move(sms));
    p.clusterWidth = width;
    p.clusterHeight = height;
    return p;
  }
  static Policy automatic() {
    Policy p;
    p.variant = Variant::Auto;
    return p;
  }
  static Policy locality() {
    Policy p;
    p.variant = Variant::Locality;
    return p;
  }
  static Policy remap(RemapControl control = RemapControl::Adaptive,
                      double ratio = 1.0,
                      RemapKeys keys = RemapKeys::Inspector) {
    Policy p;
    p.variant = Variant::Remap;
    p.remapControl = control;
    p.remapRatio = ratio;
    p.remapKeys = keys;
    return p;
  }
  static Policy slice(unsigned sliceSize) {
    Policy p;
    p.variant = Variant::Slice;
    p.sliceSize = sliceSize;
    return p;
  }
};

// Sets the policy of one kernel, named by the host symbol the program
// launches (the function itself: setPolicy(myKernel, ...)).  Only for
// functions: a string literal goes to setPolicy(name, ...) below.
void setPolicyForSymbol(const void *kernelSymbol, const Policy &policy);
template <typename Kernel,
          typename = std::enable_if_t<std::is_function_v<Kernel>>>
void setPolicy(Kernel *kernel, const Policy &policy) {
  setPolicyForSymbol(reinterpret_cast<const void *>(kernel), policy);
}

// Sets the policy of every kernel whose source name (e.g. "vecAdd",
// "ns::scale<float>", without parameters) or mangled name equals `name`.
// A name of "*" sets the default for all kernels.
void setPolicy(const std::string &name, const Policy &policy);

// Affinity-based placement (Enabling and Exploiting Flexible Task
// Assignment on GPU through SM-Centric Program Transformations, ICS 2015,
// section 5.2).  Chunks (original CTAs) that read the same data run on the
// same SM, so that the SM's L1 serves what they share: an inspector (the
// program) says which data blocks each chunk reads; the runtime joins
// chunks whose block sets overlap (Jaccard score) into an affinity graph,
// cuts it into one balanced part per SM with METIS (libmetis5, loaded at
// first use), and places the launch's chunks by the resulting table
// (ChunkOrder::Table).
//
// Chunk c (linear blockIdx, x fastest) reads blocks[begin[c]] ..
// blocks[begin[c + 1] - 1]: 64-bit ids of whatever unit the program
// chooses, usually cache lines (address / 128).  Blocks only one chunk
// reads (streamed data) create no affinity and only lower every score a
// little; leaving them out is cheaper.
struct ChunkFootprint {
  std::vector<uint64_t> begin; // chunks + 1 entries, begin[0] == 0
  std::vector<uint64_t> blocks;
};

struct AffinityOptions {
  // The SMs to place on (each gets one part); empty means every SM of the
  // current device.
  std::vector<unsigned> sms;
  // Active workers per SM (Policy::workersPerSM; 0: the original's
  // occupancy).  Fewer workers keep more of each part's data in L1.
  unsigned workersPerSM = 0;
  // Chunk pairs with a Jaccard score below this share too little to
  // matter and get no edge (the paper's threshold).
  double minAffinity = 0.05;
  // Take the cheaper chunk orders where they keep about as much affinity:
  // the interleaved order (the default) where the partition would keep
  // little more (summed over the chunks placed with it, the average chunk
  // would share less than half of its blocks more, in Jaccard scores), the
  // contiguous order where it keeps at least 90% of what the partition
  // keeps: a table is uploaded with the launch's plan and every thread
  // loads its chunk id from it.  False: always the partition's table.
  bool cheapestOrder = true;
  // Each chunk keeps its edges to the chunks it shares most with, at most
  // this many (0: all), which bounds the graph METIS partitions.
  unsigned maxNeighbours = 32;
  // Bound on the pair counting work (the sum over blocks of the square of
  // the chunks reading it); above it blocks are sampled by hash, but never
  // to fewer than 16 per chunk on average.
  uint64_t maxPairWork = uint64_t(1) << 28;
};

// What building a placement did and cost.
struct AffinityReport {
  bool ok = false;
  std::string error;   // why not, when !ok
  bool cached = false; // placeByAffinity: taken from its cache
  unsigned chunks = 0, parts = 0;
  uint64_t edges = 0;
  // 1: every block counted; k: one block in k (buildGraph's sampling).
  uint64_t sampleEvery = 1;
  // The chunk order of the placement (AffinityOptions::cheapestOrder).
  ChunkOrder order = ChunkOrder::Table;
  // The affinity graph's weight per chunk: the sum of a chunk's Jaccard
  // scores with the chunks it is joined to, averaged over the chunks.
  double affinityPerChunk = 0;
  // Fraction of the affinity graph's edge weight inside parts (SMs): of
  // the partition, of the interleaved order (chunk c on the (c mod
  // |sms|)-th SM) and of the contiguous order.
  double keptAffinity = 0;
  double interleavedAffinity = 0;
  double contiguousAffinity = 0;
  double inspectSeconds = 0;   // the inspector (placeByAffinity only)
  double graphSeconds = 0;     // building the affinity graph
  double partitionSeconds = 0; // METIS and the table
};

// Builds the placement for `footprint` into `policy` (SM-centric, the
// chunk table or a cheaper order that keeps about as much, options.sms and
// options.workersPerSM).  Returns false, with
// report->error set and `policy` unchanged, for a malformed footprint, an
// SM the device does not have, or when METIS cannot be loaded.  A table
// fits launches of exactly footprint's chunk count (a launch of another
// grid runs the original kernel, and the runtime says why); the interleaved
// and contiguous orders fit any grid.
bool affinityPolicy(const ChunkFootprint &footprint,
                    const AffinityOptions &options, Policy &policy,
                    AffinityReport *report = nullptr);

// Sets the kernel's policy to the affinity placement for its input
// `signature` (any value that changes when what the chunks read changes:
// a hash of the index arrays, a problem id).  The placement is built once
// per kernel, signature and options, calling `inspect` for the footprint,
// and taken from a cache afterwards (report.cached).  On failure the
// kernel keeps its policy, report.error says why and the runtime says it
// once on stderr.
AffinityReport
placeByAffinityForSymbol(const void *kernelSymbol, uint64_t signature,
                         const std::function<ChunkFootprint()> &inspect,
                         const AffinityOptions &options = {});
template <typename Kernel,
          typename = std::enable_if_t<std::is_function_v<Kernel>>>
AffinityReport placeByAffinity(Kernel *kernel, uint64_t signature,
                               const std::function<ChunkFootprint()> &inspect,
                               const AffinityOptions &options = {}) {
  return placeByAffinityForSymbol(reinterpret_cast<const void *>(kernel),
                                  signature, inspect, options);
}
// The same for the kernels setPolicy(name, ...) would select.
AffinityReport placeByAffinity(const std::string &name, uint64_t signature,
                               const std::function<ChunkFootprint()> &inspect,
                               const AffinityOptions &options = {});

// Parses text in the SMC_POLICY grammar and adds its rules.  On error,
// returns false, sets *error to a message naming the bad part and changes
// nothing.
bool setPolicyText(const std::string &text, std::string *error = nullptr);

// Forgets every policy set through this API (SMC_POLICY stays in force).
void clearPolicies();

// Live SM partitions.  Confines every SM-centric launch on `stream` (a
// stream of the current device) to the SMs `sms`, with at most
// `workersPerSM` active workers per SM (0: as many as the kernel's policy
// says): launches made later, and those already queued or running, whose
// workers on SMs outside the set (or beyond the count) leave at their next
// chunk boundary; the chunks they leave behind go to the workers that stay.
// When the partition grows (more SMs, or more workers per SM) while the
// stream's last launch runs, the runtime adds workers to that launch for
// what the partition gained (a top-up grid, which joins it and ends with
// it); workers not yet placed and later launches use the new SMs too.
// The stream partition replaces the SM set and workers of the
// kernel's policy; original and slice policies are unaffected.  Returns
// false, with *error set and nothing changed, when `sms` is empty or names
// an SM the device does not have, or the runtime cannot reach the device.
bool setStreamSMs(cudaStream_t stream, const std::vector<unsigned> &sms,
                  unsigned workersPerSM = 0, std::string *error = nullptr);

// Ends the stream's partition: running launches may use every SM again (the
// last one gets a top-up grid for the SMs it gains, as above), and later
// launches follow their kernel's policy.
void clearStreamSMs(cudaStream_t stream);

// Stream priorities (cudaStreamCreateWithPriority).  The hardware gives
// CTAs of a higher-priority stream the next free place on an SM, but the
// persistent workers of an SM-centric launch free none until their launch
// ends.  So SM-centric launches on streams of the least priority (every
// stream created without one, the default streams) yield: a launch on a
// stream of higher priority (urgent) first takes as many SMs as its CTAs
// need at once, whose best-effort workers leave at their next chunk
// boundary, runs there (an SM-centric urgent launch is confined to them),
// and gives them back when it ends; the best-effort launches still running
// then get workers there again (a top-up grid).  Streams with a live
// partition (setStreamSMs) neither yield nor take SMs.  Yielding launches
// claim one chunk at a time.
enum class PriorityMode {
  // SM-centric launches yield from the moment the program creates a stream
  // of higher priority than the least (through code compiled with the
  // plugin), sets a policy with Policy::urgent, or makes an urgent launch
  // (the default, also SMC_PRIORITY=auto).
  Auto,
  On,  // from the first launch (SMC_PRIORITY=on)
  Off, // never: urgent launches wait for running SM-centric launches
};

// Overrides SMC_PRIORITY for launches made from now on.
void setPriorityMode(PriorityMode mode);

// Variant::Remap: the data the remap of a kernel's launches was computed
// from has changed, so each of its configurations computes its remap again
// at its next remapped launch.  (A remap is also computed again when a
// launch's arguments differ from those it was computed with.)  A stale
// remap is never wrong, only slower: any order of the jobs is legal.
void refreshRemapForSymbol(const void *kernelSymbol);
template <typename Kernel,
          typename = std::enable_if_t<std::is_function_v<Kernel>>>
void refreshRemap(Kernel *kernel) {
  refreshRemapForSymbol(reinterpret_cast<const void *>(kernel));
}
// The same for every kernel.
void refreshRemaps();

// Kernel profiles for policy Auto: how each kernel's time scales with the
// SMs it gets (the JSON that SMC_PROFILE_RECORD and scripts/smc-profile
// write; docs/corun.md, "Profiles").  Replaces the profiles loaded so
// far (SMC_PROFILE's too).  Returns false, with *error set and the loaded
// profiles unchanged, when the file cannot be read or is not a profile.
bool loadProfiles(const std::string &path, std::string *error = nullptr);

} // namespace smc

// smc::Batch, slice co-scheduling of recorded launches.
#include "smc/batch.h"
// Graph layouts, co-scheduling of CUDA graphs
#include "smc/graphs.h"

#endif // SMC_SMC_H
