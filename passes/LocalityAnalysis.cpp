//===- LocalityAnalysis.cpp - Which neighbouring CTAs share data ----------===//
//
// For each kernel: collect its global-memory reads; split each address into
// a base (a kernel parameter, a __device__ variable, a pointer loaded from
// the parameter space) and a byte offset; turn the offset's SCEV into a
// polynomial whose atoms are blockIdx.d, threadIdx.d, blockDim.d, the
// iteration of a loop, and values the same for the whole grid; then decide,
// per dimension, shared / disjoint / unknown, and from that the kernel's
// class (the rules are in LocalityAnalysis.h).  Signs and comparisons of
// expressions in blockDim are decided by evaluating them at each block shape
// the kernel may run with (blockShapes()): "true at all" and "false at all"
// are answers, anything else is "depends on the block size".
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes='print<smc-locality>' \
//            -disable-output in.ll
//===----------------------------------------------------------------------===//
#include "LocalityAnalysis.h"
#include "CTAUniformity.h"
#include "Diagnostics.h"
#include "KernelSelection.h"
#include "Legality.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

#include <array>
#include <map>
#include <optional>

#define DEBUG_TYPE SMC_NAME

using namespace llvm;

namespace smc {

namespace {

const char *const DimNames[] = {"x", "y", "z"};

//===----------------------------------------------------------------------===//
// Where values come from
//===----------------------------------------------------------------------===//

// What a value depends on (a bit set).  FromCta << d: blockIdx.d.
enum OriginBits : unsigned {
  FromCta = 1,         // 1, 2, 4: blockIdx.x, .y, .z
  FromThread = 8,      // threadIdx, lane and warp ids
  FromLoop = 16,       // changes from one loop iteration to the next
  FromLoadedData = 32, // loaded from memory at an address that varies
  FromOther = 64,      // anything else that may differ between threads
};
constexpr unsigned AllCtaBits = 7;
constexpr unsigned Varies =
    AllCtaBits | FromThread | FromLoop | FromLoadedData | FromOther;

// A special register read (llvm.nvvm.read.ptx.sreg.*).
struct SpecialRegister {
  enum KindType { None, CtaId, ThreadId, BlockDim, GridUniform, PerThread };
  KindType Kind = None;
  unsigned Dim = 0;
};

SpecialRegister specialRegister(const Value *V) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee)
    return {};
  using SR = SpecialRegister;
  switch (Callee->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    return {SR::CtaId, 0};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    return {SR::CtaId, 1};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    return {SR::CtaId, 2};
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    return {SR::ThreadId, 0};
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
    return {SR::ThreadId, 1};
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
    return {SR::ThreadId, 2};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    return {SR::BlockDim, 0};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    return {SR::BlockDim, 1};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    return {SR::BlockDim, 2};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    return {SR::GridUniform, 0};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    return {SR::GridUniform, 1};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return {SR::GridUniform, 2};
  case Intrinsic::nvvm_read_ptx_sreg_warpsize:
    return {SR::GridUniform, 0};
  default:
    // %laneid, %warpid, %smid, clocks, ...: may differ between threads.
    if (Callee->getName().starts_with("llvm.nvvm.read.ptx.sreg."))
      return {SR::PerThread, 0};
    return {};
  }
}

// The memory a pointer points into.
enum class Space { Global, Shared, Local, Constant, Param, Unknown };

Space spaceOf(const Value *Ptr) {
  switch (Ptr->getType()->getPointerAddressSpace()) {
  case NVPTXAS::ADDRESS_SPACE_GLOBAL:
    return Space::Global;
  case NVPTXAS::ADDRESS_SPACE_SHARED:
    return Space::Shared;
  case NVPTXAS::ADDRESS_SPACE_LOCAL:
    return Space::Local;
  case NVPTXAS::ADDRESS_SPACE_CONST:
    return Space::Constant;
  case NVPTXAS::ADDRESS_SPACE_PARAM:
    return Space::Param;
  case NVPTXAS::ADDRESS_SPACE_GENERIC:
    break;
  default:
    return Space::Unknown;
  }
  const Value *Object = getUnderlyingObject(Ptr);
  if (Object != Ptr && Object->getType()->isPointerTy() &&
      Object->getType()->getPointerAddressSpace() !=
          NVPTXAS::ADDRESS_SPACE_GENERIC)
    return spaceOf(Object);
  if (const auto *A = dyn_cast<Argument>(Object))
    return A->hasByValAttr() ? Space::Param : Space::Global;
  if (isa<AllocaInst>(Object))
    return Space::Local;
  if (isa<GlobalVariable>(Object))
    return Space::Global;
  return Space::Unknown;
}

