//===- RemapTablesTest.cpp - Tests of remap tables from job keys ----------===//
//
// The pure part of thread-data remapping (runtime/remap/RemapTables.h): how
// many jobs a remap covers at a ratio (rounded up, at least one job, at most
// all, at most 2^32 - 1); the table of a set of keys is the jobs sorted by
// key, stable (equal keys keep job order), for any keys, ties, all-equal
// keys and none; random keys give a permutation, the same for the same seed;
// isPermutation rejects repeats and jobs out of range; a launch's argument
// bytes tell the same arguments from changed ones.
//===----------------------------------------------------------------------===//
#include "remap/RemapTables.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>

using namespace smc;

namespace {

// The reference: the jobs grouped by key, groups in ascending key order,
// each group's jobs in job order (a stable sort of the jobs by key).
std::vector<uint32_t> stableSortedJobs(const std::vector<uint32_t> &Keys) {
  std::map<uint32_t, std::vector<uint32_t>> JobsOfKey;
  for (uint32_t J = 0; J < Keys.size(); ++J)
    JobsOfKey[Keys[J]].push_back(J);
  std::vector<uint32_t> Jobs;
  for (const auto &[Key, Group] : JobsOfKey)
    Jobs.insert(Jobs.end(), Group.begin(), Group.end());
  return Jobs;
}

std::vector<uint32_t> identity(uint32_t N) {
  std::vector<uint32_t> Jobs(N);
  std::iota(Jobs.begin(), Jobs.end(), 0u);
  return Jobs;
}

} // namespace

TEST(RemapCount, AllJobsAtRatioOne) {
  EXPECT_EQ(remapCount(1, 1.0), 1u);
  EXPECT_EQ(remapCount(1000, 1.0), 1000u);
  EXPECT_EQ(remapCount(UINT32_MAX, 1.0), UINT32_MAX);
}

TEST(RemapCount, NoJobsNoRemap) {
  EXPECT_EQ(remapCount(0, 1.0), 0u);
  EXPECT_EQ(remapCount(0, 0.5), 0u);
  EXPECT_EQ(remapCount(0, 0.0), 0u);
}

TEST(RemapCount, RoundsUp) {
  EXPECT_EQ(remapCount(10, 0.5), 5u);
  EXPECT_EQ(remapCount(10, 0.55), 6u); // 5.5
  EXPECT_EQ(remapCount(10, 0.25), 3u); // 2.5
  EXPECT_EQ(remapCount(7, 0.5), 4u);   // 3.5
  EXPECT_EQ(remapCount(1024, 0.125), 128u);
  EXPECT_EQ(remapCount(1025, 0.125), 129u); // 128.125
}

TEST(RemapCount, AtLeastOneJob) {
  EXPECT_EQ(remapCount(1, 0.001), 1u);
  EXPECT_EQ(remapCount(1000, 1e-9), 1u);
  EXPECT_EQ(remapCount(1000, 0.0), 1u);  // clamped to 0, then at least 1
  EXPECT_EQ(remapCount(1000, -0.5), 1u); // clamped to 0
}

TEST(RemapCount, AtMostAllJobs) {
  EXPECT_EQ(remapCount(10, 1.5), 10u); // clamped to 1
  EXPECT_EQ(remapCount(10, 100.0), 10u);
  EXPECT_EQ(remapCount(1, 2.0), 1u);
}

TEST(RemapCount, AtMost32Bits) {
  const uint64_t Many = uint64_t(1) << 33;
  EXPECT_EQ(remapCount(Many, 1.0), UINT32_MAX);
  EXPECT_EQ(remapCount(Many, 0.25), uint32_t(1) << 31);
  EXPECT_EQ(remapCount(uint64_t(UINT32_MAX) + 1, 1.0), UINT32_MAX);
}

TEST(RemapTableFromKeys, EmptyKeysEmptyTable) {
  EXPECT_TRUE(remapTableFromKeys({}).empty());
}

