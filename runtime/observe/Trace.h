//===- Trace.h - SMC_TRACE: which chunk ran on which SM, when ---*- C++ -*-===//
//
// With SMC_TRACE=<file>, the workers of every SM-centric launch of a kernel
// compiled with -mllvm -smc-trace record each chunk they take and their end,
// with %smid and %globaltimer, into a trace block (abi.h, SMC_TRACE_*) whose
// records live in page-locked host memory; at exit the runtime turns them into
// one line per chunk,
//   launch,kernel,device,chunk,chunks,sm,worker,begin_us,end_us
// (a chunk ends when its worker takes the next one or ends; `worker` is the
// leader warp's slot on the SM), which
// scripts/plot_timeline.py --trace draws per SM.  Original kernels are not
// traced.  This part decodes records and makes the lines; CUDA-free.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_OBSERVE_TRACE_H
#define SMC_RUNTIME_OBSERVE_TRACE_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace smc {
namespace trace {

// One record, as a worker wrote it (SmcTraceWord).
struct Record {
  uint32_t Launch = 0, Kind = 0, Sm = 0, Worker = 0, Chunk = 0, Count = 0;
  uint64_t Time = 0;
};

// A chunk (or batch of Count chunks from Chunk) and when its worker ran it.
struct ChunkSpan {
  uint32_t Launch = 0, Sm = 0, Worker = 0, Chunk = 0, Count = 0;
  uint64_t Begin = 0, End = 0;
};

// What the runtime knows of a traced launch.
struct LaunchInfo {
  std::string Kernel;
  int Device = 0;
};

// The records in `Words` (NumRecords of SMC_TRACE_RECORD_WORDS words), the
// unwritten ones (all zero) left out.
std::vector<Record> decode(const uint32_t *Words, size_t NumRecords);

// Each taken chunk's span: from its record to the next record of the same
// worker (launch, SM and leader warp slot).  `Unended` counts taken chunks with
// no later record (a worker that ended without saying so, or records dropped).
std::vector<ChunkSpan> chunkSpans(std::vector<Record> Records, size_t &Unended);

// The CSV of the spans, times in microseconds from the earliest Begin; a
// launch missing from `Launches` is named "?".
std::string toCsv(const std::vector<ChunkSpan> &Spans,
                  const std::map<uint32_t, LaunchInfo> &Launches);

} // namespace trace
} // namespace smc

#endif // SMC_RUNTIME_OBSERVE_TRACE_H