// The pointers an instruction reads or writes memory through.
SmallVector<const Value *, 2> accessedPointers(const Instruction &I) {
  if (const Value *Ptr = getLoadStorePointerOperand(&I))
    return {Ptr};
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return {RMW->getPointerOperand()};
  if (const auto *CAS = dyn_cast<AtomicCmpXchgInst>(&I))
    return {CAS->getPointerOperand()};
  if (const auto *Copy = dyn_cast<MemTransferInst>(&I))
    return {Copy->getRawDest(), Copy->getRawSource()};
  if (const auto *Set = dyn_cast<MemSetInst>(&I))
    return {Set->getRawDest()};
  return {};
}

// Global memory, or a generic pointer of unknown origin (one loaded from
// memory, say), which in a kernel points to global memory.
bool mayBeGlobal(const Value *Ptr) {
  Space S = spaceOf(Ptr);
  return S == Space::Global || S == Space::Unknown;
}

//===----------------------------------------------------------------------===//
// Polynomials over atoms
//===----------------------------------------------------------------------===//

enum class AtomKind {
  CtaId,    // blockIdx.Dim
  ThreadId, // threadIdx.Dim
  BlockDim, // blockDim.Dim
  Uniform,  // the same for the whole grid
  LoopIter, // iteration number of loop L, from 0
  Varying,  // differs between threads or CTAs in a way not modelled
  Loaded,   // depends on data loaded at a varying address
};

struct Atom {
  AtomKind Kind;
  unsigned Dim = 0;
  const Loop *L = nullptr;
  unsigned Origin = 0;                 // Varying: what it depends on
  const Instruction *Source = nullptr; // Loaded: the load
};

bool isVariable(const Atom &A) {
  return A.Kind != AtomKind::Uniform && A.Kind != AtomKind::BlockDim;
}

using Monomial = SmallVector<unsigned, 4>; // sorted atom ids
using Poly = std::map<Monomial, int64_t>;

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

// Truth over all block shapes.
enum class Truth { Always, Never, Depends };

// blockDim.x, .y, .z.
using BlockShape = std::array<int64_t, 3>;

//===----------------------------------------------------------------------===//
// One kernel
//===----------------------------------------------------------------------===//

// A global-memory read: base + Offset bytes, Size bytes.
struct Read {
  const Instruction *I = nullptr;
  std::string Where; // "file:line" or ""
  const Value *Base = nullptr;
  std::string BaseName;
  Poly Offset;
  int64_t Size = 1;
  enum StateType { Affine, Irregular, Unknown } State = Affine;
  std::string Problem; // Irregular, Unknown: why
};

// The range of one read's index in one array dimension.
struct IndexRange {
  Poly Lo, Hi; // in blockDim
  bool LoInf = false, HiInf = false;
  Poly LoNoThread, HiNoThread; // the same without threadIdx terms
  bool HasThread = false;
  int64_t MinThreadCoef = 0; // smallest threadIdx coefficient (constant)
  bool ThreadCoefsConstant = true;
};

std::string at(const std::string &What, const std::string &Where) {
  return Where.empty() ? What : What + " at " + Where;
}

// "file:line" of I in the user's code, or "" (also for line 0).
std::string where(const Instruction *I) {
  const DILocation *L = outermostLocation(I);
  return L && L->getLine() ? sourceLocation(I) : "";
}

class KernelChecker {
public:
  KernelChecker(Function &F, ScalarEvolution &SE, LoopInfo &LI,
                PostDominatorTree &PDT)
      : F(F), SE(SE), LI(LI), PDT(PDT), DL(F.getDataLayout()) {}

  KernelLocality check();

private:
  Function &F;
  ScalarEvolution &SE;
  LoopInfo &LI;
  PostDominatorTree &PDT;
  const DataLayout &DL;
  // The block shapes comparisons are evaluated at (blockShapes()).
  SmallVector<BlockShape, 64> Shapes;