TEST(RemapTableFromKeys, JobsInAscendingKeyOrder) {
  EXPECT_EQ(remapTableFromKeys({30, 10, 20}), (std::vector<uint32_t>{1, 2, 0}));
  EXPECT_EQ(remapTableFromKeys({7}), (std::vector<uint32_t>{0}));
  // Already sorted: the identity; reversed: the reversal.
  EXPECT_EQ(remapTableFromKeys({1, 2, 3, 4}), identity(4));
  EXPECT_EQ(remapTableFromKeys({4, 3, 2, 1}),
            (std::vector<uint32_t>{3, 2, 1, 0}));
}

TEST(RemapTableFromKeys, KeysAreUnsigned32Bit) {
  // The whole range: 0 first, 0x80000000 (a key of value 0 after the
  // pass's sign flip) in the middle, UINT32_MAX last.
  EXPECT_EQ(remapTableFromKeys({UINT32_MAX, 0, 0x80000000u, 0x7fffffffu}),
            (std::vector<uint32_t>{1, 3, 2, 0}));
}

TEST(RemapTableFromKeys, TiesKeepJobOrder) {
  // Key 0: job 4; key 1: jobs 1, 3; key 5: jobs 0, 2.
  EXPECT_EQ(remapTableFromKeys({5, 1, 5, 1, 0}),
            (std::vector<uint32_t>{4, 1, 3, 0, 2}));
}

TEST(RemapTableFromKeys, AllEqualKeysGiveTheIdentity) {
  EXPECT_EQ(remapTableFromKeys(std::vector<uint32_t>(1000, 42)),
            identity(1000));
  EXPECT_EQ(remapTableFromKeys(std::vector<uint32_t>(33, UINT32_MAX)),
            identity(33));
}

TEST(RemapTableFromKeys, IsAStableSortOfTheJobs) {
  // Few distinct keys (many ties) and keys over the whole range.
  std::vector<uint32_t> FewKeys(4096), AnyKeys(4096);
  uint32_t State = 12345;
  for (size_t J = 0; J < FewKeys.size(); ++J) {
    State = State * 1664525u + 1013904223u;
    FewKeys[J] = State >> 29; // 0..7
    AnyKeys[J] = State;
  }
  std::vector<uint32_t> Few = remapTableFromKeys(FewKeys);
  EXPECT_EQ(Few, stableSortedJobs(FewKeys));
  EXPECT_TRUE(isPermutation(Few));
  std::vector<uint32_t> Any = remapTableFromKeys(AnyKeys);
  EXPECT_EQ(Any, stableSortedJobs(AnyKeys));
  EXPECT_TRUE(isPermutation(Any));
  for (size_t T = 1; T < Any.size(); ++T)
    EXPECT_LE(AnyKeys[Any[T - 1]], AnyKeys[Any[T]]);
}

TEST(RandomKeys, OneKeyPerJob) {
  EXPECT_TRUE(randomKeys(0, 1).empty());
  EXPECT_EQ(randomKeys(1, 1).size(), 1u);
  EXPECT_EQ(randomKeys(1000, 7).size(), 1000u);
}

TEST(RandomKeys, DeterministicPerSeed) {
  EXPECT_EQ(randomKeys(256, 1), randomKeys(256, 1));
  EXPECT_EQ(randomKeys(256, 0xdeadbeefcafeULL),
            randomKeys(256, 0xdeadbeefcafeULL));
  EXPECT_NE(randomKeys(256, 1), randomKeys(256, 2));
  // A shorter run of the same seed is a prefix of a longer one.
  std::vector<uint32_t> Long = randomKeys(256, 3), Short = randomKeys(16, 3);
  EXPECT_TRUE(std::equal(Short.begin(), Short.end(), Long.begin()));
}

