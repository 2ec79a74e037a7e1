//===- LocalitySharing.cpp - What neighbours along one dimension share ----===//
//
// Part of LocalityAnalysis (LocalityChecker.h): the per-dimension rules.
// Along grid dimension d, a read whose address does not depend on
// blockIdx.d but varies inside a CTA makes d shared; so do two reads of one
// base array whose index ranges, in CTAs adjacent along d, overlap (the
// overlap test delinearizes the offset by its grid-uniform factors and
// compares the ranges of the array dimension blockIdx.d strides).  Reads
// whose neighbours' ranges never overlap leave d disjoint; anything not
// decided makes it unknown.  LocalityAnalysis.h states the rules in full.
//===----------------------------------------------------------------------===//
#include "LocalityChecker.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instruction.h"

#include <cstdlib>

using namespace llvm;

namespace smc::locality {

// The grid-uniform factors of a term other than blockDim: which array
// dimension the term indexes.
Monomial KernelChecker::classKey(const Monomial &M) const {
  Monomial Key;
  for (unsigned Id : M)
    if (Atoms[Id].Kind == AtomKind::Uniform)
      Key.push_back(Id);
  return Key;
}

// The range of the part of one read's offset that indexes the array
// dimension Key, over threadIdx and loop iterations.  None (with Problem)
// when the range is not known.
std::optional<IndexRange> KernelChecker::indexRange(const Read &Rd,
                                                    const Poly &Rest,
                                                    const Monomial &Key,
                                                    std::string &Problem) {
  IndexRange R;
  for (const auto &[M, C] : Rest) {
    if (classKey(M) != Key)
      continue;
    // C * blockDim... * Variables...
    Monomial BlockDims;
    SmallVector<unsigned, 2> Variables;
    for (unsigned Id : M) {
      if (isVariable(Atoms[Id]))
        Variables.push_back(Id);
      else if (Atoms[Id].Kind == AtomKind::BlockDim)
        BlockDims.push_back(Id);
    }
    Poly Coef{{BlockDims, C}};
    auto AddBoth = [&](const Poly &P) {
      std::optional<Poly> Lo = add(R.Lo, P), Hi = add(R.Hi, P),
                          LoNT = add(R.LoNoThread, P),
                          HiNT = add(R.HiNoThread, P);
      if (!Lo || !Hi || !LoNT || !HiNT)
        return false;
      R.Lo = *Lo, R.Hi = *Hi, R.LoNoThread = *LoNT, R.HiNoThread = *HiNT;
      return true;
    };
    if (Variables.empty()) {
      if (!AddBoth(Coef)) {
        Problem = "index too complex";
        return std::nullopt;
      }
      continue;
    }
    if (Variables.size() > 1) {
      Problem = "index multiplies thread or loop indices";
      return std::nullopt;
    }
    const Atom &V = Atoms[Variables[0]];
    if (V.Kind == AtomKind::CtaId)
      continue; // another dimension's blockIdx: the same for both CTAs
    if (V.Kind != AtomKind::ThreadId && V.Kind != AtomKind::LoopIter) {
      Problem = "index varies in a way not modelled";
      return std::nullopt;
    }
    std::optional<Poly> Max; // the variable's largest value; none: unbounded
    if (V.Kind == AtomKind::ThreadId) {
      unsigned BD = registerAtom(AtomKind::BlockDim, V.Dim);
      Max = add(atomPoly(BD), constant(-1));
    } else {
      Max = loopBound(V.L);
      // A loop that exits at its header (not rotated) runs the rest of its
      // body one time fewer than the header.
      if (Max && V.L->getExitingBlock() == V.L->getHeader() &&
          Rd.I->getParent() != V.L->getHeader()) {
        Max = add(*Max, constant(-1));
        if (Max && Max->size() == 1 && Max->begin()->first.empty() &&
            Max->begin()->second < 0)
          Max = Poly(); // the body never runs: 0
      }
    }
    Truth Up = holds(Coef), Down = holds(Coef, -1);
    if (Up == Truth::Depends && Down == Truth::Depends) {
      Problem = "index coefficient of unknown sign";
      return std::nullopt;
    }
    bool Increasing =
        Up == Truth::Always || (Up == Truth::Depends && Down == Truth::Never);
    std::optional<Poly> Extent;
    if (Max)
      Extent = mul(Coef, *Max);
    if (Max && !Extent) {
      Problem = "index too complex";
      return std::nullopt;
    }
    Poly &End = Increasing ? R.Hi : R.Lo;
    bool &EndInf = Increasing ? R.HiInf : R.LoInf;
    if (!Extent) {
      EndInf = true;
    } else if (std::optional<Poly> Moved = add(End, *Extent)) {
      End = *Moved;
    } else {
      Problem = "index too complex";
      return std::nullopt;
    }
    if (V.Kind == AtomKind::ThreadId) {
      R.HasThread = true;
      bool Constant = Coef.size() == 1 && Coef.begin()->first.empty();
      int64_t K = Constant ? std::abs(Coef.begin()->second) : 0;
      if (!Constant || !Increasing)
        R.ThreadCoefsConstant = false;
      else if (R.MinThreadCoef == 0 || K < R.MinThreadCoef)
        R.MinThreadCoef = K;
    } else {
      Poly &EndNT = Increasing ? R.HiNoThread : R.LoNoThread;
      std::optional<Poly> Moved = Extent ? add(EndNT, *Extent) : EndNT;
      if (!Moved) {
        Problem = "index too complex";
        return std::nullopt;
      }
      EndNT = std::move(*Moved);
    }
  }
  return R;
}

// Do the index ranges of read A in a CTA and of read B in its neighbour
// (whose index is larger by Delta) overlap?  Elements are points, except
// in the byte dimension (no uniform factor), where they are SizeA and SizeB
// bytes long.
Truth KernelChecker::overlap(const IndexRange &A, const IndexRange &B,
                             const Poly &Delta, int64_t SizeA, int64_t SizeB,
                             bool ByteClass) const {
  int64_t EA = ByteClass ? SizeA : 1, EB = ByteClass ? SizeB : 1;
  auto Test = [&](const Poly &ALo, const Poly &AHi, const Poly &BLo,
                  const Poly &BHi, bool ALoInf, bool AHiInf, bool BLoInf,
                  bool BHiInf) {
    // A's end beyond B's start, and B's end beyond A's start.
    Truth First = Truth::Always, Second = Truth::Always;
    if (!AHiInf && !BLoInf) {
      std::optional<Poly> P = add(AHi, constant(EA));
      P = P ? sub(*P, BLo) : P;
      P = P ? sub(*P, Delta) : P;
      First = P ? holds(*P) : Truth::Depends;
    }
    if (!BHiInf && !ALoInf) {
      std::optional<Poly> P = add(BHi, constant(EB));
      P = P ? add(*P, Delta) : P;
      P = P ? sub(*P, ALo) : P;
      Second = P ? holds(*P) : Truth::Depends;
    }
    if (First == Truth::Never || Second == Truth::Never)
      return Truth::Never;
    if (First == Truth::Always && Second == Truth::Always)
      return Truth::Always;
    return Truth::Depends;
  };
  Truth Exact =
      Test(A.Lo, A.Hi, B.Lo, B.Hi, A.LoInf, A.HiInf, B.LoInf, B.HiInf);
  if (Exact != Truth::Depends)
    return Exact;
  // The usual tiling: the threads of a CTA cover exactly one blockIdx step.
  Truth Up = holds(Delta), Down = holds(Delta, -1);
  std::optional<Poly> Step = Up == Truth::Always ? Delta : scale(Delta, -1);
  if ((Up != Truth::Always && Down != Truth::Always) || !Step ||
      !A.ThreadCoefsConstant || !B.ThreadCoefsConstant)
    return Truth::Depends;
  auto Tiled = [&](const IndexRange &R) -> std::optional<Poly> {
    if (!R.HasThread)
      return R.Hi;
    std::optional<Poly> Hi = add(R.HiNoThread, *Step);
    return Hi ? add(*Hi, constant(-R.MinThreadCoef)) : Hi;
  };
  std::optional<Poly> AHi = Tiled(A), BHi = Tiled(B);
  if (!AHi || !BHi)
    return Truth::Depends;
  const Poly &ALo = A.HasThread ? A.LoNoThread : A.Lo;
  const Poly &BLo = B.HasThread ? B.LoNoThread : B.Lo;
  return Test(ALo, *AHi, BLo, *BHi, A.LoInf, A.HiInf, B.LoInf, B.HiInf);
}

// Reads of one base compared pairwise, at most (the first) this many.
constexpr size_t MaxReadsPerBase = 64;

void KernelChecker::checkDim(unsigned D, ArrayRef<Read> Reads,
                             DimLocality &Out) {
  std::string Dim = DimNames[D];
  std::string Unknown;
  auto SetUnknown = [&](const std::string &Why) {
    if (Unknown.empty())
      Unknown = Why;
  };
  auto Shared = [&](const std::string &Why) {
    Out.Sharing = DimSharing::Shared;
    Out.Why = Why;
  };
  // Reads whose address moves with blockIdx.D, by base: the read, its
  // stride along D (Delta) and the rest of its offset.
  struct Moving {
    const Read *R;
    Poly Delta, Rest;
  };
  MapVector<const Value *, SmallVector<Moving, 4>> ByBase;
  for (const Read &R : Reads) {
    if (R.State != Read::Affine) {
      SetUnknown(at(R.Problem, R.Where));
      continue;
    }
    Poly Delta, Rest;
    bool Affine = true, VariesInCta = false;
    for (const auto &[M, C] : R.Offset) {
      unsigned CtaCount = 0;
      bool OtherVariable = false;
      Monomial Without;
      for (unsigned Id : M) {
        const Atom &A = Atoms[Id];
        if (A.Kind == AtomKind::CtaId && A.Dim == D) {
          ++CtaCount;
          continue;
        }
        Without.push_back(Id);
        if (A.Kind == AtomKind::Varying && (A.Origin & (FromCta << D)))
          Affine = false;
        if (isVariable(A) && A.Kind != AtomKind::CtaId)
          VariesInCta = true;
        if (isVariable(A))
          OtherVariable = true;
      }
      if (CtaCount > 1 || (CtaCount == 1 && OtherVariable))
        Affine = false;
      addTerm(CtaCount ? Delta : Rest, Without, C);
    }
    if (!Affine) {
      SetUnknown(at("index of " + R.BaseName + " not affine in blockIdx." + Dim,
                    R.Where));
      continue;
    }
    if (Delta.empty()) {
      if (VariesInCta)
        return Shared(
            at(R.BaseName + " is the same for all CTAs along " + Dim, R.Where));
      continue; // a scalar every CTA reads: no region to share
    }
    SmallVector<Moving, 4> &Group = ByBase[R.Base];
    if (Group.size() < MaxReadsPerBase)
      Group.push_back({&R, std::move(Delta), std::move(Rest)});
  }
  for (auto &[Base, Group] : ByBase) {
    for (const Moving &A : Group) {
      // The array dimension blockIdx.D strides: the uniform factors of
      // Delta, the same in all its terms.
      Monomial Key = classKey(A.Delta.begin()->first);
      if (any_of(A.Delta, [&](const auto &Term) {
            return classKey(Term.first) != Key;
          })) {
        SetUnknown(at("blockIdx." + Dim + " stride of " + A.R->BaseName +
                          " spans several array dimensions",
                      A.R->Where));
        continue;
      }
      Poly Step;
      for (const auto &[M, C] : A.Delta) {
        Monomial BlockDims;
        for (unsigned Id : M)
          if (Atoms[Id].Kind == AtomKind::BlockDim)
            BlockDims.push_back(Id);
        addTerm(Step, BlockDims, C);
      }
      std::string Problem;
      std::optional<IndexRange> RangeA = indexRange(*A.R, A.Rest, Key, Problem);
      if (!RangeA) {
        SetUnknown(at(Problem + " (" + A.R->BaseName + ")", A.R->Where));
        continue;
      }
      for (const Moving &B : Group) {
        if (B.Delta != A.Delta) {
          SetUnknown(at("reads of " + A.R->BaseName +
                            " with different blockIdx." + Dim + " strides",
                        A.R->Where));
          continue;
        }
        std::optional<IndexRange> RangeB =
            indexRange(*B.R, B.Rest, Key, Problem);
        if (!RangeB) {
          SetUnknown(at(Problem + " (" + B.R->BaseName + ")", B.R->Where));
          continue;
        }
        switch (overlap(*RangeA, *RangeB, Step, A.R->Size, B.R->Size,
                        Key.empty())) {
        case Truth::Always:
          return Shared(at("reads of " + A.R->BaseName +
                               " by neighbours along " + Dim + " overlap",
                           A.R->Where));
        case Truth::Never:
          break;
        case Truth::Depends:
          SetUnknown(at("overlap of " + A.R->BaseName + " along " + Dim +
                            " depends on the block size",
                        A.R->Where));
          break;
        }
      }
    }
  }
  if (!Unknown.empty()) {
    Out.Sharing = DimSharing::Unknown;
    Out.Why = Unknown;
    return;
  }
  Out.Sharing = DimSharing::Disjoint;
}

} // namespace smc::locality
