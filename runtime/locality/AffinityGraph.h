//===- AffinityGraph.h - Affinity graphs of chunks and their partition -*- C++
//-*-===//
//
// Affinity-based placement (Enabling and Exploiting Flexible Task Assignment
// on GPU through SM-Centric Program Transformations, ICS 2015, section 5.2):
// from the data blocks each chunk (original CTA) reads, an affinity graph
// whose edges join chunks that share data, weighted by the Jaccard score of
// their block sets; partitioned into one balanced part per SM by METIS (the
// paper's own partitioner is replaced by a well-kept library); the parts
// become a chunk-to-SM table (ChunkOrder::Table).  Pure C++: no CUDA, unit
// tested on the CPU.  METIS is loaded at first use (dlopen of
// libmetis.so.5), so that programs that never ask for affinity placement
// need no METIS.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_LOCALITY_AFFINITYGRAPH_H
#define SMC_RUNTIME_LOCALITY_AFFINITYGRAPH_H

#include "smc/smc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace smc::affinity {

// The affinity graph in the compressed form METIS reads: the neighbours of
// chunk c are Neighbours[Offsets[c]] .. Neighbours[Offsets[c + 1] - 1], with
// Weights alongside (the Jaccard score times 1000, rounded, at least 1).
// Symmetric, without self loops.
struct Graph {
  std::vector<int32_t> Offsets; // chunks + 1
  std::vector<int32_t> Neighbours;
  std::vector<int32_t> Weights;
  // 1 when every block was counted; k when the blocks were sampled, one in
  // k (by a hash of the block id), to bound the work (buildGraph).
  uint64_t SampleEvery = 1;
  uint32_t chunks() const {
    return Offsets.empty() ? 0 : uint32_t(Offsets.size() - 1);
  }
  uint64_t edges() const { return Neighbours.size() / 2; }
};

// False, with `Error` naming the first fault, unless `Footprint` is well
// formed: begin has chunks + 1 entries (at least one chunk, at most
// 2^31 - 1), begin[0] is 0, the entries never decrease and the last is
// blocks.size().
bool checkFootprint(const ChunkFootprint &Footprint, std::string &Error);

// The affinity graph of a well-formed footprint (checkFootprint).  A block
// read twice by one chunk counts once.  Two chunks are joined when the
// Jaccard score of their block sets, |A n B| / |A u B|, is at least
// `MinAffinity` (the paper drops scores below 0.05) and the score is among
// the `MaxNeighbours` highest of either chunk (0: no limit), which bounds
// the graph METIS partitions.  Counting the shared blocks of every pair
// costs the sum over blocks of (chunks reading the block)^2; where that
// exceeds `MaxPairWork`, only the blocks whose hash is 0 modulo SampleEvery
// count, SampleEvery chosen so that the expected work is at most
// MaxPairWork but the average chunk keeps at least 16 blocks (the work can
// then exceed the bound).  The scores are then those of the sampled sets,
// which estimate the full ones, and an edge also needs more shared sampled
// blocks than chance would give the two chunks (at least 2, and a count
// that chunks reading blocks at random would reach with probability at
// most 1e-5: few shared blocks in small samples are not evidence).  The
// counting runs on all hardware threads; the work of a footprint of more than
// 2^22 blocks is estimated from a sample.
Graph buildGraph(const ChunkFootprint &Footprint, double MinAffinity,
                 uint64_t MaxPairWork, uint32_t MaxNeighbours = 0);

// One part (0 .. Parts - 1) per chunk: METIS's k-way partition of `G`
// minimizing the weight of the edges cut, each part within 3% of an equal
// share of the chunks.  Without edges (or with one part, or no more chunks
// than parts) chunk c goes to part c mod Parts: the interleaved order.
// False, with `Error` set, when METIS cannot be loaded or fails.
bool partitionGraph(const Graph &G, uint32_t Parts,
                    std::vector<uint32_t> &PartOf, std::string &Error);

// The fraction of the graph's edge weight inside parts (1: no shared
// block crosses SMs; 0 for a graph without edges).
double keptAffinity(const Graph &G, const std::vector<uint32_t> &PartOf);

// What each chunk order keeps of the affinity on `Parts` SMs, and the order
// chosen.  Affinity is measured per chunk: the sum of the Jaccard scores
// of a chunk's edges, averaged over the chunks (PerChunk), of which a
// placement keeps the edges inside parts.  The interleaved order (the
// default) stays where the partition would keep less than MinGain more per
// chunk than it: chunks that share little gain nothing worth a placement.
// Else the contiguous order where it keeps at least ContiguousShare of
// what the partition keeps (neither needs a table upload nor a load per
// chunk), else the partition's table.  MinGain
// comes from two measurements on an H100 (docs/results/locality.md, "Affinity
// placement"): spmv's band (a gain of about 10 per chunk) ran 1.18x faster
// in the contiguous order than in the interleaved one, nbf's window of
// partners (a gain of 0.26) about 4% slower.
struct PlacementChoice {
  ChunkOrder Order = ChunkOrder::Interleaved;
  double PerChunk = 0; // the affinity graph's weight per chunk
  double Table = 0, Interleaved = 0, Contiguous = 0; // keptAffinity of each
};
constexpr double MinGain = 0.5;
constexpr double ContiguousShare = 0.9;
PlacementChoice choosePlacement(const Graph &G,
                                const std::vector<uint32_t> &PartOf,
                                uint32_t Parts);

// The chunk-to-SM table (Policy::chunkToSM) that puts part p on Sms[p].
std::vector<unsigned> chunkTable(const std::vector<uint32_t> &PartOf,
                                 const std::vector<unsigned> &Sms);

} // namespace smc::affinity

#endif // SMC_RUNTIME_LOCALITY_AFFINITYGRAPH_H
