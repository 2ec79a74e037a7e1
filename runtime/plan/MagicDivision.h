//===- MagicDivision.h - Chunk ids divided by gridDim without a divide ----===//
//
// Both variants turn a linear chunk id n into blockIdx with two divisions by
// run-time values: plane = n / grid_x, z = plane / grid_y (the remainders are
// x and y).  A udiv by a register is dozens of instructions on NVPTX, in
// every thread of every chunk, so the runtime computes, once per launch plan,
// constants that make each division an add, a multiply-high and a shift
// (passes/GridIndex.cpp emits exactly divideByMagic below):
//
//   n / d == mulhi(n + Add, Mul) >> Shift   for every d >= 1, n <= 2^32 - 2
//
// with Mul a 32-bit multiplier, Add 0 or 1 and Shift = floor(log2 d) < 32
// ("round-up" or "round-down-and-increment": Granlund and Montgomery,
// "Division by Invariant Integers using Multiplication", PLDI 1994; Robison,
// "N-Bit Unsigned Division Via N-Bit Multiply-Add", ARITH 2005; the proof is
// in MagicDivision.cpp).  Chunk ids are below num_chunks <= 2^32 - 1
// (makeQueuePlan refuses larger grids), so n <= 2^32 - 2 always holds, for
// __slice too, whose grids are not limited to MaxQueuedChunks.
//
// Pure C++, no CUDA; unit tested in test/unit/MagicDivisionTest.cpp.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PLAN_MAGICDIVISION_H
#define SMC_RUNTIME_PLAN_MAGICDIVISION_H

#include "smc/abi.h"

#include <array>
#include <cstdint>

namespace smc {

// Constants for dividing by one divisor (SmcDescriptor::div_*_{mul,add,shift}).
struct DivisionMagic {
  uint32_t Mul = 0;
  uint32_t Add = 0;   // 0 or 1
  uint32_t Shift = 0; // floor(log2 divisor)
};

// The largest dividend the constants are exact for.
constexpr uint32_t MaxMagicDividend = 0xfffffffeu;

// The constants for `Divisor` (at least 1).
DivisionMagic divisionMagic(uint32_t Divisor);

// n / divisor, for n <= MaxMagicDividend, as the variants compute it.
inline uint32_t divideByMagic(uint32_t N, const DivisionMagic &M) {
  uint32_t Hi = static_cast<uint32_t>((uint64_t(N + M.Add) * M.Mul) >> 32);
  return Hi >> M.Shift;
}

// Sets the descriptor's division constants from its grid_x and grid_y.
void setGridDivisors(SmcDescriptor &D);

// blockIdx {x, y, z} of chunk `Chunk` from a descriptor filled by
// setGridDivisors, computed as the variants compute it
// (passes/GridIndex.cpp, chunkCoordinates).
std::array<uint32_t, 3> blockIdxOfChunk(const SmcDescriptor &D, uint32_t Chunk);

} // namespace smc

#endif // SMC_RUNTIME_PLAN_MAGICDIVISION_H
