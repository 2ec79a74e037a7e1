//===- RemapTables.h - Remap tables from job keys ---------------*- C++ -*-===//
//
// The pure part of thread-data remapping (docs/remap.md): how many jobs a
// remap covers, the table a set of keys gives (the jobs sorted by key,
// stable, so that equal keys keep thread order: what the GPU's radix sort
// in RemapSort.cu computes, here on the host for the tests and as the host
// path), random keys (tests: any permutation is legal), and the signature
// of a launch's arguments a table was computed for.  No CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_REMAP_REMAPTABLES_H
#define SMC_RUNTIME_REMAP_REMAPTABLES_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace smc {

// The jobs a remap of `Jobs` jobs at `Ratio` covers: the first
// ceil(Jobs * Ratio), at least 1 when Jobs > 0, at most Jobs.
uint32_t remapCount(uint64_t Jobs, double Ratio);

// The remap table of `Keys` (one per job): a permutation of
// [0, Keys.size()) listing the jobs in ascending key order, jobs of equal
// keys in job order.  Thread t runs job Table[t].
std::vector<uint32_t> remapTableFromKeys(const std::vector<uint32_t> &Keys);

// `Count` keys from a fixed generator seeded with `Seed`: their table is a
// random permutation.
std::vector<uint32_t> randomKeys(uint32_t Count, uint64_t Seed);

// Whether `Table` is a permutation of [0, Table.size()).
bool isPermutation(const std::vector<uint32_t> &Table);

// The bytes of a launch's arguments (each Sizes[i] bytes at Args[i]), to
// tell whether a later launch passes the same ones.
std::vector<char> argumentBytes(void *const *Args,
                                const std::vector<size_t> &Sizes);
bool sameArguments(const std::vector<char> &Bytes, void *const *Args,
                   const std::vector<size_t> &Sizes);

} // namespace smc

#endif // SMC_RUNTIME_REMAP_REMAPTABLES_H
