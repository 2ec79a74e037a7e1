//===- MagicDivisionTest.cpp - Tests of the chunk-id division constants ---===//
//
// divideByMagic (what the variants compute: mulhi(n + add, mul) >> shift)
// equals n / d exhaustively for small divisors and dividends, at the
// dividends where the error terms of the proof in MagicDivision.cpp peak
// (n = q*d - 1 and q*d for the largest q), for random divisors and
// dividends over the whole 32-bit range, and at the edges (d = 1, 2^k,
// 2^27 - 1, 2^31 - 1, 2^32 - 1; n = 2^27 - 1, 2^32 - 2).  The descriptor's
// fields decompose every chunk id of 1-D, 2-D and 3-D grids into the
// blockIdx the hardware would give.
//===----------------------------------------------------------------------===//
#include "plan/MagicDivision.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

using namespace smc;

namespace {

constexpr uint32_t MaxN = MaxMagicDividend; // 2^32 - 2

// Checks n / d at n and its neighbours that are still valid dividends.
::testing::AssertionResult dividesAround(uint32_t D, uint64_t N,
                                         const DivisionMagic &M) {
  for (int64_t Delta = -1; Delta <= 1; ++Delta) {
    int64_t V = int64_t(N) + Delta;
    if (V < 0 || V > int64_t(MaxN))
      continue;
    uint32_t X = static_cast<uint32_t>(V);
    if (divideByMagic(X, M) != X / D)
      return ::testing::AssertionFailure()
             << X << " / " << D << ": got " << divideByMagic(X, M) << ", want "
             << X / D << " (mul " << M.Mul << ", add " << M.Add << ", shift "
             << M.Shift << ")";
  }
  return ::testing::AssertionSuccess();
}

// The dividends of d where the proof's error terms are largest: around the
// last multiples of d below 2^32 - 1, and around 2^27 - 1 (the largest
// chunk id of an SM-centric grid) and the top of the range.
::testing::AssertionResult dividesAtEdges(uint32_t D) {
  DivisionMagic M = divisionMagic(D);
  if (M.Shift > 31 || M.Add > 1)
    return ::testing::AssertionFailure() << "bad constants for " << D;
  uint64_t Top = uint64_t(MaxN) / D * D; // largest multiple <= MaxN
  for (uint64_t N :
       {uint64_t(0), uint64_t(D), Top, Top - D, Top + D - 1,
        uint64_t(1u << 27) - 1, uint64_t(1u << 31), uint64_t(MaxN)})
    if (::testing::AssertionResult R = dividesAround(D, N, M); !R)
      return R;
  return ::testing::AssertionSuccess();
}

TEST(MagicDivisionTest, ExhaustiveSmallDivisorsAndDividends) {
  for (uint32_t D = 1; D <= 1024; ++D) {
    DivisionMagic M = divisionMagic(D);
    for (uint32_t N = 0; N < (1u << 16); ++N)
      ASSERT_EQ(divideByMagic(N, M), N / D) << N << " / " << D;
  }
}

TEST(MagicDivisionTest, TopMultiplesOfSmallDivisors) {
  // The proof's error terms grow with n: for every d <= 2048, n = q*d - 1
  // and n = q*d for the 2^16 largest q that keep n <= 2^32 - 2.
  for (uint32_t D = 2; D <= 2048; ++D) {
    DivisionMagic M = divisionMagic(D);
    uint64_t Top = uint64_t(MaxN) / D * D;
    for (uint64_t Q = 0; Q < (1u << 16) && Q * D < Top; ++Q) {
      uint32_t N = static_cast<uint32_t>(Top - Q * D);
      ASSERT_EQ(divideByMagic(N, M), N / D) << N << " / " << D;
      ASSERT_EQ(divideByMagic(N - 1, M), (N - 1) / D) << N - 1 << " / " << D;
    }
  }
}

TEST(MagicDivisionTest, EdgeDivisors) {
  std::vector<uint32_t> Divisors = {1u,
                                    3u,
                                    5u,
                                    6u,
                                    7u, // needs 33 bits in plain round-up
                                    25u,
                                    125u,
                                    641u, // 641 * 6700417 = 2^32 + 1
                                    6700417u,
                                    65535u, // largest gridDim.y
                                    (1u << 27) - 1,
                                    (1u << 27) + 1,
                                    (1u << 31) - 1, // largest gridDim.x
                                    (1u << 31) + 1,
                                    0xaaaaaaabu,
                                    0xfffffffeu,
                                    0xffffffffu};
  for (uint32_t K = 0; K < 32; ++K) {
    Divisors.push_back(1u << K);
    if (K > 1)
      Divisors.push_back((1u << K) - 1);
    if (K > 0 && K < 31)
      Divisors.push_back((1u << K) + 1);
  }
  for (uint32_t D : Divisors)
    EXPECT_TRUE(dividesAtEdges(D));
}

TEST(MagicDivisionTest, PowersOfTwoShiftOnly) {
  for (uint32_t K = 0; K < 32; ++K) {
    DivisionMagic M = divisionMagic(1u << K);
    EXPECT_EQ(M.Shift, K);
    EXPECT_EQ(M.Add, 1u);
    EXPECT_EQ(M.Mul, 0xffffffffu);
    EXPECT_EQ(divideByMagic(MaxN, M), MaxN >> K);
    EXPECT_EQ(divideByMagic(0, M), 0u);
  }
}

TEST(MagicDivisionTest, BothRoundingsOccur) {
  // 7 needs the increment (a plain 32-bit round-up multiplier is not
  // exact for it); 3 does not.
  EXPECT_EQ(divisionMagic(7).Add, 1u);
  EXPECT_EQ(divisionMagic(3).Add, 0u);
  EXPECT_EQ(divisionMagic(3).Mul, 0xaaaaaaabu);
  EXPECT_EQ(divisionMagic(3).Shift, 1u);
}

TEST(MagicDivisionTest, RandomDivisorsAndDividends) {
  std::mt19937 Rng(20250611);
  std::uniform_int_distribution<uint32_t> Any(1, 0xffffffffu);
  std::uniform_int_distribution<uint32_t> Bits(0, 31);
  for (int I = 0; I < 20000; ++I) {
    // Divisors of every magnitude, not only those near 2^32.
    uint32_t D = Any(Rng) >> Bits(Rng);
    if (D == 0)
      D = 1;
    ASSERT_TRUE(dividesAtEdges(D));
    DivisionMagic M = divisionMagic(D);
    for (int J = 0; J < 64; ++J) {
      uint32_t N = Any(Rng) % (uint64_t(MaxN) + 1);
      ASSERT_TRUE(dividesAround(D, N, M));
      uint64_t Q = N / D;
      ASSERT_TRUE(dividesAround(D, Q * D, M));
    }
  }
}

TEST(MagicDivisionTest, ZeroDivisorGivesZeros) {
  DivisionMagic M = divisionMagic(0);
  EXPECT_EQ(M.Mul, 0u);
  EXPECT_EQ(M.Add, 0u);
  EXPECT_EQ(M.Shift, 0u);
}

SmcDescriptor descriptor(uint32_t X, uint32_t Y, uint32_t Z) {
  SmcDescriptor D{};
  D.grid_x = X;
  D.grid_y = Y;
  D.grid_z = Z;
  setGridDivisors(D);
  return D;
}

TEST(MagicDivisionTest, DescriptorFieldsFollowTheGrid) {
  SmcDescriptor D = descriptor(7, 65535, 3);
  DivisionMagic X = divisionMagic(7), Y = divisionMagic(65535);
  EXPECT_EQ(D.div_x_mul, X.Mul);
  EXPECT_EQ(D.div_x_add, X.Add);
  EXPECT_EQ(D.div_x_shift, X.Shift);
  EXPECT_EQ(D.div_y_mul, Y.Mul);
  EXPECT_EQ(D.div_y_add, Y.Add);
  EXPECT_EQ(D.div_y_shift, Y.Shift);
}

TEST(MagicDivisionTest, EveryChunkOfSmallGrids) {
  for (uint32_t X = 1; X <= 17; ++X)
    for (uint32_t Y = 1; Y <= 17; ++Y)
      for (uint32_t Z = 1; Z <= 5; ++Z) {
        SmcDescriptor D = descriptor(X, Y, Z);
        uint32_t Chunk = 0;
        for (uint32_t Bz = 0; Bz < Z; ++Bz)
          for (uint32_t By = 0; By < Y; ++By)
            for (uint32_t Bx = 0; Bx < X; ++Bx, ++Chunk) {
              std::array<uint32_t, 3> Want = {Bx, By, Bz};
              ASSERT_EQ(blockIdxOfChunk(D, Chunk), Want)
                  << "chunk " << Chunk << " of " << X << "x" << Y << "x" << Z;
            }
      }
}

TEST(MagicDivisionTest, LargeGrids) {
  struct Grid {
    uint32_t X, Y, Z;
  };
  // Up to num_chunks = 2^32 - 1 (the largest grid the runtime plans) and
  // 2^27 (the largest SM-centric one), 1-D, 2-D and 3-D.
  const Grid Grids[] = {
      {0x7fffffffu, 1, 1}, {0xffffu, 0xffffu, 1},  {3, 0xffffu, 0x5555u},
      {0x7fffffffu, 2, 1}, {1, 0xffffu, 0xffffu},  {1u << 9, 1u << 9, 1u << 9},
      {1000, 1000, 134},   {(1u << 27) - 1, 1, 1}, {5, 3, 0x1111111u}};
  std::mt19937 Rng(7);
  for (const Grid &G : Grids) {
    SmcDescriptor D = descriptor(G.X, G.Y, G.Z);
    uint64_t Chunks = uint64_t(G.X) * G.Y * G.Z;
    ASSERT_LE(Chunks, 0xffffffffu);
    std::vector<uint64_t> Ids = {
        0,         G.X - 1u, G.X, uint64_t(G.X) * G.Y - 1, uint64_t(G.X) * G.Y,
        Chunks - 1};
    std::uniform_int_distribution<uint64_t> Any(0, Chunks - 1);
    for (int I = 0; I < 100000; ++I)
      Ids.push_back(Any(Rng));
    for (uint64_t Id : Ids) {
      if (Id >= Chunks)
        continue;
      uint32_t C = static_cast<uint32_t>(Id);
      std::array<uint32_t, 3> Want = {C % G.X, C / G.X % G.Y, C / G.X / G.Y};
      ASSERT_EQ(blockIdxOfChunk(D, C), Want)
          << "chunk " << C << " of " << G.X << "x" << G.Y << "x" << G.Z;
    }
  }
}

} // namespace
