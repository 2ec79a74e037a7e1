//===- AffinityGraph.cpp - Affinity graphs of chunks and their partition --===//
//
// Builds the Jaccard affinity graph of a chunk footprint through an inverted
// index (block -> chunks reading it), partitions it with METIS loaded at
// first use, and turns parts into a chunk-to-SM table.  See AffinityGraph.h.
//===----------------------------------------------------------------------===//
#include "locality/AffinityGraph.h"
#include "plan/QueuePlan.h"

#include <metis.h>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>
#include <utility>

namespace smc::affinity {
namespace {

// The fewest blocks the average chunk keeps when blocks are sampled.
constexpr double MinSampledBlocks = 16;
// When blocks are sampled, two chunks need more shared sampled blocks than
// chance would give them with at most this probability (see chanceBound).
constexpr double ChanceLevel = 1e-5;

// The fewest shared blocks that two chunks reading A and B blocks of a
// sample would reach by chance with probability at most ChanceLevel, when
// each reads blocks independently, in proportion to how many chunks read
// them: the shared count is then about Poisson with mean
// A * B * Concentration, where Concentration = sum k^2 / (sum k)^2 over the
// blocks' reader counts k.  At least 2.
uint32_t chanceBound(double A, double B, double Concentration) {
  double Mean = A * B * Concentration;
  if (Mean > 50) // the normal approximation; 4.5 deviations is below 1e-5
    return uint32_t(std::ceil(Mean + 4.5 * std::sqrt(Mean)));
  double Term = std::exp(-Mean); // P(X = S)
  double Below = 0;              // P(X < S)
  for (uint32_t S = 0;; ++S) {
    if (S >= 2 && 1 - Below <= ChanceLevel)
      return S;
    Below += Term;
    Term *= Mean / (S + 1);
  }
}

static_assert(sizeof(idx_t) == sizeof(int32_t),
              "METIS must be built with 32-bit indices (IDXTYPEWIDTH 32)");

// splitmix64's finalizer: the hash that decides which blocks a sample keeps.
uint64_t mixBits(uint64_t X) {
  X ^= X >> 30;
  X *= 0xbf58476d1ce4e5b9ULL;
  X ^= X >> 27;
  X *= 0x94d049bb133111ebULL;
  X ^= X >> 31;
  return X;
}

// The entry points of METIS this file calls, from libmetis.so.5.
struct Metis {
  decltype(&METIS_SetDefaultOptions) SetDefaultOptions = nullptr;
  decltype(&METIS_PartGraphKway) PartGraphKway = nullptr;
  std::string Error; // why they are null
};

const Metis &metis() {
  static Metis M;
  static std::once_flag Once;
  std::call_once(Once, [] {
    void *Lib = nullptr;
    for (const char *Name : {"libmetis.so.5", "libmetis.so"})
      if ((Lib = dlopen(Name, RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!Lib) {
      const char *Why = dlerror();
      M.Error = std::string("cannot load METIS (libmetis.so.5; Debian and "
                            "Ubuntu package libmetis5): ") +
                (Why ? Why : "not found");
      return;
    }
    M.SetDefaultOptions = reinterpret_cast<decltype(M.SetDefaultOptions)>(
        dlsym(Lib, "METIS_SetDefaultOptions"));
    M.PartGraphKway = reinterpret_cast<decltype(M.PartGraphKway)>(
        dlsym(Lib, "METIS_PartGraphKway"));
    if (!M.SetDefaultOptions || !M.PartGraphKway) {
      M.SetDefaultOptions = nullptr;
      M.PartGraphKway = nullptr;
      M.Error = "libmetis lacks METIS_PartGraphKway";
    }
  });
  return M;
}

const char *metisStatusText(int Status) {
  switch (Status) {
  case METIS_ERROR_INPUT:
    return "METIS_ERROR_INPUT";
  case METIS_ERROR_MEMORY:
    return "METIS_ERROR_MEMORY";
  default:
    return "METIS_ERROR";
  }
}

} // namespace

bool checkFootprint(const ChunkFootprint &Footprint, std::string &Error) {
  const std::vector<uint64_t> &Begin = Footprint.begin;
  if (Begin.size() < 2) {
    Error = "the footprint has no chunk (begin needs chunks + 1 entries)";
    return false;
  }
  if (Begin.size() - 1 > uint64_t(std::numeric_limits<int32_t>::max())) {
    Error = "the footprint has more than 2^31 - 1 chunks";
    return false;
  }
  if (Begin.front() != 0) {
    Error = "begin[0] is " + std::to_string(Begin.front()) + ", not 0";
    return false;
  }
  for (size_t C = 1; C < Begin.size(); ++C)
    if (Begin[C] < Begin[C - 1]) {
      Error = "begin decreases at chunk " + std::to_string(C - 1) + " (" +
              std::to_string(Begin[C - 1]) + " then " +
              std::to_string(Begin[C]) + ")";
      return false;
    }
  if (Begin.back() != Footprint.blocks.size()) {
    Error = "begin ends at " + std::to_string(Begin.back()) +
            " but there are " + std::to_string(Footprint.blocks.size()) +
            " blocks";
    return false;
  }
  return true;
}

namespace {

// Calls Body(First, Last) on up to all hardware threads for consecutive
// ranges of [0, N), with at least MinPerThread items per thread.
template <typename RangeBody>
void parallelRanges(uint64_t N, uint64_t MinPerThread, RangeBody Body) {
  uint64_t Threads = std::max(1u, std::thread::hardware_concurrency());
  Threads = std::min<uint64_t>(
      {Threads, 32,
       std::max<uint64_t>(1, N / std::max<uint64_t>(MinPerThread, 1))});
  if (Threads <= 1) {
    Body(uint64_t(0), N);
    return;
  }
  std::vector<std::thread> Workers;
  for (uint64_t T = 0; T < Threads; ++T)
    Workers.emplace_back(Body, N * T / Threads, N * (T + 1) / Threads);
  for (std::thread &W : Workers)
    W.join();
}

// Each chunk's distinct blocks: Blocks[Start[c] .. Start[c + 1]).
struct DistinctBlocks {
  std::vector<uint64_t> Blocks;
  std::vector<uint64_t> Start;
};

DistinctBlocks distinctBlocks(const ChunkFootprint &Footprint) {
  uint32_t Chunks = uint32_t(Footprint.begin.size() - 1);
  std::vector<uint64_t> Sorted(Footprint.blocks);
  std::vector<uint64_t> Length(Chunks);
  parallelRanges(Chunks, 256, [&](uint64_t First, uint64_t Last) {
    for (uint64_t C = First; C < Last; ++C) {
      auto Begin = Sorted.begin() + Footprint.begin[C];
      auto End = Sorted.begin() + Footprint.begin[C + 1];
      std::sort(Begin, End);
      Length[C] = uint64_t(std::unique(Begin, End) - Begin);
    }
  });
  DistinctBlocks D;
  D.Start.assign(size_t(Chunks) + 1, 0);
  for (uint32_t C = 0; C < Chunks; ++C)
    D.Start[C + 1] = D.Start[C] + Length[C];
  D.Blocks.resize(D.Start[Chunks]);
  for (uint32_t C = 0; C < Chunks; ++C)
    std::copy_n(Sorted.begin() + Footprint.begin[C], Length[C],
                D.Blocks.begin() + D.Start[C]);
  return D;
}

// A block read by a chunk.
struct Read {
  uint64_t Block;
  uint32_t Chunk;
  bool operator<(const Read &O) const {
    return Block != O.Block ? Block < O.Block : Chunk < O.Chunk;
  }
};

// The reads of the blocks that `Keep` accepts, grouped by block (the groups
// in no particular order, chunks ascending within a group): bucketed by a
// hash of the block, buckets sorted in parallel.
template <typename BlockFilter>
std::vector<Read> readsByBlock(const DistinctBlocks &D, BlockFilter Keep) {
  constexpr unsigned Buckets = 1024;
  auto BucketOf = [](uint64_t Block) {
    return unsigned(mixBits(Block ^ 0x5bd1e995) >> 54);
  };
  uint32_t Chunks = uint32_t(D.Start.size() - 1);
  std::vector<uint64_t> Start(Buckets + 1, 0);
  for (uint32_t C = 0; C < Chunks; ++C)
    for (uint64_t I = D.Start[C]; I < D.Start[C + 1]; ++I)
      if (Keep(D.Blocks[I]))
        ++Start[BucketOf(D.Blocks[I]) + 1];
  for (unsigned B = 0; B < Buckets; ++B)
    Start[B + 1] += Start[B];
  std::vector<Read> Reads(Start[Buckets]);
  std::vector<uint64_t> Cursor(Start.begin(), Start.end() - 1);
  for (uint32_t C = 0; C < Chunks; ++C)
    for (uint64_t I = D.Start[C]; I < D.Start[C + 1]; ++I)
      if (Keep(D.Blocks[I]))
        Reads[Cursor[BucketOf(D.Blocks[I])]++] = {D.Blocks[I], C};
  parallelRanges(Buckets, 8, [&](uint64_t First, uint64_t Last) {
    for (uint64_t B = First; B < Last; ++B)
      std::sort(Reads.begin() + Start[B], Reads.begin() + Start[B + 1]);
  });
  return Reads;
}

// Calls Group(First, Last) for each run of reads of one block.
template <typename GroupBody>
void forEachBlock(const std::vector<Read> &Reads, GroupBody Group) {
  for (size_t I = 0; I < Reads.size();) {
    size_t J = I + 1;
    while (J < Reads.size() && Reads[J].Block == Reads[I].Block)
      ++J;
    Group(I, J);
    I = J;
  }
}

// One sampling rate: the pair work divided by MaxPairWork, rounded up, but
// never so coarse that the average chunk keeps fewer than
// MinSampledBlocks blocks (scores near the threshold would be noise).  The
// work of a large footprint is estimated from one block in 16.
uint64_t sampleRate(const DistinctBlocks &D, uint64_t MaxPairWork) {
  if (MaxPairWork == 0)
    return 1;
  uint64_t Estimate = D.Blocks.size() > (uint64_t(1) << 22) ? 16 : 1;
  std::vector<Read> Sample = readsByBlock(
      D, [&](uint64_t Block) { return mixBits(~Block) % Estimate == 0; });
  double Work = 0;
  forEachBlock(Sample, [&](size_t First, size_t Last) {
    Work += double(Last - First) * double(Last - First);
  });
  Work *= double(Estimate);
  if (Work <= double(MaxPairWork))
    return 1;
  double Chunks = double(D.Start.size() - 1);
  double Coarsest = std::max(
      1.0, std::floor(double(D.Blocks.size()) / Chunks / MinSampledBlocks));
  return uint64_t(std::min(std::ceil(Work / double(MaxPairWork)), Coarsest));
}

// The sampled inverted index of a footprint: the chunks reading each kept
// block, and the kept blocks of each chunk.
struct SampledIndex {
  std::vector<uint32_t> ChunksOf;      // chunk ids, grouped by block
  std::vector<uint64_t> BlockStart{0}; // block b: ChunksOf[BlockStart[b]..]
  std::vector<uint32_t> BlocksOf;      // block numbers, grouped by chunk
  std::vector<uint64_t> ChunkStart;    // chunk c: BlocksOf[ChunkStart[c]..]
  // Sum of k^2 / (sum of k)^2 over the blocks' reader counts k.
  double Concentration = 0;
};

SampledIndex sampledIndex(const DistinctBlocks &D, uint64_t SampleEvery) {
  std::vector<Read> Reads = readsByBlock(
      D, [&](uint64_t Block) { return mixBits(Block) % SampleEvery == 0; });
  uint32_t Chunks = uint32_t(D.Start.size() - 1);
  SampledIndex Index;
  Index.ChunksOf.reserve(Reads.size());
  Index.ChunkStart.assign(size_t(Chunks) + 1, 0);
  double SumSquares = 0;
  forEachBlock(Reads, [&](size_t First, size_t Last) {
    SumSquares += double(Last - First) * double(Last - First);
    for (size_t K = First; K < Last; ++K) {
      Index.ChunksOf.push_back(Reads[K].Chunk);
      ++Index.ChunkStart[Reads[K].Chunk + 1];
    }
    Index.BlockStart.push_back(Index.ChunksOf.size());
  });
  for (uint32_t C = 0; C < Chunks; ++C)
    Index.ChunkStart[C + 1] += Index.ChunkStart[C];
  if (!Reads.empty())
    Index.Concentration = SumSquares / (double(Reads.size()) * Reads.size());
  // Each chunk's blocks, by a counting sort on the chunk.
  std::vector<uint64_t> Cursor(Index.ChunkStart.begin(),
                               Index.ChunkStart.end() - 1);
  Index.BlocksOf.resize(Index.ChunksOf.size());
  for (uint32_t Block = 0; Block + 1 < Index.BlockStart.size(); ++Block)
    for (uint64_t K = Index.BlockStart[Block]; K < Index.BlockStart[Block + 1];
         ++K)
      Index.BlocksOf[Cursor[Index.ChunksOf[K]]++] = Block;
  return Index;
}

// An edge from one chunk's point of view.
struct HalfEdge {
  uint32_t To;
  int32_t Weight;
};

// The edges of chunks [First, Last) at or above MinAffinity, each chunk's
// strongest MaxNeighbours (ties: the lower chunk id), by neighbour id.
void chunkEdges(const SampledIndex &Index, uint32_t First, uint32_t Last,
                double MinAffinity, bool Sampled, uint32_t MaxNeighbours,
                std::vector<std::vector<HalfEdge>> &Edges) {
  uint32_t Chunks = uint32_t(Index.ChunkStart.size() - 1);
  std::vector<uint32_t> Shared(Chunks, 0);
  std::vector<uint32_t> Touched;
  auto SetSize = [&](uint32_t C) {
    return double(Index.ChunkStart[C + 1] - Index.ChunkStart[C]);
  };
  for (uint32_t C = First; C < Last; ++C) {
    Touched.clear();
    for (uint64_t I = Index.ChunkStart[C]; I < Index.ChunkStart[C + 1]; ++I) {
      uint32_t Block = Index.BlocksOf[I];
      for (uint64_t K = Index.BlockStart[Block];
           K < Index.BlockStart[Block + 1]; ++K) {
        uint32_t D = Index.ChunksOf[K];
        if (D != C && Shared[D]++ == 0)
          Touched.push_back(D);
      }
    }
    std::vector<HalfEdge> &Out = Edges[C];
    for (uint32_t D : Touched) {
      double Both = Shared[D];
      double Score = Both / (SetSize(C) + SetSize(D) - Both);
      Shared[D] = 0;
      if (Score >= MinAffinity &&
          (!Sampled ||
           Both >= chanceBound(SetSize(C), SetSize(D), Index.Concentration)))
        Out.push_back({D, std::max(1, int(std::lround(Score * 1000)))});
    }
    if (MaxNeighbours && Out.size() > MaxNeighbours) {
      std::nth_element(Out.begin(), Out.begin() + MaxNeighbours, Out.end(),
                       [](const HalfEdge &A, const HalfEdge &B) {
                         return A.Weight != B.Weight ? A.Weight > B.Weight
                                                     : A.To < B.To;
                       });
      Out.resize(MaxNeighbours);
    }
    std::sort(Out.begin(), Out.end(),
              [](const HalfEdge &A, const HalfEdge &B) { return A.To < B.To; });
  }
}

} // namespace

Graph buildGraph(const ChunkFootprint &Footprint, double MinAffinity,
                 uint64_t MaxPairWork, uint32_t MaxNeighbours) {
  uint32_t Chunks = uint32_t(Footprint.begin.size() - 1);
  Graph G;
  SampledIndex Index;
  {
    DistinctBlocks D = distinctBlocks(Footprint);
    G.SampleEvery = sampleRate(D, MaxPairWork);
    Index = sampledIndex(D, G.SampleEvery);
  }
  // Each chunk's edges, chunks split over threads.
  std::vector<std::vector<HalfEdge>> Edges(Chunks);
  parallelRanges(Chunks, 1024, [&](uint64_t First, uint64_t Last) {
    chunkEdges(Index, uint32_t(First), uint32_t(Last), MinAffinity,
               G.SampleEvery > 1, MaxNeighbours, Edges);
  });

  // Symmetric: an edge either end kept.  Scores are symmetric, so both
  // ends agree on the weight.
  std::vector<std::vector<HalfEdge>> Both(Chunks);
  for (uint32_t C = 0; C < Chunks; ++C)
    for (const HalfEdge &E : Edges[C]) {
      Both[C].push_back(E);
      Both[E.To].push_back({C, E.Weight});
    }
  Edges = {};
  G.Offsets.assign(size_t(Chunks) + 1, 0);
  for (uint32_t C = 0; C < Chunks; ++C) {
    std::vector<HalfEdge> &List = Both[C];
    std::sort(List.begin(), List.end(),
              [](const HalfEdge &A, const HalfEdge &B) { return A.To < B.To; });
    List.erase(std::unique(List.begin(), List.end(),
                           [](const HalfEdge &A, const HalfEdge &B) {
                             return A.To == B.To;
                           }),
               List.end());
    for (const HalfEdge &E : List) {
      G.Neighbours.push_back(int32_t(E.To));
      G.Weights.push_back(E.Weight);
    }
    G.Offsets[C + 1] = int32_t(G.Neighbours.size());
    List = {};
  }
  return G;
}

bool partitionGraph(const Graph &G, uint32_t Parts,
                    std::vector<uint32_t> &PartOf, std::string &Error) {
  uint32_t Chunks = G.chunks();
  PartOf.resize(Chunks);
  if (Parts == 0) {
    Error = "no SM to place on";
    return false;
  }
  if (Parts == 1 || Chunks <= Parts || G.Neighbours.empty()) {
    for (uint32_t C = 0; C < Chunks; ++C)
      PartOf[C] = C % Parts;
    return true;
  }
  const Metis &M = metis();
  if (!M.PartGraphKway) {
    Error = M.Error;
    return false;
  }
  idx_t Options[METIS_NOPTIONS];
  M.SetDefaultOptions(Options);
  Options[METIS_OPTION_NUMBERING] = 0;
  Options[METIS_OPTION_SEED] = 1; // the same table for the same graph
  idx_t Vertices = idx_t(Chunks), Constraints = 1, NumParts = idx_t(Parts);
  idx_t Cut = 0;
  // METIS takes non-const pointers but does not write the graph.
  std::vector<idx_t> Offsets(G.Offsets), Neighbours(G.Neighbours),
      Weights(G.Weights), Result(Chunks);
  int Status = M.PartGraphKway(&Vertices, &Constraints, Offsets.data(),
                               Neighbours.data(), nullptr, nullptr,
                               Weights.data(), &NumParts, nullptr, nullptr,
                               Options, &Cut, Result.data());
  if (Status != METIS_OK) {
    Error =
        std::string("METIS_PartGraphKway failed: ") + metisStatusText(Status);
    return false;
  }
  for (uint32_t C = 0; C < Chunks; ++C)
    PartOf[C] = uint32_t(Result[C]);
  return true;
}

double keptAffinity(const Graph &G, const std::vector<uint32_t> &PartOf) {
  double Inside = 0, Total = 0;
  for (uint32_t C = 0; C < G.chunks(); ++C)
    for (int32_t E = G.Offsets[C]; E < G.Offsets[C + 1]; ++E) {
      Total += G.Weights[E];
      if (PartOf[C] == PartOf[uint32_t(G.Neighbours[E])])
        Inside += G.Weights[E];
    }
  return Total > 0 ? Inside / Total : 0;
}

PlacementChoice choosePlacement(const Graph &G,
                                const std::vector<uint32_t> &PartOf,
                                uint32_t Parts) {
  uint32_t Chunks = G.chunks();
  std::vector<uint32_t> Other(Chunks);
  PlacementChoice Choice;
  Choice.Table = keptAffinity(G, PartOf);
  for (uint32_t C = 0; C < Chunks; ++C)
    Other[C] = C % Parts;
  Choice.Interleaved = keptAffinity(G, Other);
  for (uint32_t C = 0; C < Chunks; ++C)
    Other[C] = contiguousRange(C, Chunks, Parts);
  Choice.Contiguous = keptAffinity(G, Other);
  double Weight = 0;
  for (int32_t W : G.Weights)
    Weight += W;
  Choice.PerChunk = Chunks ? Weight / 1000 / Chunks : 0;
  if ((Choice.Table - Choice.Interleaved) * Choice.PerChunk < MinGain)
    Choice.Order = ChunkOrder::Interleaved;
  else if (Choice.Contiguous >= ContiguousShare * Choice.Table)
    Choice.Order = ChunkOrder::Contiguous;
  else
    Choice.Order = ChunkOrder::Table;
  return Choice;
}

std::vector<unsigned> chunkTable(const std::vector<uint32_t> &PartOf,
                                 const std::vector<unsigned> &Sms) {
  std::vector<unsigned> Table(PartOf.size());
  for (size_t C = 0; C < PartOf.size(); ++C)
    Table[C] = Sms[PartOf[C]];
  return Table;
}

} // namespace smc::affinity
