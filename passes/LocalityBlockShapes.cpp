//===- LocalityBlockShapes.cpp - Deciding comparisons over block shapes ---===//
//
// Part of LocalityAnalysis (LocalityChecker.h): signs and comparisons of
// expressions in blockDim are decided by evaluating them at each block shape
// the kernel may run with: powers of two with at least a warp and at most
// 1024 threads, within its launch bounds, one thread along dimensions whose
// threadIdx and blockDim it does not read, and within the static shared
// arrays all threads index with threadIdx alone.  "True at all" and "false
// at all" are answers, anything else is "depends on the block size".  Also
// the last iteration of a loop as a polynomial in blockDim.
//===----------------------------------------------------------------------===//
#include "CTAUniformity.h"
#include "LocalityChecker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>

using namespace llvm;

namespace smc::locality {

// The block shapes the kernel can run with: powers of two up to 1024
// threads, within its launch bounds ("nvvm.maxntid", "nvvm.reqntid") and
// within the static shared arrays every thread of the CTA indexes with
// threadIdx alone (a tile As[threadIdx.y][threadIdx.x] of 16 x 16 floats:
// 64 * (blockDim.y - 1) + 4 * (blockDim.x - 1) + 4 <= 1024 bytes).
void KernelChecker::blockShapes() {
  auto Dims = [&](StringRef Name) {
    SmallVector<int64_t, 3> Values;
    Attribute A = F.getFnAttribute(Name);
    if (!A.isStringAttribute())
      return Values;
    SmallVector<StringRef, 3> Parts;
    A.getValueAsString().split(Parts, ',');
    for (StringRef Part : Parts) {
      int64_t V;
      if (Part.trim().getAsInteger(10, V) || V <= 0)
        return SmallVector<int64_t, 3>();
      Values.push_back(V);
    }
    return Values;
  };
  SmallVector<int64_t, 3> Max = Dims("nvvm.maxntid");
  SmallVector<int64_t, 3> Required = Dims("nvvm.reqntid");
  int64_t MaxThreads = 1024;
  if (!Max.empty()) {
    int64_t Product = 1;
    for (int64_t V : Max)
      Product *= V;
    MaxThreads = std::min(MaxThreads, Product);
  }

  // In-bounds constraints of shared tiles: Bound(blockDim) <= 0.
  SmallVector<Poly, 4> Bounds;
  for (Instruction &I : instructions(F)) {
    const Value *Ptr = getLoadStorePointerOperand(&I);
    if (!Ptr || spaceOf(Ptr) != Space::Shared ||
        Uniformity.inDivergentRegion(I.getParent()))
      continue;
    const Value *Base = nullptr;
    std::optional<Poly> Offset = offsetFrom(Ptr, Base);
    const auto *Tile = dyn_cast_or_null<GlobalVariable>(Base);
    if (!Offset || !Tile || !Tile->getValueType()->isSized())
      continue;
    int64_t Size = DL.getTypeAllocSize(Tile->getValueType());
    Type *Accessed = getLoadStoreType(&I);
    Poly Bound = constant(DL.getTypeStoreSize(Accessed) - Size);
    bool Usable = Size > 0;
    for (const auto &[M, C] : *Offset) {
      if (M.empty()) {
        Usable &= addTerm(Bound, {}, C);
        continue;
      }
      const Atom &A = Atoms[M[0]];
      if (M.size() != 1 || A.Kind != AtomKind::ThreadId || C <= 0) {
        Usable = false;
        break;
      }
      // C * (blockDim - 1)
      unsigned BD = registerAtom(AtomKind::BlockDim, A.Dim);
      Usable &= addTerm(Bound, {BD}, C) && addTerm(Bound, {}, -C);
    }
    if (Usable)
      Bounds.push_back(std::move(Bound));
  }

  auto Fits = [&](const BlockShape &Shape) {
    for (const Poly &Bound : Bounds)
      if (valueAt(Bound, Shape) > 0)
        return false;
    return true;
  };
  // A dimension whose threadIdx and blockDim the kernel never reads has
  // one thread.
  bool ThreadDim[3] = {false, false, false};
  for (Instruction &I : instructions(F))
    if (SpecialRegister R = specialRegister(&I);
        R.Kind == SpecialRegister::ThreadId ||
        R.Kind == SpecialRegister::BlockDim)
      ThreadDim[R.Dim] = true;
  SmallVector<BlockShape, 64> All;
  for (int64_t X = 1; X <= 1024; X *= 2)
    for (int64_t Y = 1; X * Y <= 1024; Y *= 2)
      for (int64_t Z = 1; X * Y * Z <= 1024; Z *= 2) {
        BlockShape Shape{X, Y, Z};
        bool Within = X * Y * Z <= MaxThreads;
        for (unsigned D = 0; D < 3; ++D)
          Within &= ThreadDim[D] || Shape[D] == 1;
        if (Within)
          All.push_back(Shape);
      }
  if (!Required.empty()) {
    BlockShape Shape{1, 1, 1};
    for (size_t D = 0; D < Required.size() && D < 3; ++D)
      Shape[D] = Required[D];
    All.assign(1, Shape);
  }
  if (All.empty()) // launch bounds the shapes above miss
    All.push_back({1, 1, 1});
  // Blocks of at least a warp, if the bounds leave any; contradicting
  // bounds (an access misread): no tile bounds.
  SmallVector<BlockShape, 64> Fitting;
  for (const BlockShape &Shape : All)
    if (Fits(Shape))
      Fitting.push_back(Shape);
  if (Fitting.empty())
    Fitting = All;
  for (const BlockShape &Shape : Fitting)
    if (Shape[0] * Shape[1] * Shape[2] >= 32)
      Shapes.push_back(Shape);
  if (Shapes.empty())
    Shapes = Fitting;
}

// The last iteration of L (its backedge-taken count) as a polynomial in
// blockDim, or none when it is not one (then the iteration is unbounded).
const std::optional<Poly> &KernelChecker::loopBound(const Loop *L) {
  auto [It, New] = LoopBounds.try_emplace(L);
  if (!New)
    return It->second;
  std::optional<Poly> Bound;
  const SCEV *Count = SE.getBackedgeTakenCount(L);
  if (!isa<SCEVCouldNotCompute>(Count))
    Bound = toPoly(Count);
  if (Bound && any_of(*Bound, [&](const auto &Term) {
        return any_of(Term.first, [&](unsigned Id) {
          return Atoms[Id].Kind != AtomKind::BlockDim;
        });
      }))
    Bound.reset();
  return LoopBounds[L] = std::move(Bound);
}

__int128 KernelChecker::valueAt(const Poly &P, const BlockShape &Shape) const {
  __int128 Sum = 0;
  for (const auto &[M, C] : P) {
    __int128 Term = C;
    for (unsigned Id : M)
      Term *= Shape[Atoms[Id].Dim];
    Sum += Term;
  }
  return Sum;
}

Truth KernelChecker::holds(const Poly &P, int Sign) const {
  for (const auto &[M, C] : P)
    for (unsigned Id : M)
      if (Atoms[Id].Kind != AtomKind::BlockDim)
        return Truth::Depends;
  bool SomeTrue = false, SomeFalse = false;
  for (const BlockShape &Shape : Shapes)
    (Sign * valueAt(P, Shape) > 0 ? SomeTrue : SomeFalse) = true;
  if (SomeTrue && SomeFalse)
    return Truth::Depends;
  return SomeTrue ? Truth::Always : Truth::Never;
}

} // namespace smc::locality
