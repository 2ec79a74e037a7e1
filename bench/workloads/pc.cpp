//===- pc.cpp - pc: inputs, CPU reference, self-check, registry -----------===//
#include "pc.h"

#include "Check.h"
#include "Random.h"

#include <stdexcept>

namespace smc::workloads::pc {

namespace {

// A bijection of [0, 2^bits) and its inverse: two rounds of multiply by an
// odd constant and xor-shift, all mod 2^bits.
class Shuffle {
public:
  Shuffle(int bits, Rng &rng)
      : mask((uint64_t(1) << bits) - 1), shift(bits / 2 + 1),
        mulA((rng.next() | 1) & mask), mulB((rng.next() | 1) & mask) {
    invA = inverse(mulA);
    invB = inverse(mulB);
  }
  uint64_t forward(uint64_t x) const {
    x = (x * mulA) & mask;
    x ^= x >> shift;
    x = (x * mulB) & mask;
    return x ^ (x >> shift);
  }
  uint64_t backward(uint64_t y) const {
    y = unXorShift(y);
    y = (y * invB) & mask;
    y = unXorShift(y);
    return (y * invA) & mask;
  }

private:
  uint64_t inverse(uint64_t a) const {
    uint64_t x = a; // Newton: each step doubles the correct low bits
    for (int i = 0; i < 6; ++i)
      x *= 2 - a * x;
    return x & mask;
  }
  uint64_t unXorShift(uint64_t y) const {
    uint64_t x = y;
    for (int s = shift; s < 64; s += shift)
      x ^= y >> s;
    return x & mask;
  }
  uint64_t mask;
  int shift;
  uint64_t mulA, mulB, invA, invB;
};

} // namespace

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  int64_t nodes = params.get("nodes");
  int bits = 0;
  while ((int64_t(1) << bits) < nodes)
    ++bits;
  if (nodes < 4 || (int64_t(1) << bits) != nodes || bits > 30)
    throw std::invalid_argument("pc: nodes must be a power of two <= 2^30");
  p.nodes = int32_t(nodes);
  p.hops = int32_t(params.get("hops"));
  size_t chains = size_t(params.get("chains"));
  Rng rng(seed, 1);
  Shuffle order(bits, rng);
  // The cycle visits order.forward(0), order.forward(1), ...: the node after
  // node i is forward(backward(i) + 1).
  p.table.resize(2 * size_t(p.nodes));
  Rng values(seed, 2);
  for (uint64_t i = 0; i < uint64_t(p.nodes); ++i) {
    uint64_t position = order.backward(i);
    p.table[2 * i] = int32_t(order.forward((position + 1) & (nodes - 1)));
    p.table[2 * i + 1] = int32_t(values.nextU32());
  }
  Rng starts(seed, 3);
  p.start.resize(chains);
  for (int32_t &s : p.start)
    s = int32_t(starts.below(uint32_t(p.nodes)));
  return p;
}

void chase(const Problem &p, int32_t from, int32_t hops, int32_t &end,
           uint32_t &sum) {
  int32_t cur = from;
  uint32_t acc = 0;
  for (int32_t h = 0; h < hops; ++h) {
    acc += uint32_t(p.table[2 * size_t(cur) + 1]);
    cur = p.table[2 * size_t(cur)];
  }
  end = cur;
  sum = acc;
}

void cpuReference(const Problem &p, const std::vector<size_t> &chains,
                  std::vector<int32_t> &end, std::vector<uint32_t> &sum) {
  end.resize(chains.size());
  sum.resize(chains.size());
  for (size_t k = 0; k < chains.size(); ++k)
    chase(p, p.start[chains[k]], p.hops, end[k], sum[k]);
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  // One cycle through every node.
  std::vector<char> seen(size_t(p.nodes), 0);
  int32_t cur = 0;
  for (int32_t step = 0; step < p.nodes; ++step) {
    if (seen[size_t(cur)])
      return failure("cycle",
                     "node revisited after " + std::to_string(step) + " hops");
    seen[size_t(cur)] = 1;
    cur = p.table[2 * size_t(cur)];
  }
  if (cur != 0)
    return failure("cycle", "the table is not one cycle");
  // Chasing h1 + h2 hops equals chasing h1, then h2 more.
  std::vector<size_t> chains(p.start.size());
  for (size_t c = 0; c < chains.size(); ++c)
    chains[c] = c;
  std::vector<int32_t> end;
  std::vector<uint32_t> sum;
  cpuReference(p, chains, end, sum);
  int32_t h1 = p.hops / 3;
  for (size_t c = 0; c < chains.size(); ++c) {
    int32_t mid, last;
    uint32_t s1, s2;
    chase(p, p.start[c], h1, mid, s1);
    chase(p, mid, p.hops - h1, last, s2);
    if (last != end[c] || s1 + s2 != sum[c])
      return failure("composition",
                     "chain " + std::to_string(c) + " differs when split");
  }
  CheckResult r = success("invariants", chains.size());
  r.detail = "table is one cycle; chase(h1+h2) == chase(h2) after chase(h1)";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "pc",
      "Pointer chasing through a one-cycle table, one chain per thread "
      "(Kernelet PC)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperKernelet,
      FeatureIndexArrays,
      {"pc_chase"},
      {{"nodes", 1 << 16, 1 << 26, 1 << 27, "table nodes (power of two)"},
       {"chains", 4096, 1 << 20, 1 << 21, "chains (threads)"},
       {"hops", 64, 64, 64, "hops per chain"}},
      &create,
      &cpuSelfCheck,
      "end node and value sum exact; Default/Large: 65536 sampled chains, "
      "all end nodes in range",
  };
  return entry;
}

} // namespace smc::workloads::pc