TEST(RandomKeys, TheirTableIsARandomPermutation) {
  for (uint64_t Seed : {0ULL, 1ULL, 99ULL}) {
    std::vector<uint32_t> Table = remapTableFromKeys(randomKeys(1000, Seed));
    ASSERT_EQ(Table.size(), 1000u);
    EXPECT_TRUE(isPermutation(Table)) << "seed " << Seed;
    EXPECT_NE(Table, identity(1000)) << "seed " << Seed;
    EXPECT_EQ(Table, remapTableFromKeys(randomKeys(1000, Seed)));
  }
  EXPECT_NE(remapTableFromKeys(randomKeys(1000, 1)),
            remapTableFromKeys(randomKeys(1000, 2)));
}

TEST(IsPermutation, AcceptsPermutations) {
  EXPECT_TRUE(isPermutation({}));
  EXPECT_TRUE(isPermutation({0}));
  EXPECT_TRUE(isPermutation({2, 0, 1}));
  EXPECT_TRUE(isPermutation(identity(100)));
}

TEST(IsPermutation, RejectsRepeatsAndJobsOutOfRange) {
  EXPECT_FALSE(isPermutation({1}));       // out of range
  EXPECT_FALSE(isPermutation({0, 0}));    // repeat
  EXPECT_FALSE(isPermutation({0, 2}));    // 1 missing, 2 out of range
  EXPECT_FALSE(isPermutation({3, 1, 2})); // 0 missing
  EXPECT_FALSE(isPermutation({2, 1, 1})); // repeat, 0 missing
  EXPECT_FALSE(isPermutation({0, UINT32_MAX}));
  std::vector<uint32_t> Almost = identity(100);
  Almost[99] = 98;
  EXPECT_FALSE(isPermutation(Almost));
}

TEST(LaunchArguments, BytesAreTheArgumentsInOrder) {
  int32_t N = 0x01020304;
  double X = 2.5;
  const float *P = reinterpret_cast<const float *>(uintptr_t(0x1000));
  void *Args[] = {&N, &X, &P};
  std::vector<size_t> Sizes = {sizeof N, sizeof X, sizeof P};
  std::vector<char> Bytes = argumentBytes(Args, Sizes);
  ASSERT_EQ(Bytes.size(), sizeof N + sizeof X + sizeof P);
  EXPECT_EQ(std::memcmp(Bytes.data(), &N, sizeof N), 0);
  EXPECT_EQ(std::memcmp(Bytes.data() + sizeof N, &X, sizeof X), 0);
  EXPECT_EQ(std::memcmp(Bytes.data() + sizeof N + sizeof X, &P, sizeof P), 0);
  EXPECT_TRUE(argumentBytes(nullptr, {}).empty());
}

TEST(LaunchArguments, SameArgumentsOnlyWhenEveryByteIsTheSame) {
  int32_t N = 7;
  double X = 2.5;
  void *Args[] = {&N, &X};
  std::vector<size_t> Sizes = {sizeof N, sizeof X};
  std::vector<char> Bytes = argumentBytes(Args, Sizes);
  EXPECT_TRUE(sameArguments(Bytes, Args, Sizes));
  // The same values at other addresses are the same arguments.
  int32_t N2 = 7;
  double X2 = 2.5;
  void *Copies[] = {&N2, &X2};
  EXPECT_TRUE(sameArguments(Bytes, Copies, Sizes));
  // A changed value is not.
  N2 = 8;
  EXPECT_FALSE(sameArguments(Bytes, Copies, Sizes));
  N2 = 7;
  X2 = -2.5;
  EXPECT_FALSE(sameArguments(Bytes, Copies, Sizes));
  X2 = 2.5;
  EXPECT_TRUE(sameArguments(Bytes, Copies, Sizes));
  // Nor are fewer or more arguments.
  EXPECT_FALSE(sameArguments(Bytes, Args, {sizeof N}));
  void *More[] = {&N, &X, &N};
  EXPECT_FALSE(sameArguments(Bytes, More, {sizeof N, sizeof X, sizeof N}));
  // No arguments: the same as no arguments only.
  EXPECT_TRUE(sameArguments({}, nullptr, {}));
  EXPECT_FALSE(sameArguments({}, Args, {sizeof N}));
  EXPECT_FALSE(sameArguments(Bytes, nullptr, {}));
}