  DenseMap<const Value *, unsigned> Origins;
  SmallVector<Atom, 16> Atoms;
  DenseMap<const void *, unsigned> AtomIds;
  DenseMap<const Loop *, std::optional<Poly>> LoopBounds;

  unsigned origin(const Value *V, unsigned Depth = 0);
  unsigned computeOrigin(const Instruction *I, unsigned Depth);
  unsigned atomFor(const void *Key, Atom A);
  unsigned atomForValue(const Value *V);
  unsigned opaqueAtom(const SCEV *S);
  std::optional<Poly> toPoly(const SCEV *S);
  bool hasVariable(const Poly &P) const;
  std::optional<Poly> offsetFrom(const Value *Ptr, const Value *&Base);
  void blockShapes();
  const std::optional<Poly> &loopBound(const Loop *L);
  std::string baseName(const Value *Base);
  Read analyseRead(const Instruction &I, const Value *Ptr, int64_t Size);

  // Per dimension.
  Monomial classKey(const Monomial &M) const;
  std::optional<IndexRange> indexRange(const Read &R, const Poly &Rest,
                                       const Monomial &Key,
                                       std::string &Problem);
  /// P's value at a block shape (P's atoms must all be blockDim).
  __int128 valueAt(const Poly &P, const BlockShape &Shape) const;
  /// Is P > 0 (Sign 1) or P < 0 (Sign -1) at every block shape?
  Truth holds(const Poly &P, int Sign = 1) const;
  Truth overlap(const IndexRange &A, const IndexRange &B, const Poly &Delta,
                int64_t SizeA, int64_t SizeB, bool ByteClass) const;
  void checkDim(unsigned D, ArrayRef<Read> Reads, DimLocality &Out);
};

unsigned KernelChecker::origin(const Value *V, unsigned Depth) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return 0;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return FromOther;
  auto It = Origins.find(I);
  if (It != Origins.end())
    return It->second; // known, or in progress on a cycle (through phis)
  if (Depth > 64)
    return FromOther;
  Origins[I] = 0;
  unsigned O = computeOrigin(I, Depth + 1);
  Origins[I] = O;
  return O;
}

unsigned KernelChecker::computeOrigin(const Instruction *I, unsigned Depth) {
  SpecialRegister R = specialRegister(I);
  switch (R.Kind) {
  case SpecialRegister::CtaId:
    return FromCta << R.Dim;
  case SpecialRegister::ThreadId:
    return FromThread;
  case SpecialRegister::BlockDim:
  case SpecialRegister::GridUniform:
    return 0;
  case SpecialRegister::PerThread:
    return FromThread;
  case SpecialRegister::None:
    break;
  }
  auto OperandsOrigin = [&](const User *U) {
    unsigned O = 0;
    for (const Value *Op : U->operands())
      O |= origin(Op, Depth);
    return O;
  };
  if (const auto *Load = dyn_cast<LoadInst>(I)) {
    unsigned Address = origin(Load->getPointerOperand(), Depth);
    Space S = spaceOf(Load->getPointerOperand());
    bool GridWide = mayBeGlobal(Load->getPointerOperand()) ||
                    S == Space::Constant || S == Space::Param;
    // One address of memory all CTAs see: a value like a kernel argument.
    if (!(Address & Varies) && GridWide && !Load->isVolatile() &&
        !Load->isAtomic())
      return 0;
    return FromLoadedData | Address;
  }
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return FromLoadedData | FromOther;
  if (const auto *Phi = dyn_cast<PHINode>(I)) {
    unsigned O = LI.isLoopHeader(Phi->getParent()) ? FromLoop : 0;
    for (const Value *In : Phi->incoming_values())
      O |= origin(In, Depth);
    return O;
  }
  if (const auto *Call = dyn_cast<CallBase>(I)) {
    unsigned O = 0;
    for (const Value *Arg : Call->args())
      O |= origin(Arg, Depth);
    // Pure intrinsics (min, max, abs, ...) are functions of their
    // arguments; anything else may give each thread something else.
    if (!(Call->getCalledFunction() &&
          Call->getCalledFunction()->isIntrinsic() &&
          Call->doesNotAccessMemory()))
      O |= FromOther;
    return O;
  }
  return OperandsOrigin(I);
}

