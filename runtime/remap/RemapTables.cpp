//===- RemapTables.cpp - Remap tables from job keys ---------------------===//
//
// See RemapTables.h.
//===----------------------------------------------------------------------===//
#include "remap/RemapTables.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

namespace smc {

uint32_t remapCount(uint64_t Jobs, double Ratio) {
  if (Jobs == 0)
    return 0;
  // A hair below the product, so that 100 x 0.07 (7.000000000000001 in
  // doubles) covers 7 jobs.
  double Covered =
      std::ceil(double(Jobs) * std::clamp(Ratio, 0.0, 1.0) * (1 - 1e-12));
  uint64_t Count = std::clamp<uint64_t>(uint64_t(Covered), 1, Jobs);
  return uint32_t(std::min<uint64_t>(Count, UINT32_MAX));
}

std::vector<uint32_t> remapTableFromKeys(const std::vector<uint32_t> &Keys) {
  // (key, job) pairs: sorting them orders equal keys by job, as a stable
  // sort of the jobs by key would.
  std::vector<uint64_t> Pairs(Keys.size());
  for (size_t J = 0; J < Keys.size(); ++J)
    Pairs[J] = uint64_t(Keys[J]) << 32 | J;
  std::sort(Pairs.begin(), Pairs.end());
  std::vector<uint32_t> Table(Keys.size());
  for (size_t T = 0; T < Pairs.size(); ++T)
    Table[T] = uint32_t(Pairs[T]);
  return Table;
}

std::vector<uint32_t> randomKeys(uint32_t Count, uint64_t Seed) {
  std::mt19937_64 Generator(Seed);
  std::vector<uint32_t> Keys(Count);
  for (uint32_t &K : Keys)
    K = uint32_t(Generator());
  return Keys;
}

bool isPermutation(const std::vector<uint32_t> &Table) {
  std::vector<bool> Seen(Table.size());
  for (uint32_t J : Table) {
    if (J >= Table.size() || Seen[J])
      return false;
    Seen[J] = true;
  }
  return true;
}

std::vector<char> argumentBytes(void *const *Args,
                                const std::vector<size_t> &Sizes) {
  std::vector<char> Bytes;
  for (size_t I = 0; I < Sizes.size(); ++I) {
    const char *Arg = static_cast<const char *>(Args[I]);
    Bytes.insert(Bytes.end(), Arg, Arg + Sizes[I]);
  }
  return Bytes;
}

bool sameArguments(const std::vector<char> &Bytes, void *const *Args,
                   const std::vector<size_t> &Sizes) {
  size_t Offset = 0;
  for (size_t I = 0; I < Sizes.size(); ++I) {
    if (Offset + Sizes[I] > Bytes.size() ||
        std::memcmp(Bytes.data() + Offset, Args[I], Sizes[I]) != 0)
      return false;
    Offset += Sizes[I];
  }
  return Offset == Bytes.size();
}

} // namespace smc
