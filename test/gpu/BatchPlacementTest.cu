//===- BatchPlacementTest.cu - Where smc::Batch runs a plan's CTAs --------===//
//
// Where and how often the CTAs of an smc::Batch's plans run: a launch
// confined to an SM range as workers runs each CTA once and only on those
// SMs (ranges without workers or beyond the device are refused), slices of
// every size run each CTA once, and lane 0's CTAs are placed before lane
// 1's.
//===----------------------------------------------------------------------===//
#include "BatchTest.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace smctest;

// Kernels have external linkage: the runtime finds variants by name.

// Counts each CTA's runs.
__global__ void batchCountRuns(uint32_t *Runs) {
  if (threadIdx.x == 0)
    atomicAdd(&Runs[blockIdx.x + gridDim.x * blockIdx.y], 1u);
}

// Counts each CTA's runs and records the SM of its last run.
__global__ void batchRecordSm(uint32_t *Runs, uint32_t *SmOf) {
  if (threadIdx.x == 0) {
    unsigned Cta = blockIdx.x + gridDim.x * blockIdx.y;
    atomicAdd(&Runs[Cta], 1u);
    SmOf[Cta] = __nvvm_read_ptx_sreg_smid();
  }
}

// Takes the next start ticket for its CTA, then holds its place for about
// `Nanoseconds`: the order in which the hardware placed the CTAs.
__global__ void batchStartTicket(uint32_t *Next, uint32_t *Ticket,
                                 unsigned long long Nanoseconds) {
  if (threadIdx.x != 0)
    return;
  Ticket[blockIdx.x] = atomicAdd(Next, 1u);
  unsigned long long Start, Now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(Start));
  do
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(Now));
  while (Now - Start < Nanoseconds);
}

