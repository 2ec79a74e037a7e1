//===- MagicDivision.cpp - Chunk ids divided by gridDim without a divide --===//
//
// Why n / d == mulhi(n + Add, Mul) >> Shift for every d >= 1 and every
// n <= 2^32 - 2.  Let s = floor(log2 d) (so 0 <= s <= 31) and k = 32 + s;
// mulhi(x, m) >> s is floor(x * m / 2^k).  Write n = q*d + t, 0 <= t < d.
// It suffices that q <= (n + Add) * Mul / 2^k < q + 1.
//
// 1. d = 2^s (d = 1 included): Mul = 2^32 - 1, Add = 1.
//    (n + 1)(2^32 - 1) = n * 2^32 + (2^32 - 1 - n), and 1 <= 2^32 - 1 - n
//    < 2^32 for n <= 2^32 - 2, so mulhi(n + 1, Mul) = n and the shift by s
//    divides by 2^s.  (Mul = 2^32, the exact reciprocal, does not fit.)
//
// 2. 2^s < d < 2^(s+1).  Let m = ceil(2^k / d) and e = m*d - 2^k.  d has an
//    odd factor > 1, so it does not divide 2^k: 0 < e < d.  m fits in 32
//    bits: 2^k / d <= 2^k / (2^s + 1) = 2^32 - 2^32 / (2^s + 1), and
//    2^32 / (2^s + 1) > 1 for s <= 31, so 2^k / d < 2^32 - 1 and
//    m <= 2^32 - 1.
//
//    2a. e <= 2^s ("round up"): Mul = m, Add = 0.
//        n*m / 2^k = n/d + n*e / (d * 2^k) = q + (t + n*e / 2^k) / d, and
//        0 <= n*e / 2^k < 2^32 * 2^s / 2^k = 1, t <= d - 1: in [q, q + 1).
//
//    2b. e > 2^s ("round down and increment"): Mul = m - 1 = floor(2^k / d),
//        Add = 1.  Then r = 2^k - Mul*d = d - e satisfies
//        0 < r < d - 2^s < 2^s, so r <= 2^s - 1, and
//        (n + 1) * Mul / 2^k = (n + 1)(2^k - r) / (d * 2^k)
//                            = q + (t + 1 - (n + 1) * r / 2^k) / d,
//        where 0 < (n + 1) * r / 2^k <= (2^32 - 1)(2^s - 1) / 2^k < 1 <= t + 1
//        and t + 1 <= d: in [q, q + 1).  n + 1 <= 2^32 - 1 does not wrap.
//
// So every divisor takes one add, one mul.hi.u32 and one shift (the add of 0
// costs what the add of 1 does, and keeps the device code branch-free).
// The 64-bit intermediates below are exact: 2^k <= 2^63 and m*d < 2^64.
//===----------------------------------------------------------------------===//
#include "plan/MagicDivision.h"

namespace smc {

DivisionMagic divisionMagic(uint32_t Divisor) {
  DivisionMagic M;
  if (Divisor == 0)
    return M; // not a grid dimension; nothing divides by it
  uint32_t S = 31;
  while (!(Divisor >> S))
    --S;
  M.Shift = S;
  if ((Divisor & (Divisor - 1)) == 0) { // case 1
    M.Mul = 0xffffffffu;
    M.Add = 1;
    return M;
  }
  uint64_t Pow = uint64_t(1) << (32 + S);
  uint64_t Up = (Pow + Divisor - 1) / Divisor;
  uint64_t Err = Up * Divisor - Pow;
  if (Err <= (uint64_t(1) << S)) { // case 2a
    M.Mul = static_cast<uint32_t>(Up);
    M.Add = 0;
  } else { // case 2b
    M.Mul = static_cast<uint32_t>(Up - 1);
    M.Add = 1;
  }
  return M;
}

void setGridDivisors(SmcDescriptor &D) {
  DivisionMagic X = divisionMagic(D.grid_x), Y = divisionMagic(D.grid_y);
  D.div_x_mul = X.Mul;
  D.div_x_add = X.Add;
  D.div_x_shift = X.Shift;
  D.div_y_mul = Y.Mul;
  D.div_y_add = Y.Add;
  D.div_y_shift = Y.Shift;
}

std::array<uint32_t, 3> blockIdxOfChunk(const SmcDescriptor &D,
                                        uint32_t Chunk) {
  if (Chunk < D.grid_x)
    return {Chunk, 0, 0};
  uint32_t Plane =
      divideByMagic(Chunk, {D.div_x_mul, D.div_x_add, D.div_x_shift});
  uint32_t Z = divideByMagic(Plane, {D.div_y_mul, D.div_y_add, D.div_y_shift});
  return {Chunk - Plane * D.grid_x, Plane - Z * D.grid_y, Z};
}

} // namespace smc
