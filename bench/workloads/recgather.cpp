//===- recgather.cpp - recgather: inputs, CPU reference, self-check -------===//
#include "recgather.h"

#include "Check.h"
#include "Random.h"

namespace smc::workloads::recgather {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  size_t n = size_t(params.get("n"));
  Rng order(seed, 1), values(seed, 2);
  if (params.get("identity")) {
    p.index.resize(n);
    for (size_t i = 0; i < n; ++i)
      p.index[i] = int32_t(i);
  } else {
    p.index = order.permutation(n);
  }
  p.fields = values.intFloats(kFields * n, -8, 8);
  p.query = values.intFloats(kFields, -8, 8);
  return p;
}

void cpuReference(const Problem &p, std::vector<double> &out) {
  size_t n = p.records();
  out.resize(n);
  for (size_t i = 0; i < n; ++i) {
    double sum = 0;
    for (size_t f = 0; f < kFields; ++f) {
      double d = double(p.fields[f * n + size_t(p.index[i])]) - p.query[f];
      sum += d * d;
    }
    out[i] = sum;
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Params params = info().params(Size::Small);
  Problem p = generate(params, seed);
  size_t n = p.records();
  std::vector<double> out;
  cpuReference(p, out);
  if (!allExactInFloat(out.data(), out.size()))
    return failure("exact", "reference not exact in fp32");
  // Independent formulation: records in storage order, each as a row
  // (array of structures), scattered to the job that names it.
  std::vector<int32_t> job(n, -1);
  for (size_t i = 0; i < n; ++i) {
    int32_t j = p.index[i];
    if (j < 0 || size_t(j) >= n || job[size_t(j)] != -1)
      return failure("permutation", "index is not a permutation");
    job[size_t(j)] = int32_t(i);
  }
  std::vector<double> want(n);
  std::vector<float> row(kFields);
  for (size_t j = 0; j < n; ++j) {
    for (size_t f = 0; f < kFields; ++f)
      row[f] = p.fields[f * n + j];
    long distance = 0;
    for (size_t f = 0; f < kFields; ++f) {
      long d = long(row[f]) - long(p.query[f]);
      distance += d * d;
    }
    want[size_t(job[j])] = double(distance);
  }
  CheckResult r = compareExact(out, want, "gather vs scatter");
  params.set("identity", 1);
  Problem identity = generate(params, seed);
  bool same = identity.fields == p.fields && identity.query == p.query;
  for (size_t i = 0; i < n; ++i)
    same = same && identity.index[i] == int32_t(i);
  if (!same)
    return failure("identity", "identity=1 is not the identity index alone");
  r.detail = "gather vs records scattered to their jobs (integers); "
             "identity=1 is the identity";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "recgather",
      "Squared distance of 16-field records gathered through a permutation "
      "(G-Streamline nn/unwrap)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperGStreamline,
      FeatureIndexArrays,
      {"recgather_distance"},
      {{"n", 1 << 16, 1 << 22, 1 << 24, "records (and jobs)"},
       {"identity", 0, 0, 0,
        "1: index[i] = i, reads coalesced (remapping must not pay)"}},
      &create,
      &cpuSelfCheck,
      "out exact (integer-valued fp32)",
  };
  return entry;
}

} // namespace smc::workloads::recgather
