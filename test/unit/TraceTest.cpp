//===- TraceTest.cpp - Tests of SMC_TRACE records and spans ---------------===//
//
// Records decode from their words (unwritten ones left out), a chunk ends
// where its worker's next record is (a chunk or the worker's end), workers
// of different launches, SMs or grids are told apart, a warp slot a later
// worker takes continues after the first one's end, a chunk without a later
// record is counted, not invented, and the CSV quotes kernel names and
// counts time from the earliest chunk.
//===----------------------------------------------------------------------===//
#include "observe/Trace.h"

#include "smc/abi.h"

#include <gtest/gtest.h>

using namespace smc;
using namespace smc::trace;

namespace {

Record taken(uint32_t Launch, uint32_t Worker, uint32_t Sm, uint32_t Chunk,
             uint64_t Time, uint32_t Count = 1) {
  return {Launch, SMC_TRACE_TAKEN, Sm, Worker, Chunk, Count, Time};
}

Record ended(uint32_t Launch, uint32_t Worker, uint32_t Sm, uint64_t Time) {
  return {Launch, SMC_TRACE_WORKER_END, Sm, Worker, SMC_NO_CHUNK, 0, Time};
}

// The spans' chunks and ends, in their order.
void expectChunksEnding(
    const std::vector<ChunkSpan> &Spans,
    const std::vector<std::pair<uint32_t, uint64_t>> &Want) {
  ASSERT_EQ(Spans.size(), Want.size());
  for (size_t I = 0; I < Want.size(); ++I) {
    EXPECT_EQ(Spans[I].Chunk, Want[I].first) << "span " << I;
    EXPECT_EQ(Spans[I].End, Want[I].second) << "span " << I;
  }
}

} // namespace

TEST(Trace, DecodesWrittenRecords) {
  std::vector<uint32_t> Words(3 * SMC_TRACE_RECORD_WORDS, 0);
  uint32_t *First = Words.data();
  First[SMC_TRACE_LAUNCH] = 7;
  First[SMC_TRACE_KIND] = SMC_TRACE_TAKEN;
  First[SMC_TRACE_SM] = 131;
  First[SMC_TRACE_WORKER] = 5 | SMC_TRACE_TOP_UP_WORKER;
  First[SMC_TRACE_CHUNK] = 42;
  First[SMC_TRACE_COUNT] = 2;
  First[SMC_TRACE_TIME_LO] = 3;
  First[SMC_TRACE_TIME_HI] = 1;
  // The second record is unwritten; the third is a worker's end.
  uint32_t *Third = Words.data() + 2 * SMC_TRACE_RECORD_WORDS;
  Third[SMC_TRACE_LAUNCH] = 7;
  Third[SMC_TRACE_KIND] = SMC_TRACE_WORKER_END;
  Third[SMC_TRACE_TIME_LO] = 9;
  std::vector<Record> R = decode(Words.data(), 3);
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[0].Launch, 7u);
  EXPECT_EQ(R[0].Sm, 131u);
  EXPECT_EQ(R[0].Worker, 5u | SMC_TRACE_TOP_UP_WORKER);
  EXPECT_EQ(R[0].Chunk, 42u);
  EXPECT_EQ(R[0].Count, 2u);
  EXPECT_EQ(R[0].Time, (uint64_t(1) << 32) + 3);
  EXPECT_EQ(R[1].Kind, uint32_t(SMC_TRACE_WORKER_END));
  EXPECT_EQ(R[1].Time, 9u);
}

TEST(Trace, AChunkEndsAtItsWorkersNextRecord) {
  // Worker 0 of launch 1 takes chunks 0 and 3, then ends; worker 1 takes
  // chunk 1 and ends; launch 2's worker 0 takes chunk 0 and never ends.
  std::vector<Record> Records = {ended(1, 0, 4, 300),    taken(1, 1, 5, 1, 110),
                                 taken(1, 0, 4, 3, 200), taken(2, 0, 9, 0, 150),
                                 taken(1, 0, 4, 0, 100), ended(1, 1, 5, 250)};
  size_t Unended = 0;
  std::vector<ChunkSpan> Spans = chunkSpans(Records, Unended);
  EXPECT_EQ(Unended, 1u);
  // In order of their beginning.
  expectChunksEnding(Spans, {{0, 200}, {1, 250}, {3, 300}});
  ASSERT_FALSE(Spans.empty());
  EXPECT_EQ(Spans[0].Begin, 100u);
  EXPECT_EQ(Spans[0].Sm, 4u);
}

TEST(Trace, WorkersAreTheirLaunchSmAndWarpSlot) {
  // Slot 0 of SM 1 and slot 0 of SM 2 of launch 1; slot 0 of SM 1 taken by
  // another worker of launch 1 after the first one ended.
  std::vector<Record> Records = {
      taken(1, 0, 1, 10, 100), taken(1, 0, 2, 11, 105), ended(1, 0, 1, 150),
      ended(1, 0, 2, 170),     taken(1, 0, 1, 12, 160), ended(1, 0, 1, 190)};
  size_t Unended = 0;
  std::vector<ChunkSpan> Spans = chunkSpans(Records, Unended);
  EXPECT_EQ(Unended, 0u);
  expectChunksEnding(Spans, {{10, 150}, {11, 170}, {12, 190}});
}

TEST(Trace, TopUpWorkersAreOtherWorkers) {
  // Slot 3 of SM 0 in the launch's grid and in a top-up grid.
  std::vector<Record> Records = {
      taken(1, 3, 0, 10, 100),
      taken(1, 3 | SMC_TRACE_TOP_UP_WORKER, 0, 11, 120), ended(1, 3, 0, 200),
      ended(1, 3 | SMC_TRACE_TOP_UP_WORKER, 0, 150)};
  size_t Unended = 0;
  std::vector<ChunkSpan> Spans = chunkSpans(Records, Unended);
  EXPECT_EQ(Unended, 0u);
  expectChunksEnding(Spans, {{10, 200}, {11, 150}});
}

TEST(Trace, CsvQuotesKernelsAndCountsFromTheFirstChunk) {
  std::vector<ChunkSpan> Spans = {{1, 2, 0, 5, 1, 2500, 4000},
                                  {2, 3, 1, 0, 4, 1000, 1500}};
  std::map<uint32_t, LaunchInfo> Launches = {{1, {"f<int, \"x\">", 0}}};
  std::string Csv = toCsv(Spans, Launches);
  EXPECT_EQ(Csv, "launch,kernel,device,chunk,chunks,sm,worker,begin_us,end_us\n"
                 "1,\"f<int, \"\"x\"\">\",0,5,1,2,0,1.500,3.000\n"
                 "2,\"?\",-1,0,4,3,1,0.000,0.500\n");
}