namespace {

// A launch confined to an SM range as workers runs each CTA once, and only
// on those SMs; ranges without workers or beyond the device are refused.
TEST_F(BatchTest, PartitionRunsEveryCtaOnceOnItsSms) {
  const dim3 Grid(61, 47);
  const unsigned Ctas = Grid.x * Grid.y;
  const unsigned Sms = numSMs();
  DeviceArray<uint32_t> Runs, SmOf;
  SMC_CUDA_ASSERT(allocateZeroed(Ctas, Runs, SmOf));
  const unsigned Ranges[][2] = {
      {0, Sms / 2}, {Sms / 2, Sms - Sms / 2}, {Sms - 3, 3}, {7, 1}};
  for (const auto &Range : Ranges) {
    SCOPED_TRACE("SMs " + std::to_string(Range[0]) + " + " +
                 std::to_string(Range[1]));
    SMC_CUDA_ASSERT(cudaMemset(Runs.get(), 0, Runs.bytes()));
    smc::Batch B;
    ASSERT_TRUE(B.begin());
    batchRecordSm<<<Grid, 64, 0, Streams[0]>>>(Runs.get(), SmOf.get());
    B.end();
    ASSERT_TRUE(B.launches().at(0).workers) << "no persistent workers";
    std::string Error;
    ASSERT_TRUE(
        B.run({{0, 1, 0, Ctas, 2 * Range[1], 2, Range[0], Range[1]}}, &Error))
        << Error;
    SMC_CUDA_ASSERT(cudaDeviceSynchronize());
    Bytes Counts(Runs.bytes());
    SMC_CUDA_ASSERT(cudaMemcpy(Counts.data(), Runs.get(), Counts.size(),
                               cudaMemcpyDeviceToHost));
    expectAllCountsAre(Counts, 1, "CTA");
    std::vector<uint32_t> Sm(Ctas);
    SMC_CUDA_ASSERT(
        cudaMemcpy(Sm.data(), SmOf.get(), Ctas * 4, cudaMemcpyDeviceToHost));
    unsigned Outside = 0;
    for (uint32_t S : Sm)
      Outside += S < Range[0] || S >= Range[0] + Range[1];
    EXPECT_EQ(Outside, 0u) << "CTAs ran outside the partition";
  }
  for (const smc::Batch::SliceRun &Bad :
       {smc::Batch::SliceRun{0, 0, 0, Ctas, Ctas, 0, 0, 4},
        smc::Batch::SliceRun{0, 0, 0, Ctas, Ctas, 2, Sms - 2, 4}}) {
    smc::Batch B;
    ASSERT_TRUE(B.begin());
    batchRecordSm<<<Grid, 64, 0, Streams[0]>>>(Runs.get(), SmOf.get());
    B.end();
    std::string Error;
    EXPECT_FALSE(B.run({Bad}, &Error));
    EXPECT_NE(Error.find("confined to SMs"), std::string::npos) << Error;
  }
}

TEST_F(BatchTest, EverySliceRunsEachCtaOnce) {
  // A 2-D grid cut into slices of every size from 1 to 40, on alternating
  // lanes.
  const dim3 Grid(37, 29);
  const unsigned Ctas = Grid.x * Grid.y;
  DeviceArray<uint32_t> Runs;
  SMC_CUDA_ASSERT(allocateZeroed(Ctas, Runs));
  for (unsigned Launch = 0; Launch < 40; ++Launch) {
    smc::Batch B;
    ASSERT_TRUE(B.begin());
    batchCountRuns<<<Grid, 64, 0, Streams[Launch % 3]>>>(Runs.get());
    B.end();
    std::vector<smc::Batch::SliceRun> Plan = {
        {0, Launch % 2, 0, Ctas, Launch + 1}};
    std::string Error;
    ASSERT_TRUE(B.run(Plan, &Error)) << Error;
  }
  SMC_CUDA_ASSERT(cudaDeviceSynchronize());
  Bytes Counts(Runs.bytes());
  SMC_CUDA_ASSERT(cudaMemcpy(Counts.data(), Runs.get(), Counts.size(),
                             cudaMemcpyDeviceToHost));
  expectAllCountsAre(Counts, 40, "CTA");
}

// Where both lanes have CTAs waiting, lane 0's are placed first (its
// stream has the higher priority), whichever was enqueued first: the
// layout, not the hardware's choice, decides which lane's kernel starts
// first.  Two launches of 8 waves each start together; lane 1's is
// enqueued first, which with equal priorities would place most of its CTAs
// first.
TEST_F(BatchTest, LaneZeroCtasArePlacedFirst) {
  const unsigned Ctas = 16 * numSMs(); // 1024 threads: 2 per SM, 8 waves
  DeviceArray<uint32_t> Next, Tickets[2];
  SMC_CUDA_ASSERT(allocateZeroed(1, Next));
  for (DeviceArray<uint32_t> &T : Tickets)
    SMC_CUDA_ASSERT(allocateZeroed(Ctas, T));
  smc::Batch B;
  ASSERT_TRUE(B.begin());
  for (unsigned L : {0u, 1u})
    batchStartTicket<<<Ctas, 1024, 0, Streams[L]>>>(Next.get(),
                                                    Tickets[L].get(), 20000);
  B.end();
  std::vector<smc::Batch::SliceRun> Plan = {{1, 1, 0, Ctas, Ctas},
                                            {0, 0, 0, Ctas, Ctas}};
  std::string Error;
  ASSERT_TRUE(B.run(Plan, &Error)) << Error;
  SMC_CUDA_ASSERT(cudaDeviceSynchronize());
  double Median[2];
  for (unsigned L : {0u, 1u}) {
    std::vector<uint32_t> T(Ctas);
    SMC_CUDA_ASSERT(cudaMemcpy(T.data(), Tickets[L].get(), T.size() * 4,
                               cudaMemcpyDeviceToHost));
    std::nth_element(T.begin(), T.begin() + Ctas / 2, T.end());
    Median[L] = T[Ctas / 2];
  }
  EXPECT_LT(Median[0], Median[1])
      << "median start ticket of lane 0's CTAs " << Median[0] << ", lane 1's "
      << Median[1] << " (of " << 2 * Ctas << ")";
}

} // namespace