unsigned KernelChecker::atomFor(const void *Key, Atom A) {
  auto [It, New] = AtomIds.try_emplace(Key, Atoms.size());
  if (New)
    Atoms.push_back(A);
  return It->second;
}

// Keys for the special-register atoms, one per register.
const char RegisterKeys[3][3] = {};

unsigned KernelChecker::atomForValue(const Value *V) {
  SpecialRegister R = specialRegister(V);
  switch (R.Kind) {
  case SpecialRegister::CtaId:
    return atomFor(&RegisterKeys[0][R.Dim], {AtomKind::CtaId, R.Dim});
  case SpecialRegister::ThreadId:
    return atomFor(&RegisterKeys[1][R.Dim], {AtomKind::ThreadId, R.Dim});
  case SpecialRegister::BlockDim:
    return atomFor(&RegisterKeys[2][R.Dim], {AtomKind::BlockDim, R.Dim});
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
  CTAUniformity Uniformity(F, LI, PDT);
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
      unsigned BD =
          atomFor(&RegisterKeys[2][A.Dim], {AtomKind::BlockDim, A.Dim});
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

std::string KernelChecker::baseName(const Value *Base) {
  if (const auto *A = dyn_cast<Argument>(Base)) {
    if (A->hasName())
      return A->getName().str();
    SmallVector<DbgVariableRecord *, 2> Records;
    findDbgValues(const_cast<Argument *>(A), Records);
    for (DbgVariableRecord *R : Records)
      if (DILocalVariable *Var = R->getVariable(); Var && Var->getArg())
        return Var->getName().str();
    return "parameter " + std::to_string(A->getArgNo() + 1);
  }
  if (const auto *G = dyn_cast<GlobalVariable>(Base))
    return demangle(G->getName());
  if (const auto *Load = dyn_cast<LoadInst>(Base)) {
    const Value *From = getUnderlyingObject(Load->getPointerOperand());
    return "a pointer in " + baseName(From);
  }
  if (Base->hasName())
    return Base->getName().str();
  return "a pointer";
}

Read KernelChecker::analyseRead(const Instruction &I, const Value *Ptr,
                                int64_t Size) {
  Read R;
  R.I = &I;
  R.Where = where(&I);
  R.Size = Size;
  auto Fail = [&](Read::StateType State, std::string Why) {
    R.State = State;
    R.Problem = std::move(Why);
    return R;
  };
  const Value *Base = nullptr;
  std::optional<Poly> Offset = offsetFrom(Ptr, Base);
  if (Base) {
    R.Base = Base;
    R.BaseName = baseName(Base);
  }
  if (const auto *Load = dyn_cast_or_null<LoadInst>(Base)) {
    // A pointer read from memory: from the parameter space, or from one
    // fixed address, it is the same for the whole grid; else it is data.
    if (origin(Load) & Varies)
      return Fail(Read::Irregular, "its pointer is loaded from memory");
  } else if (Base && !isa<Argument>(Base) && !isa<GlobalVariable>(Base)) {
    if (origin(Base) & FromLoadedData)
      return Fail(Read::Irregular, "its pointer is computed from loaded data");
    return Fail(Read::Unknown, "pointer chosen at run time");
  }
  if (!Offset)
    return Fail(Read::Unknown, "address not analysable");
  R.Offset = std::move(*Offset);
  for (const auto &[M, C] : R.Offset)
    for (unsigned Id : M)
      if (Atoms[Id].Kind == AtomKind::Loaded)
        return Fail(Read::Irregular, at("its index is loaded from memory",
                                        where(Atoms[Id].Source)));
  return R;
}

// The grid-uniform factors of a term other than blockDim: which array
// dimension the term indexes.
Monomial KernelChecker::classKey(const Monomial &M) const {
  Monomial Key;
  for (unsigned Id : M)
    if (Atoms[Id].Kind == AtomKind::Uniform)
      Key.push_back(Id);
  return Key;
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
      Atom BlockDim{AtomKind::BlockDim, V.Dim};
      unsigned BD = atomFor(&RegisterKeys[2][V.Dim], BlockDim);
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

KernelLocality KernelChecker::check() {
  KernelLocality Result;
  bool UsesDim[3] = {false, false, false};
  SmallVector<Read, 16> Reads;
  for (Instruction &I : instructions(F)) {
    // The dimensions whose blockIdx some global access's address depends
    // on, read or write.
    for (const Value *Address : accessedPointers(I))
      if (mayBeGlobal(Address))
        for (unsigned D = 0; D < 3; ++D)
          UsesDim[D] |= (origin(Address) & (FromCta << D)) != 0;
    const Value *Ptr = nullptr;
    int64_t Size = 1;
    if (const auto *Load = dyn_cast<LoadInst>(&I)) {
      Ptr = Load->getPointerOperand();
      Size = DL.getTypeStoreSize(Load->getType()).getKnownMinValue();
    } else if (const auto *Copy = dyn_cast<MemTransferInst>(&I)) {
      Ptr = Copy->getRawSource();
      if (const auto *Length = dyn_cast<ConstantInt>(Copy->getLength()))
        Size = std::max<int64_t>(1, Length->getSExtValue());
    }
    if (!Ptr || !mayBeGlobal(Ptr))
      continue;
    Reads.push_back(analyseRead(I, Ptr, Size));
  }
  Result.NumReads = Reads.size();
  blockShapes();
  for (unsigned D = 0; D < 3; ++D)
    if (UsesDim[D])
      checkDim(D, Reads, Result.Dims[D]);

  auto Irregular =
      find_if(Reads, [](const Read &R) { return R.State == Read::Irregular; });
  if (Irregular != Reads.end()) {
    Result.Class = SMC_LOCALITY_IRREGULAR;
    Result.Why = at("read of " + Irregular->BaseName, Irregular->Where) + ": " +
                 Irregular->Problem;
    return Result;
  }
  unsigned Shared = 0, Unknown = 0, Last = 0;
  for (unsigned D = 0; D < 3; ++D) {
    if (Result.Dims[D].Sharing == DimSharing::Shared) {
      ++Shared;
      Last = D;
    }
    Unknown += Result.Dims[D].Sharing == DimSharing::Unknown;
  }
  if (Shared > 1)
    Result.Class = SMC_LOCALITY_TILE;
  else if (Shared == 1)
    Result.Class = Last == 0   ? SMC_LOCALITY_X
                   : Last == 1 ? SMC_LOCALITY_Y
                               : SMC_LOCALITY_Z;
  else if (Unknown)
    Result.Class = SMC_LOCALITY_UNKNOWN;
  else
    Result.Class = SMC_LOCALITY_NONE;
  if (Reads.empty())
    Result.Why = "no global-memory reads";
  else if (!UsesDim[0] && !UsesDim[1] && !UsesDim[2])
    Result.Why = "no address depends on blockIdx";
  return Result;
}

//===----------------------------------------------------------------------===//
// Kernels the optimizer has not simplified
//===----------------------------------------------------------------------===//

// Is K unoptimized (-O0) or does it call functions with a body?
bool needsSimplifiedCopy(const Function &K) {
  if (K.hasOptNone())
    return true;
  for (const Instruction &I : instructions(K))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction())
        if (!Callee->isDeclaration() && !Callee->isIntrinsic())
          return true;
  return false;
}

// Inlines the calls of functions with a body into F, level by level, up to
// a budget (recursion stays calls).
void inlineCalls(Function &F) {
  unsigned Budget = 4096;
  for (unsigned Level = 0; Level < 16 && Budget; ++Level) {
    SmallVector<CallBase *, 16> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (!Callee->isDeclaration() && Callee != &F && !Callee->isVarArg() &&
              !Callee->isIntrinsic() &&
              Callee->getFunctionType() == Call->getFunctionType())
            Calls.push_back(Call);
    if (Calls.empty())
      return;
    bool Inlined = false;
    for (CallBase *Call : Calls) {
      if (!Budget)
        break;
      --Budget;
      InlineFunctionInfo IFI;
      Inlined |= InlineFunction(*Call, IFI).isSuccess();
    }
    if (!Inlined)
      return;
  }
}

// Moves the reads of blockIdx, threadIdx, blockDim and gridDim to the entry
// block (what LICM would do at -O1 and above), so that a loop stepping by
// blockDim.x * gridDim.x is a recurrence ScalarEvolution sees.
void hoistGridRegisterReads(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  SmallVector<Instruction *, 16> Reads;
  for (Instruction &I : instructions(F))
    if (SpecialRegister R = specialRegister(&I);
        R.Kind != SpecialRegister::None && R.Kind != SpecialRegister::PerThread)
      Reads.push_back(&I);
  for (Instruction *I : Reads)
    if (I->getParent() != &Entry)
      I->moveBefore(Entry.getFirstInsertionPt());
}

// Analyses the kernels Ks on a simplified copy of M.
void analyseSimplifiedCopies(Module &M, ArrayRef<Function *> Ks,
                             DenseMap<Function *, KernelLocality> &Out) {
  ValueToValueMapTy VMap;
  std::unique_ptr<Module> Copy = CloneModule(M, VMap);
  for (Function &F : *Copy) {
    F.removeFnAttr(Attribute::OptimizeNone);
    F.removeFnAttr(Attribute::NoInline);
  }
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager Simplify;
  Simplify.addPass(SROAPass(SROAOptions::ModifyCFG));
  Simplify.addPass(EarlyCSEPass(/*UseMemorySSA=*/false));
  Simplify.addPass(InstCombinePass());
  Simplify.addPass(SimplifyCFGPass());
  Simplify.addPass(LoopSimplifyPass());
  for (Function *K : Ks) {
    auto &KC = *cast<Function>(VMap[K]);
    inlineCalls(KC);
    hoistGridRegisterReads(KC);
    Simplify.run(KC, FAM);
    Out[K] = KernelChecker(KC, FAM.getResult<ScalarEvolutionAnalysis>(KC),
                           FAM.getResult<LoopAnalysis>(KC),
                           FAM.getResult<PostDominatorTreeAnalysis>(KC))
                 .check();
  }
  FAM.clear();
  MAM.clear();
}

} // namespace

std::string KernelLocality::describe() const {
  std::string S = smcLocalityText(Class);
  std::string Parts;
  auto Part = [&](const std::string &P) {
    Parts += (Parts.empty() ? "" : "; ") + P;
  };
  if (!Why.empty())
    Part(Why);
  if (Class != SMC_LOCALITY_IRREGULAR)
    for (unsigned D = 0; D < 3; ++D) {
      const DimLocality &Dim = Dims[D];
      std::string Name = std::string(DimNames[D]) + ": ";
      switch (Dim.Sharing) {
      case DimSharing::Unused:
        break;
      case DimSharing::Disjoint:
        Part(Name + "disjoint");
        break;
      case DimSharing::Shared:
        Part(Name + Dim.Why);
        break;
      case DimSharing::Unknown:
        Part(Name + "unknown, " + Dim.Why);
        break;
      }
    }
  return Parts.empty() ? S : S + " (" + Parts + ")";
}

LocalityAnalysis::Result LocalityAnalysis::run(Module &M,
                                               ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  const auto &Kernels = MAM.getResult<KernelSelection>(M);
  DenseMap<Function *, KernelLocality> Found;
  SmallVector<Function *, 8> ToCopy;
  for (Function *K : Kernels) {
    if (needsSimplifiedCopy(*K)) {
      ToCopy.push_back(K);
      continue;
    }
    Found[K] = KernelChecker(*K, FAM.getResult<ScalarEvolutionAnalysis>(*K),
                             FAM.getResult<LoopAnalysis>(*K),
                             FAM.getResult<PostDominatorTreeAnalysis>(*K))
                   .check();
  }
  if (!ToCopy.empty())
    analyseSimplifiedCopies(M, ToCopy, Found);
  Result R;
  for (Function *K : Kernels) {
    R[K] = std::move(Found[K]);
    LLVM_DEBUG(dbgs() << SMC_NAME ": locality of " << K->getName() << ": "
                      << R[K].describe() << "\n");
  }
  return R;
}

PreservedAnalyses LocalityPrinterPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  for (auto &[K, L] : MAM.getResult<LocalityAnalysis>(M))
    outs() << "kernel " << K->getName() << ": " << L.describe() << "\n";
  return PreservedAnalyses::all();
}

} // namespace smc
