//===- AffinityTest.cu - Affinity-based placement on a GPU ----------------===//
//
// smc::affinityPolicy and smc::placeByAffinity (after SM-Centric, ICS'15,
// section 5.2) on a gather kernel whose chunks fall into groups that read
// the same lines of a table, the groups scattered over the chunk ids (a
// fixed random permutation): what the hardware's, the interleaved and the
// contiguous order spread over many SMs.
//  - GathersMatchOriginal: the placement, also with workers=1 and on an SM
//    subset, and a table for another grid (which the runtime refuses: the
//    original runs), give bit-identical outputs, every chunk exactly once;
//  - GroupsRunOnTheirSm: the table puts each group whole on one SM, a
//    different SM per group, and the chunks run there (%smid, allowing for
//    the few a worker with an empty queue steals); the original does not
//    keep groups together; groups that the interleaved order keeps
//    together get the interleaved order (no table);
//  - CachesPerSignature: placeByAffinity inspects once per kernel,
//    signature and options, and the placement it sets is in force;
//  - BadInputKeepsThePolicy: a malformed footprint or an SM the device does
//    not have is refused with a message, and the kernel keeps its policy.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace smctest;

constexpr int kAffinityThreads = 128;

// Each thread sums the table at Reads[chunk * kAffinityThreads + t] and 3
// more places (ints: exact); thread 0 records the SM and counts the chunk.
// The CTA spins SpinNs so that every SM's workers start before any runs out
// of work.
__global__ void affinityGather(const uint32_t *Table, const uint32_t *Reads,
                               uint32_t *Out, uint32_t *SmOfChunk,
                               uint32_t *Counts, unsigned long long SpinNs) {
  uint32_t Chunk = blockIdx.x;
  size_t I = size_t(Chunk) * kAffinityThreads + threadIdx.x;
  uint32_t Sum = 0;
  for (int K = 0; K < 4; ++K)
    Sum = Sum * 31u + Table[Reads[I] + K * 32];
  Out[I] = mix32(Sum ^ Chunk);
  if (threadIdx.x == 0)
    spinThenRecordSm(Chunk, SmOfChunk, Counts, SpinNs);
}

namespace {

using Affinity = SmcGpuTest;

// Chunks in `Groups` groups of (nearly) equal size; group g's chunks read
// words of its own 4 KiB region of the table (random words of it, per
// thread).  With `Scattered`, the chunks of a group are spread over the
// chunk ids by a fixed random permutation; else chunk c is in group
// c mod Groups.
struct GroupedGather {
  unsigned Chunks, Groups;
  std::vector<uint32_t> GroupOf; // per chunk
  std::vector<uint32_t> Reads;   // per thread: a table index
  DeviceArray<uint32_t> Table, DReads, Out, SmOfChunk, Counts;

  GroupedGather(unsigned Chunks, unsigned Groups, bool Scattered = true)
      : Chunks(Chunks), Groups(Groups), GroupOf(Chunks) {
    std::vector<uint32_t> Order(Chunks);
    for (unsigned C = 0; C < Chunks; ++C)
      Order[C] = C;
    if (Scattered)
      std::shuffle(Order.begin(), Order.end(), std::mt19937(5));
    for (unsigned I = 0; I < Chunks; ++I)
      GroupOf[Order[I]] = I % Groups;
    std::vector<uint32_t> Noise =
        randomWords(size_t(Chunks) * kAffinityThreads, 11);
    Reads.resize(Noise.size());
    for (size_t I = 0; I < Reads.size(); ++I)
      Reads[I] =
          GroupOf[I / kAffinityThreads] * 1024 + Noise[I] % (1024 - 3 * 32);
  }

  cudaError_t allocate() {
    cudaError_t Err;
    if ((Err = Table.upload(randomWords(size_t(Groups) * 1024, 12))) !=
            cudaSuccess ||
        (Err = DReads.upload(Reads)) != cudaSuccess ||
        (Err = Out.allocate(Reads.size())) != cudaSuccess ||
        (Err = SmOfChunk.allocate(Chunks)) != cudaSuccess)
      return Err;
    return Counts.allocate(Chunks);
  }

  // The 128-byte lines each chunk reads.
  smc::ChunkFootprint footprint() const {
    smc::ChunkFootprint F;
    F.begin.push_back(0);
    for (unsigned C = 0; C < Chunks; ++C) {
      for (unsigned T = 0; T < kAffinityThreads; ++T)
        for (unsigned K = 0; K < 4; ++K)
          F.blocks.push_back(
              (Reads[size_t(C) * kAffinityThreads + T] + K * 32) / 32);
      F.begin.push_back(F.blocks.size());
    }
    return F;
  }

  std::vector<Buffer> buffers() const {
    return {{Out.get(), Out.bytes(), Buffer::Output, "out"},
            {Counts.get(), Counts.bytes(), Buffer::Counter, "counts"}};
  }

