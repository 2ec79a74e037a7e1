//===- PlacementTest.cu - Chunks run where and when the policy says -------===//
//
// The differential tests would pass if the runtime always fell back to the
// original kernel; these tests fail then.  recordPlacement (a loop-mode
// kernel: no return before its barriers) records for each chunk the %smid it
// ran on (read through the clang builtin, which SMC allows) and its start and
// end in %globaltimer, and counts it.  The tests assert:
//  - SmSetIsHonoured: with sms = {0..15}, every chunk ran on an SM below 16
//    (and, as a check of the method, the original did not);
//  - WorkersPerSMIsHonoured: with workers=W on SMs 0-7, no SM ever ran more
//    than W chunks at the same time;
//  - SlicesRunOneAfterAnother: with slice(size=7), no chunk of slice k+1
//    started before every chunk of slice k ended;
//  - PolicyTextByName: an SMC_POLICY-grammar rule naming the kernel by its
//    source name takes effect.
// Each also requires every chunk to have run exactly once.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>
#include <map>

using namespace smctest;

// One chunk: thread 0 reads %smid and the start time, all threads wait until
// SpinNs have passed, thread 0 records end time, SM and the count.
__global__ void recordPlacement(uint32_t *SmOfChunk, unsigned long long *Start,
                                unsigned long long *End, uint32_t *Counts,
                                unsigned long long SpinNs) {
  __shared__ unsigned long long T0;
  __shared__ uint32_t Sm;
  uint32_t Chunk =
      (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  if (threadIdx.x == 0) {
    T0 = __nvvm_read_ptx_sreg_globaltimer();
    Sm = __nvvm_read_ptx_sreg_smid();
  }
  __syncthreads();
  if (threadIdx.x == 0)
    while (__nvvm_read_ptx_sreg_globaltimer() - T0 < SpinNs) {
    }
  __syncthreads();
  if (threadIdx.x == 0) {
    End[Chunk] = __nvvm_read_ptx_sreg_globaltimer();
    Start[Chunk] = T0;
    SmOfChunk[Chunk] = Sm;
    atomicAdd(&Counts[Chunk], 1u);
  }
  __syncthreads(); // T0 and Sm are reused by the next chunk of a worker.
}

namespace {

using Placement = SmcGpuTest;

struct ChunkRecord {
  uint32_t Sm;
  unsigned long long Start, End;
};

// Device buffers of recordPlacement and one run of it.
class PlacementRun {
public:
  cudaError_t allocate(unsigned N) {
    Chunks = N;
    cudaError_t Err;
    if ((Err = Sm.allocate(N)) != cudaSuccess ||
        (Err = Start.allocate(N)) != cudaSuccess ||
        (Err = End.allocate(N)) != cudaSuccess)
      return Err;
    return Counts.allocate(N);
  }

  /// Runs recordPlacement over Chunks chunks under whatever policy is set
  /// and returns one record per chunk; requires every count to be 1.
  void run(unsigned long long SpinNs, const std::string &What,
           std::vector<ChunkRecord> &Records) {
    SCOPED_TRACE(What);
    SMC_CUDA_ASSERT(cudaMemset(Counts.get(), 0, Counts.bytes()));
    SMC_CUDA_ASSERT(cudaMemset(Sm.get(), 0xff, Sm.bytes()));
    SMC_CUDA_SYNC_ASSERT();
    recordPlacement<<<Chunks, 64>>>(Sm.get(), Start.get(), End.get(),
                                    Counts.get(), SpinNs);
    SMC_CUDA_ASSERT(cudaGetLastError());
    SMC_CUDA_SYNC_ASSERT();
    std::vector<uint32_t> HSm, HCounts;
    std::vector<unsigned long long> HStart, HEnd;
    SMC_CUDA_ASSERT(Sm.download(HSm));
    SMC_CUDA_ASSERT(Start.download(HStart));
    SMC_CUDA_ASSERT(End.download(HEnd));
    SMC_CUDA_ASSERT(Counts.download(HCounts));
    Bytes CountBytes(HCounts.size() * 4);
    std::copy_n(reinterpret_cast<const uint8_t *>(HCounts.data()),
                CountBytes.size(), CountBytes.begin());
    expectAllCountsAre(CountBytes, 1, What + ": counts");
    Records.resize(Chunks);
    for (unsigned C = 0; C < Chunks; ++C)
      Records[C] = {HSm[C], HStart[C], HEnd[C]};
  }

private:
  unsigned Chunks = 0;
  DeviceArray<uint32_t> Sm, Counts;
  DeviceArray<unsigned long long> Start, End;
};

/// Chunks whose SM is not below \p Limit.
size_t chunksOutside(const std::vector<ChunkRecord> &Records, unsigned Limit) {
  return std::count_if(Records.begin(), Records.end(),
                       [&](const ChunkRecord &R) { return R.Sm >= Limit; });
}

/// The most chunks that ran at the same time on one SM (intervals that only
/// touch do not overlap), and that SM.
std::pair<unsigned, uint32_t>
maxConcurrentPerSM(const std::vector<ChunkRecord> &Records) {
  std::map<uint32_t, std::vector<std::pair<unsigned long long, int>>> Events;
  for (const ChunkRecord &R : Records) {
    Events[R.Sm].push_back({R.Start, +1});
    Events[R.Sm].push_back({R.End, -1});
  }
  std::pair<unsigned, uint32_t> Worst{0, 0};
  for (auto &[Sm, E] : Events) {
    // At equal times, ends (-1) sort before starts (+1).
    std::sort(E.begin(), E.end());
    int Running = 0;
    for (auto &[Time, Delta] : E) {
      Running += Delta;
      if (static_cast<unsigned>(Running) > Worst.first)
        Worst = {static_cast<unsigned>(Running), Sm};
    }
  }
  return Worst;
}

TEST_F(Placement, SmSetIsHonoured) {
  const unsigned SetSize = std::min(16u, numSMs());
  const std::vector<unsigned> Set = smRange(0, SetSize);
  for (unsigned Chunks : {1000u, 100000u}) {
    SCOPED_TRACE("chunks=" + std::to_string(Chunks));
    PlacementRun Run;
    SMC_CUDA_ASSERT(Run.allocate(Chunks));
    std::vector<ChunkRecord> Records;

    // The method can tell: the original spreads over all SMs.
    smc::setPolicy(recordPlacement, smc::Policy::original());
    ASSERT_NO_FATAL_FAILURE(Run.run(0, "original", Records));
    if (numSMs() > SetSize)
      ASSERT_GT(chunksOutside(Records, SetSize), 0u)
          << "the original ran every chunk on SMs below " << SetSize
          << "; this test could not see a policy being ignored";

    smc::Policy Table = smc::Policy::smCentric(1, Set, smc::ChunkOrder::Table);
    Table.chunkToSM.resize(Chunks);
    for (unsigned C = 0; C < Chunks; ++C)
      Table.chunkToSM[C] = (C * 7) % SetSize;
    std::vector<NamedPolicy> Policies = {
        {"smc(sms=0-15)", smc::Policy::smCentric(0, Set)},
        {"smc(workers=1,sms=0-15)", smc::Policy::smCentric(1, Set)},
        {"smc(workers=2,sms=0-15,order=interleaved)",
         smc::Policy::smCentric(2, Set, smc::ChunkOrder::Interleaved)},
        {"smc(workers=1,sms=0-15,order=table)", Table},
        {"smc(sms=0-15,order=cluster(x,4))",
         smc::Policy::clustered(smc::ClusterDir::X, 4, 0, Set)},
    };
    for (const NamedPolicy &P : Policies) {
      smc::setPolicy(recordPlacement, P.Value);
      ASSERT_NO_FATAL_FAILURE(Run.run(0, P.Name, Records));
      EXPECT_EQ(chunksOutside(Records, SetSize), 0u)
          << P.Name << ": chunks ran on SMs outside 0-" << SetSize - 1;
    }
  }
}

TEST_F(Placement, WorkersPerSMIsHonoured) {
  const unsigned SetSize = std::min(8u, numSMs());
  const unsigned Chunks = 400;
  const unsigned long long SpinNs = 4000;
  PlacementRun Run;
  SMC_CUDA_ASSERT(Run.allocate(Chunks));
  std::vector<ChunkRecord> Records;

  // The method can tell: the original runs several chunks at once per SM.
  smc::setPolicy(recordPlacement, smc::Policy::original());
  ASSERT_NO_FATAL_FAILURE(Run.run(SpinNs, "original", Records));
  ASSERT_GT(maxConcurrentPerSM(Records).first, 2u)
      << "the original never ran 3 chunks at once on an SM; this test could "
         "not see a per-SM target being ignored";

  for (unsigned Workers : {1u, 2u}) {
    std::string Name = "smc(workers=" + std::to_string(Workers) + ",sms=0-" +
                       std::to_string(SetSize - 1) + ")";
    smc::setPolicy(recordPlacement,
                   smc::Policy::smCentric(Workers, smRange(0, SetSize)));
    ASSERT_NO_FATAL_FAILURE(Run.run(SpinNs, Name, Records));
    EXPECT_EQ(chunksOutside(Records, SetSize), 0u)
        << Name << ": chunks ran outside the SM set";
    auto [Most, Sm] = maxConcurrentPerSM(Records);
    EXPECT_LE(Most, Workers) << Name << ": SM " << Sm << " ran " << Most
                             << " chunks at the same time";
  }
}

TEST_F(Placement, SlicesRunOneAfterAnother) {
  const unsigned Chunks = 200, Size = 7;
  const unsigned long long SpinNs = 3000;
  PlacementRun Run;
  SMC_CUDA_ASSERT(Run.allocate(Chunks));
  std::vector<ChunkRecord> Records;

  auto Overlaps = [&] {
    // Slices k and k+1 overlap if a chunk of k+1 started before the last
    // chunk of k ended.
    unsigned Count = 0;
    for (unsigned First = Size; First < Chunks; First += Size) {
      unsigned long long PrevEnd = 0, NextStart = ~0ull;
      for (unsigned C = First - Size; C < First; ++C)
        PrevEnd = std::max(PrevEnd, Records[C].End);
      for (unsigned C = First; C < std::min(First + Size, Chunks); ++C)
        NextStart = std::min(NextStart, Records[C].Start);
      Count += NextStart < PrevEnd;
    }
    return Count;
  };

  smc::setPolicy(recordPlacement, smc::Policy::original());
  ASSERT_NO_FATAL_FAILURE(Run.run(SpinNs, "original", Records));
  ASSERT_GT(Overlaps(), 0u) << "the original ran its CTAs in groups of " << Size
                            << " one after another; this test could "
                               "not see slicing being ignored";

  smc::setPolicy(recordPlacement, smc::Policy::slice(Size));
  ASSERT_NO_FATAL_FAILURE(Run.run(SpinNs, "slice(size=7)", Records));
  EXPECT_EQ(Overlaps(), 0u)
      << "slices of " << Size << " chunks overlapped in time";
}

TEST_F(Placement, PolicyTextByName) {
  const unsigned SetSize = std::min(16u, numSMs());
  std::string Error;
  ASSERT_TRUE(smc::setPolicyText("recordPlacement=smc(workers=1,sms=0-" +
                                     std::to_string(SetSize - 1) + ")",
                                 &Error))
      << Error;
  PlacementRun Run;
  SMC_CUDA_ASSERT(Run.allocate(2000));
  std::vector<ChunkRecord> Records;
  ASSERT_NO_FATAL_FAILURE(Run.run(0, "policy by name", Records));
  EXPECT_EQ(chunksOutside(Records, SetSize), 0u)
      << "the rule naming recordPlacement was not applied";
}

} // namespace
