//===- recgather.h - recgather: records gathered by index (G-Streamline) --===//
//
// A gather of records through a scattered index (G-Streamline's irregular
// memory references, as in its nn over unstructured records and unwrap):
// one thread per job loads j = index[i], then the 16 fields of record j
// (structure of arrays, rec[f * records + j], so that neighbouring j
// coalesce) and writes the squared distance of the record from a query,
//   out[i] = sum_f (rec[f * records + j] - query[f])^2.
// index is a random permutation of the records, so each job's 16 reads
// land on 16 lines shared with no other thread of its warp; with
// identity=1, index[i] = i and every read is coalesced (remapping must not
// pay).  Fields and query are integers in [-8, 8] stored as floats, so the
// distances (at most 16 * 16^2) are exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_RECGATHER_H
#define SMC_BENCH_WORKLOADS_RECGATHER_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::recgather {

constexpr int kFields = 16;

struct Problem {
  std::vector<int32_t> index; // per job: its record
  std::vector<float> fields;  // kFields * records, [f * records + j]
  std::vector<float> query;   // kFields
  size_t records() const { return index.size(); }
};

Problem generate(const Params &params, uint64_t seed);
// out[i] for every job, in double (exact).
void cpuReference(const Problem &problem, std::vector<double> &out);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // recgather.cu

} // namespace smc::workloads::recgather

#endif // SMC_BENCH_WORKLOADS_RECGATHER_H