  cudaError_t launch(unsigned long long SpinNs) const {
    affinityGather<<<Chunks, kAffinityThreads>>>(Table.get(), DReads.get(),
                                                 Out.get(), SmOfChunk.get(),
                                                 Counts.get(), SpinNs);
    return cudaGetLastError();
  }
};

smc::Policy placement(const smc::ChunkFootprint &F,
                      const smc::AffinityOptions &Options) {
  smc::Policy P;
  smc::AffinityReport Report;
  EXPECT_TRUE(smc::affinityPolicy(F, Options, P, &Report)) << Report.error;
  EXPECT_TRUE(Report.ok);
  return P;
}

TEST_F(Affinity, GathersMatchOriginal) {
  const unsigned SMs = numSMs();
  GroupedGather G(4 * SMs + 5, SMs);
  SMC_CUDA_ASSERT(G.allocate());
  smc::ChunkFootprint F = G.footprint();
  smc::AffinityOptions All, FewSms;
  FewSms.sms = smRange(0, std::min(16u, SMs));
  FewSms.workersPerSM = 1;
  smc::ChunkFootprint Other = GroupedGather(G.Chunks + 1, SMs).footprint();
  ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
      symbolOf(affinityGather), G.buffers(), [&] { return G.launch(0); },
      {{"affinity", placement(F, All)},
       {"affinity(workers=1,sms=0-15)", placement(F, FewSms)},
       {"affinity for another grid (runs the original)",
        placement(Other, All)}}));
}

TEST_F(Affinity, GroupsRunOnTheirSm) {
  const unsigned Sets = std::min(16u, numSMs());
  const unsigned PerGroup = 12;
  GroupedGather G(Sets * PerGroup, Sets);
  SMC_CUDA_ASSERT(G.allocate());
  // One worker per SM: a worker steals from other SMs' queues only when its
  // own is done, which is at the end with one.
  smc::AffinityOptions Options;
  Options.sms = smRange(0, Sets);
  Options.workersPerSM = 1;
  smc::Policy P;
  smc::AffinityReport Report;
  ASSERT_TRUE(smc::affinityPolicy(G.footprint(), Options, P, &Report))
      << Report.error;
  EXPECT_EQ(Report.chunks, G.Chunks);
  EXPECT_EQ(Report.parts, Sets);
  EXPECT_GT(Report.edges, 0u);
  EXPECT_DOUBLE_EQ(Report.keptAffinity, 1.0);
  EXPECT_LT(Report.interleavedAffinity, 0.5);
  EXPECT_LT(Report.contiguousAffinity, 0.5);
  ASSERT_EQ(Report.order, smc::ChunkOrder::Table);
  ASSERT_EQ(P.order, smc::ChunkOrder::Table);
  ASSERT_EQ(P.chunkToSM.size(), G.Chunks);
  // The table: one SM per group, a different one for each.
  std::map<unsigned, std::set<unsigned>> SmsOfGroup;
  std::set<unsigned> Used;
  for (unsigned C = 0; C < G.Chunks; ++C)
    SmsOfGroup[G.GroupOf[C]].insert(P.chunkToSM[C]);
  for (auto &[Group, Sms] : SmsOfGroup) {
    EXPECT_EQ(Sms.size(), 1u) << "group " << Group;
    Used.insert(*Sms.begin());
  }
  EXPECT_EQ(Used.size(), size_t(Sets));

  // Where the chunks ran.
  auto runOn = [&](const smc::Policy &Policy, const std::string &Name,
                   std::vector<uint32_t> &Sm) {
    SCOPED_TRACE(Name);
    smc::setPolicy(affinityGather, Policy);
    SMC_CUDA_ASSERT(cudaMemset(G.Counts.get(), 0, G.Counts.bytes()));
    SMC_CUDA_ASSERT(G.launch(20000));
    SMC_CUDA_SYNC_ASSERT();
    std::vector<uint32_t> Counts;
    SMC_CUDA_ASSERT(G.Counts.download(Counts));
    for (unsigned C = 0; C < G.Chunks; ++C)
      ASSERT_EQ(Counts[C], 1u) << "chunk " << C;
    SMC_CUDA_ASSERT(G.SmOfChunk.download(Sm));
  };
  std::vector<uint32_t> Sm;
  ASSERT_NO_FATAL_FAILURE(runOn(P, "affinity", Sm));
  unsigned OnTableSm = 0;
  for (unsigned C = 0; C < G.Chunks; ++C)
    OnTableSm += Sm[C] == P.chunkToSM[C];
  EXPECT_GE(OnTableSm, G.Chunks * 9 / 10)
      << "chunks that ran on the SM of the table";
  // The method can tell: the original spreads a group over several SMs.
  ASSERT_NO_FATAL_FAILURE(runOn(smc::Policy::original(), "original", Sm));
  unsigned Split = 0;
  std::map<unsigned, std::set<uint32_t>> Where;
  for (unsigned C = 0; C < G.Chunks; ++C)
    Where[G.GroupOf[C]].insert(Sm[C]);
  for (auto &[Group, Sms] : Where)
    Split += Sms.size() > 1;
  EXPECT_GT(Split, Sets / 2) << "groups the original ran on several SMs";

  // Groups that the interleaved order keeps together: no table.
  GroupedGather Interleaved(Sets * PerGroup, Sets, false);
  ASSERT_TRUE(smc::affinityPolicy(Interleaved.footprint(), Options, P, &Report))
      << Report.error;
  EXPECT_DOUBLE_EQ(Report.interleavedAffinity, 1.0);
  EXPECT_EQ(Report.order, smc::ChunkOrder::Interleaved);
  EXPECT_EQ(P.order, smc::ChunkOrder::Interleaved);
  EXPECT_TRUE(P.chunkToSM.empty());
  EXPECT_EQ(P.workersPerSM, 1u);
  EXPECT_EQ(P.sms, Options.sms);
}

