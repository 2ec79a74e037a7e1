//===- Trace.cpp - SMC_TRACE records into chunk spans ---------------------===//
//
// See Trace.h.
//===----------------------------------------------------------------------===//
#include "observe/Trace.h"

#include "smc/abi.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace smc {
namespace trace {

std::vector<Record> decode(const uint32_t *Words, size_t NumRecords) {
  std::vector<Record> Records;
  for (size_t R = 0; R < NumRecords; ++R) {
    const uint32_t *W = Words + R * SMC_TRACE_RECORD_WORDS;
    if (std::all_of(W, W + SMC_TRACE_RECORD_WORDS,
                    [](uint32_t V) { return V == 0; }))
      continue;
    Record Rec;
    Rec.Launch = W[SMC_TRACE_LAUNCH];
    Rec.Kind = W[SMC_TRACE_KIND];
    Rec.Sm = W[SMC_TRACE_SM];
    Rec.Worker = W[SMC_TRACE_WORKER];
    Rec.Chunk = W[SMC_TRACE_CHUNK];
    Rec.Count = W[SMC_TRACE_COUNT];
    Rec.Time = uint64_t(W[SMC_TRACE_TIME_HI]) << 32 | W[SMC_TRACE_TIME_LO];
    Records.push_back(Rec);
  }
  return Records;
}

std::vector<ChunkSpan> chunkSpans(std::vector<Record> Records,
                                  size_t &Unended) {
  // By worker (its launch, SM and leader warp slot; a slot another worker
  // of the launch takes later follows the first one's end), in time order;
  // a worker's end sorts after a chunk it took at the same nanosecond.
  std::sort(Records.begin(), Records.end(),
            [](const Record &A, const Record &B) {
              return std::tie(A.Launch, A.Sm, A.Worker, A.Time, A.Kind) <
                     std::tie(B.Launch, B.Sm, B.Worker, B.Time, B.Kind);
            });
  std::vector<ChunkSpan> Spans;
  Unended = 0;
  for (size_t I = 0; I < Records.size(); ++I) {
    const Record &R = Records[I];
    if (R.Kind != SMC_TRACE_TAKEN)
      continue;
    bool HasNext =
        I + 1 < Records.size() && Records[I + 1].Launch == R.Launch &&
        Records[I + 1].Sm == R.Sm && Records[I + 1].Worker == R.Worker;
    if (!HasNext) {
      ++Unended;
      continue;
    }
    Spans.push_back({R.Launch, R.Sm, R.Worker, R.Chunk, R.Count, R.Time,
                     Records[I + 1].Time});
  }
  std::sort(Spans.begin(), Spans.end(),
            [](const ChunkSpan &A, const ChunkSpan &B) {
              return std::tie(A.Begin, A.Sm) < std::tie(B.Begin, B.Sm);
            });
  return Spans;
}

std::string toCsv(const std::vector<ChunkSpan> &Spans,
                  const std::map<uint32_t, LaunchInfo> &Launches) {
  std::string Csv = "launch,kernel,device,chunk,chunks,sm,worker,begin_us,"
                    "end_us\n";
  uint64_t T0 = Spans.empty() ? 0 : Spans.front().Begin;
  for (const ChunkSpan &S : Spans)
    T0 = std::min(T0, S.Begin);
  for (const ChunkSpan &S : Spans) {
    auto It = Launches.find(S.Launch);
    std::string Kernel = It == Launches.end() ? "?" : It->second.Kernel;
    // A kernel name may hold commas (templates): quoted, quotes doubled.
    std::string Quoted = "\"";
    for (char C : Kernel)
      Quoted += C == '"' ? std::string("\"\"") : std::string(1, C);
    Quoted += "\"";
    char Line[160];
    std::snprintf(Line, sizeof(Line), ",%d,%u,%u,%u,%u,%.3f,%.3f\n",
                  It == Launches.end() ? -1 : It->second.Device, S.Chunk,
                  S.Count, S.Sm, S.Worker, double(S.Begin - T0) * 1e-3,
                  double(S.End - T0) * 1e-3);
    Csv += std::to_string(S.Launch) + "," + Quoted + Line;
  }
  return Csv;
}

} // namespace trace
} // namespace smc
