//===- LocalityChecker.h - The machinery of LocalityAnalysis ----*- C++ -*-===//
//
// Internal to the Locality*.cpp files: the vocabulary LocalityAnalysis
// works in (where values come from, polynomials over atoms, global-memory
// reads and their index ranges) and KernelChecker, which analyses one
// kernel.  Its parts are spread by concern:
//  - LocalityOrigins.cpp: special registers, memory spaces, what a value
//    depends on;
//  - LocalityPolynomial.cpp: polynomial arithmetic and SCEV to polynomial;
//  - LocalityBlockShapes.cpp: the block shapes comparisons are evaluated at;
//  - LocalitySharing.cpp: the per-dimension rules (shared / disjoint /
//    unknown);
//  - LocalityAnalysis.cpp: the reads of a kernel and its class.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_LOCALITYCHECKER_H
#define SMC_PASSES_LOCALITYCHECKER_H

#include "LocalityAnalysis.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace llvm {
class DataLayout;
class Function;
class Instruction;
class Loop;
class LoopInfo;
class SCEV;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace smc {

class CTAUniformity;

namespace locality {

extern const char *const DimNames[3];

//===----------------------------------------------------------------------===//
// Where values come from (LocalityOrigins.cpp)
//===----------------------------------------------------------------------===//

/// What a value depends on (a bit set).  FromCta << d: blockIdx.d.
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

/// A special register read (llvm.nvvm.read.ptx.sreg.*).
struct SpecialRegister {
  enum KindType { None, CtaId, ThreadId, BlockDim, GridUniform, PerThread };
  KindType Kind = None;
  unsigned Dim = 0;
};

/// The special register \p V reads, if it is such a read.
SpecialRegister specialRegister(const llvm::Value *V);

/// The memory a pointer points into.
enum class Space { Global, Shared, Local, Constant, Param, Unknown };
Space spaceOf(const llvm::Value *Ptr);

/// The pointers an instruction reads or writes memory through.
llvm::SmallVector<const llvm::Value *, 2>
accessedPointers(const llvm::Instruction &I);

/// Global memory, or a generic pointer of unknown origin (one loaded from
/// memory, say), which in a kernel points to global memory.
bool mayBeGlobal(const llvm::Value *Ptr);

//===----------------------------------------------------------------------===//
// Polynomials over atoms (LocalityPolynomial.cpp)
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
  const llvm::Loop *L = nullptr;
  unsigned Origin = 0;                       // Varying: what it depends on
  const llvm::Instruction *Source = nullptr; // Loaded: the load
};

inline bool isVariable(const Atom &A) {
  return A.Kind != AtomKind::Uniform && A.Kind != AtomKind::BlockDim;
}

using Monomial = llvm::SmallVector<unsigned, 4>; // sorted atom ids
using Poly = std::map<Monomial, int64_t>;

/// Adds C * M to P; false on overflow.
bool addTerm(Poly &P, const Monomial &M, int64_t C);
/// Sums, multiples and products; none on overflow (or too many terms).
std::optional<Poly> add(const Poly &A, const Poly &B);
std::optional<Poly> scale(const Poly &A, int64_t K);
std::optional<Poly> sub(const Poly &A, const Poly &B);
std::optional<Poly> mul(const Poly &A, const Poly &B);
Poly constant(int64_t C);
Poly atomPoly(unsigned Id);

/// Truth over all block shapes.
enum class Truth { Always, Never, Depends };

/// blockDim.x, .y, .z.
using BlockShape = std::array<int64_t, 3>;

//===----------------------------------------------------------------------===//
// One kernel
//===----------------------------------------------------------------------===//

/// A global-memory read: base + Offset bytes, Size bytes.
struct Read {
  const llvm::Instruction *I = nullptr;
  std::string Where; // "file:line" or ""
  const llvm::Value *Base = nullptr;
  std::string BaseName;
  Poly Offset;
  int64_t Size = 1;
  enum StateType { Affine, Irregular, Unknown } State = Affine;
  std::string Problem; // Irregular, Unknown: why
};

/// The range of one read's index in one array dimension.
struct IndexRange {
  Poly Lo, Hi; // in blockDim
  bool LoInf = false, HiInf = false;
  Poly LoNoThread, HiNoThread; // the same without threadIdx terms
  bool HasThread = false;
  int64_t MinThreadCoef = 0; // smallest threadIdx coefficient (constant)
  bool ThreadCoefsConstant = true;
};

/// "<what> at <where>", or \p What alone when \p Where is empty.
std::string at(const std::string &What, const std::string &Where);

/// "file:line" of I in the user's code, or "" (also for line 0).
std::string where(const llvm::Instruction *I);

/// Analyses one kernel as it stands (LocalityAnalysis.h has the rules).
class KernelChecker {
public:
  KernelChecker(llvm::Function &F, llvm::ScalarEvolution &SE,
                llvm::LoopInfo &LI, const CTAUniformity &Uniformity);

  KernelLocality check();

private:
  llvm::Function &F;
  llvm::ScalarEvolution &SE;
  llvm::LoopInfo &LI;
  const CTAUniformity &Uniformity;
  const llvm::DataLayout &DL;
  // The block shapes comparisons are evaluated at (blockShapes()).
  llvm::SmallVector<BlockShape, 64> Shapes;

  llvm::DenseMap<const llvm::Value *, unsigned> Origins;
  llvm::SmallVector<Atom, 16> Atoms;
  llvm::DenseMap<const void *, unsigned> AtomIds;
  llvm::DenseMap<const llvm::Loop *, std::optional<Poly>> LoopBounds;

  // Where values come from (LocalityOrigins.cpp).
  unsigned origin(const llvm::Value *V, unsigned Depth = 0);
  unsigned computeOrigin(const llvm::Instruction *I, unsigned Depth);

  // SCEV to polynomial (LocalityPolynomial.cpp).
  unsigned atomFor(const void *Key, Atom A);
  /// The atom of blockIdx, threadIdx or blockDim (\p Kind) along \p Dim.
  unsigned registerAtom(AtomKind Kind, unsigned Dim);
  unsigned atomForValue(const llvm::Value *V);
  unsigned opaqueAtom(const llvm::SCEV *S);
  std::optional<Poly> toPoly(const llvm::SCEV *S);
  bool hasVariable(const Poly &P) const;
  std::optional<Poly> offsetFrom(const llvm::Value *Ptr,
                                 const llvm::Value *&Base);

  // Block shapes (LocalityBlockShapes.cpp).
  void blockShapes();
  const std::optional<Poly> &loopBound(const llvm::Loop *L);
  /// P's value at a block shape (P's atoms must all be blockDim).
  __int128 valueAt(const Poly &P, const BlockShape &Shape) const;
  /// Is P > 0 (Sign 1) or P < 0 (Sign -1) at every block shape?
  Truth holds(const Poly &P, int Sign = 1) const;

  // The reads (LocalityAnalysis.cpp).
  std::string baseName(const llvm::Value *Base);
  Read analyseRead(const llvm::Instruction &I, const llvm::Value *Ptr,
                   int64_t Size);

  // Per dimension (LocalitySharing.cpp).
  Monomial classKey(const Monomial &M) const;
  std::optional<IndexRange> indexRange(const Read &R, const Poly &Rest,
                                       const Monomial &Key,
                                       std::string &Problem);
  Truth overlap(const IndexRange &A, const IndexRange &B, const Poly &Delta,
                int64_t SizeA, int64_t SizeB, bool ByteClass) const;
  void checkDim(unsigned D, llvm::ArrayRef<Read> Reads, DimLocality &Out);
};

} // namespace locality
} // namespace smc

#endif