TEST_F(Affinity, CachesPerSignature) {
  GroupedGather G(3 * numSMs(), numSMs());
  SMC_CUDA_ASSERT(G.allocate());
  unsigned Inspections = 0;
  auto inspect = [&] {
    ++Inspections;
    return G.footprint();
  };
  smc::AffinityReport First = smc::placeByAffinity(affinityGather, 42, inspect);
  ASSERT_TRUE(First.ok) << First.error;
  EXPECT_FALSE(First.cached);
  EXPECT_GT(First.inspectSeconds, 0.0);
  smc::AffinityReport Second =
      smc::placeByAffinity(affinityGather, 42, inspect);
  EXPECT_TRUE(Second.cached);
  EXPECT_EQ(Second.edges, First.edges);
  EXPECT_EQ(Inspections, 1u);
  smc::placeByAffinity(affinityGather, 43, inspect);
  EXPECT_EQ(Inspections, 2u);
  smc::AffinityOptions OneWorker;
  OneWorker.workersPerSM = 1;
  smc::placeByAffinity(affinityGather, 42, inspect, OneWorker);
  EXPECT_EQ(Inspections, 3u);
  // By name, the same kernel: its own cache entries.
  smc::AffinityReport ByName =
      smc::placeByAffinity("affinityGather", 42, inspect);
  EXPECT_TRUE(ByName.ok) << ByName.error;
  EXPECT_EQ(Inspections, 4u);

  // The placement is in force: the chunks run where its table says.
  smc::clearPolicies();
  ASSERT_TRUE(
      smc::placeByAffinity(affinityGather, 42, inspect, OneWorker).cached);
  smc::Policy P = placement(G.footprint(), OneWorker);
  SMC_CUDA_ASSERT(cudaMemset(G.Counts.get(), 0, G.Counts.bytes()));
  SMC_CUDA_ASSERT(G.launch(20000));
  SMC_CUDA_SYNC_ASSERT();
  std::vector<uint32_t> Sm, Counts;
  SMC_CUDA_ASSERT(G.SmOfChunk.download(Sm));
  SMC_CUDA_ASSERT(G.Counts.download(Counts));
  unsigned OnTableSm = 0;
  for (unsigned C = 0; C < G.Chunks; ++C) {
    ASSERT_EQ(Counts[C], 1u) << "chunk " << C;
    OnTableSm += Sm[C] == P.chunkToSM[C];
  }
  EXPECT_GE(OnTableSm, G.Chunks * 9 / 10)
      << "chunks that ran on the SM of the table";
}

TEST_F(Affinity, BadInputKeepsThePolicy) {
  const unsigned Low = std::min(8u, numSMs());
  GroupedGather G(4 * numSMs(), numSMs());
  SMC_CUDA_ASSERT(G.allocate());
  smc::setPolicy(affinityGather, smc::Policy::smCentric(0, smRange(0, Low)));

  smc::ChunkFootprint Broken = G.footprint();
  Broken.begin.back() += 1;
  smc::AffinityReport Report =
      smc::placeByAffinity(affinityGather, 1, [&] { return Broken; });
  EXPECT_FALSE(Report.ok);
  EXPECT_NE(Report.error.find("but there are"), std::string::npos)
      << Report.error;

  smc::AffinityOptions NoSuchSm;
  NoSuchSm.sms = {numSMs()};
  smc::Policy Untouched = smc::Policy::original();
  EXPECT_FALSE(
      smc::affinityPolicy(G.footprint(), NoSuchSm, Untouched, &Report));
  EXPECT_NE(Report.error.find("not on the device"), std::string::npos)
      << Report.error;
  EXPECT_EQ(Untouched.variant, smc::Variant::Original);

  // The kernel still runs as smc(sms=0..Low-1).
  SMC_CUDA_ASSERT(cudaMemset(G.Counts.get(), 0, G.Counts.bytes()));
  SMC_CUDA_ASSERT(G.launch(0));
  SMC_CUDA_SYNC_ASSERT();
  std::vector<uint32_t> Sm;
  SMC_CUDA_ASSERT(G.SmOfChunk.download(Sm));
  EXPECT_EQ(
      std::count_if(Sm.begin(), Sm.end(), [&](uint32_t S) { return S >= Low; }),
      0)
      << "chunks ran outside the policy's SMs";
}

} // namespace
