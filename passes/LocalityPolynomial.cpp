//===- LocalityPolynomial.cpp - Addresses as polynomials over atoms -------===//
//
// Part of LocalityAnalysis (LocalityChecker.h): the arithmetic of
// polynomials with 64-bit coefficients over atoms (blockIdx, threadIdx,
// blockDim, loop iterations, grid-uniform values, values not modelled), and
// the translation of a ScalarEvolution expression, such as the byte offset
// of an address from its base pointer, into one.  Extensions and
// truncations to 32 bits or more are looked through (index arithmetic is
// taken not to wrap); what the polynomial does not model becomes one atom,
// classified by what its leaves depend on.
//===----------------------------------------------------------------------===//
#include "LocalityChecker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"

#include <cassert>

using namespace llvm;

namespace smc::locality {

bool addTerm(Poly &P, const Monomial &M, int64_t C) {
  int64_t &Slot = P[M];
  if (__builtin_add_overflow(Slot, C, &Slot))
    return false;
  if (Slot == 0)
    P.erase(M);
  return true;
}

std::optional<Poly> add(const Poly &A, const Poly &B) {
  Poly R = A;
  for (const auto &[M, C] : B)
    if (!addTerm(R, M, C))
      return std::nullopt;
  return R;
}

std::optional<Poly> scale(const Poly &A, int64_t K) {
  Poly R;
  for (const auto &[M, C] : A) {
    int64_t V;
    if (__builtin_mul_overflow(C, K, &V))
      return std::nullopt;
    if (V)
      R[M] = V;
  }
  return R;
}

std::optional<Poly> sub(const Poly &A, const Poly &B) {
  std::optional<Poly> MinusB = scale(B, -1);
  return MinusB ? add(A, *MinusB) : std::nullopt;
}

constexpr size_t MaxTerms = 256;

std::optional<Poly> mul(const Poly &A, const Poly &B) {
  Poly R;
  for (const auto &[MA, CA] : A)
    for (const auto &[MB, CB] : B) {
      Monomial M = MA;
      M.append(MB.begin(), MB.end());
      llvm::sort(M);
      int64_t C;
      if (__builtin_mul_overflow(CA, CB, &C) || !addTerm(R, M, C) ||
          R.size() > MaxTerms)
        return std::nullopt;
    }
  return R;
}

Poly constant(int64_t C) {
  Poly P;
  if (C)
    P[{}] = C;
  return P;
}

Poly atomPoly(unsigned Id) { return Poly{{Monomial{Id}, 1}}; }

unsigned KernelChecker::atomFor(const void *Key, Atom A) {
  auto [It, New] = AtomIds.try_emplace(Key, Atoms.size());
  if (New)
    Atoms.push_back(A);
  return It->second;
}

// Keys for the atoms of blockIdx, threadIdx and blockDim, one per register.
static const char RegisterKeys[3][3] = {};

unsigned KernelChecker::registerAtom(AtomKind Kind, unsigned Dim) {
  assert((Kind == AtomKind::CtaId || Kind == AtomKind::ThreadId ||
          Kind == AtomKind::BlockDim) &&
         Dim < 3 && "not an atom of a special register");
  unsigned Row = Kind == AtomKind::CtaId      ? 0
                 : Kind == AtomKind::ThreadId ? 1
                                              : 2;
  return atomFor(&RegisterKeys[Row][Dim], {Kind, Dim});
}

unsigned KernelChecker::atomForValue(const Value *V) {
  SpecialRegister R = specialRegister(V);
  switch (R.Kind) {
  case SpecialRegister::CtaId:
    return registerAtom(AtomKind::CtaId, R.Dim);
  case SpecialRegister::ThreadId:
    return registerAtom(AtomKind::ThreadId, R.Dim);
  case SpecialRegister::BlockDim:
    return registerAtom(AtomKind::BlockDim, R.Dim);
  case SpecialRegister::GridUniform:
    return atomFor(cast<CallBase>(V)->getCalledFunction(), {AtomKind::Uniform});
  default:
    break;
  }
  unsigned O = origin(V);
  if (O & FromLoadedData) {
    // The load the data comes from, for the message.
    const Instruction *Source = dyn_cast<LoadInst>(V);
    // (The load itself, or one its value is computed from.)
    if (!Source)
      if (const auto *I = dyn_cast<Instruction>(V))
        for (const Value *Op : I->operands())
          if (const auto *L = dyn_cast<LoadInst>(Op))
            Source = L;
    Atom A{AtomKind::Loaded};
    A.Origin = O;
    A.Source = Source;
    return atomFor(V, A);
  }
  if (O & Varies) {
    Atom A{AtomKind::Varying};
    A.Origin = O;
    return atomFor(V, A);
  }
  return atomFor(V, {AtomKind::Uniform});
}

// An expression the polynomial does not model (a division, min, max, a
// non-affine recurrence) becomes one atom, classified by its leaves.
unsigned KernelChecker::opaqueAtom(const SCEV *S) {
  struct Leaves {
    KernelChecker &C;
    unsigned Origin = 0;
    const Instruction *Loaded = nullptr;
    bool follow(const SCEV *S) {
      if (const auto *U = dyn_cast<SCEVUnknown>(S)) {
        unsigned O = C.origin(U->getValue());
        Origin |= O;
        if ((O & FromLoadedData) && !Loaded)
          Loaded = dyn_cast<Instruction>(U->getValue());
      }
      if (isa<SCEVAddRecExpr>(S))
        Origin |= FromLoop;
      return true;
    }
    bool isDone() const { return false; }
  } Visitor{*this};
  visitAll(S, Visitor);
  if (Visitor.Origin & FromLoadedData) {
    Atom A{AtomKind::Loaded};
    A.Origin = Visitor.Origin;
    A.Source = Visitor.Loaded;
    return atomFor(S, A);
  }
  if (Visitor.Origin & Varies) {
    Atom A{AtomKind::Varying};
    A.Origin = Visitor.Origin;
    return atomFor(S, A);
  }
  return atomFor(S, {AtomKind::Uniform});
}

std::optional<Poly> KernelChecker::toPoly(const SCEV *S) {
  switch (S->getSCEVType()) {
  case scConstant: {
    const APInt &V = cast<SCEVConstant>(S)->getAPInt();
    if (!V.isSignedIntN(63))
      return std::nullopt;
    return constant(V.getSExtValue());
  }
  case scTruncate:
    // A truncation to fewer than 32 bits is a mask (i % 4 is
    // zext(trunc(i to i2))), not a change of type.
    if (S->getType()->getScalarSizeInBits() < 32)
      return atomPoly(opaqueAtom(S));
    [[fallthrough]];
  case scZeroExtend:
  case scSignExtend:
    // Index arithmetic is taken not to wrap.
    return toPoly(cast<SCEVCastExpr>(S)->getOperand(0));
  case scAddExpr:
  case scMulExpr: {
    bool IsAdd = S->getSCEVType() == scAddExpr;
    std::optional<Poly> R = constant(IsAdd ? 0 : 1);
    for (const SCEV *Op : cast<SCEVNAryExpr>(S)->operands()) {
      std::optional<Poly> P = toPoly(Op);
      if (!P)
        return std::nullopt;
      R = IsAdd ? add(*R, *P) : mul(*R, *P);
      if (!R)
        return std::nullopt;
    }
    return R;
  }
  case scAddRecExpr: {
    const auto *AR = cast<SCEVAddRecExpr>(S);
    if (!AR->isAffine())
      return atomPoly(opaqueAtom(S));
    std::optional<Poly> Start = toPoly(AR->getStart());
    std::optional<Poly> Step = toPoly(AR->getStepRecurrence(SE));
    if (!Start || !Step)
      return std::nullopt;
    Atom Iter{AtomKind::LoopIter};
    Iter.L = AR->getLoop();
    std::optional<Poly> Moved = mul(*Step, atomPoly(atomFor(Iter.L, Iter)));
    return Moved ? add(*Start, *Moved) : std::nullopt;
  }
  case scUnknown:
    return atomPoly(atomForValue(cast<SCEVUnknown>(S)->getValue()));
  case scCouldNotCompute:
    return std::nullopt;
  case scSMaxExpr:
  case scUMaxExpr:
  case scSMinExpr:
  case scUMinExpr:
  case scSequentialUMinExpr: {
    // A clamp of one varying index by grid-uniform bounds (an image edge,
    // min(i, n - 1)) is taken not to bind: most CTAs are inside.
    std::optional<Poly> Varying;
    for (const SCEV *Op : cast<SCEVNAryExpr>(S)->operands()) {
      std::optional<Poly> P = toPoly(Op);
      if (!P || (hasVariable(*P) && Varying))
        return atomPoly(opaqueAtom(S));
      if (hasVariable(*P))
        Varying = std::move(P);
    }
    return Varying ? Varying : atomPoly(opaqueAtom(S));
  }
  default:
    return atomPoly(opaqueAtom(S));
  }
}

bool KernelChecker::hasVariable(const Poly &P) const {
  return any_of(P, [&](const auto &Term) {
    return any_of(Term.first,
                  [&](unsigned Id) { return isVariable(Atoms[Id]); });
  });
}

// The offset of Ptr from its base pointer (set in Base), or none.
std::optional<Poly> KernelChecker::offsetFrom(const Value *Ptr,
                                              const Value *&Base) {
  const SCEV *Address = SE.getSCEV(const_cast<Value *>(Ptr));
  const auto *BaseS = dyn_cast<SCEVUnknown>(SE.getPointerBase(Address));
  if (!BaseS)
    return std::nullopt;
  Base = BaseS->getValue()->stripPointerCasts();
  const SCEV *Offset = SE.getMinusSCEV(Address, BaseS);
  if (isa<SCEVCouldNotCompute>(Offset))
    return std::nullopt;
  return toPoly(Offset);
}

} // namespace smc::locality
