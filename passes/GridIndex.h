//===- GridIndex.h - Shared grid-index utilities of the variant builders --===//
//
// What both variant builders (smc, slice) need: recognising reads of
// %ctaid / %nctaid, inlining the device functions that read them, cloning a
// kernel with the extra descriptor parameter, and replacing the reads with
// the chunk's coordinates and the original grid.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_GRIDINDEX_H
#define SMC_PASSES_GRIDINDEX_H

#include "ABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <array>
#include <optional>
#include <string>

namespace llvm {
class BasicBlock;
class CallBase;
class CallInst;
class Function;
class Module;
class IRBuilderBase;
class Argument;
class StringRef;
class Value;
} // namespace llvm

namespace smc {

/// A grid special register: blockIdx (%ctaid) or gridDim (%nctaid), x/y/z.
struct GridReg {
  bool IsGridDim; // %nctaid rather than %ctaid
  unsigned Dim;   // 0, 1, 2 for x, y, z
};

/// The grid register \p Call reads, if it is such a read.
std::optional<GridReg> gridRegOf(const llvm::CallBase &Call);

/// The functions of a module that read %ctaid or %nctaid, themselves or
/// through direct calls (callers of readers are readers), exact also for
/// recursive call graphs.  Their reads must be inlined into a variant;
/// calls of other functions stay calls.  (Indirect calls are judged by their
/// targets, in Legality.)
class GridReaders {
public:
  explicit GridReaders(const llvm::Module &M);
  bool contains(const llvm::Function *F) const { return Readers.count(F); }

private:
  llvm::SmallPtrSet<const llvm::Function *, 32> Readers;
};

/// Inlines into \p F every call of a function that (transitively) reads the
/// grid registers, so that all such reads are in \p F itself.  A
/// RefusalError (SMC_REFUSAL_NOT_INLINABLE, naming the callee) if some call
/// cannot be inlined.
llvm::Error inlineGridReaders(llvm::Function &F);

/// Clones kernel \p K as K<Suffix> with one extra trailing parameter, a
/// byval pointer to the descriptor.  K is left as it is.
llvm::Function *cloneWithDescriptor(llvm::Function &K, llvm::StringRef Suffix);

/// The reads of grid registers in \p F, by register.
struct GridReads {
  llvm::SmallVector<llvm::CallInst *, 8> BlockIdx[3];
  llvm::SmallVector<llvm::CallInst *, 8> GridDim[3];
  unsigned count() const;
};
GridReads collectGridReads(llvm::Function &F);

/// Replaces the collected reads: blockIdx.d by \p Chunk[d], gridDim.d by
/// \p Grid[d].  The replaced calls are erased.
void replaceGridReads(GridReads &Reads,
                      const std::array<llvm::Value *, 3> &Chunk,
                      const std::array<llvm::Value *, 3> &Grid);

/// blockIdx of a linear chunk id in a grid of GridX x GridY x ... (x
/// fastest, as the hardware numbers CTAs), dividing by the grid with the
/// multiply-high constants of descriptor \p Desc (no run-time division).
/// Ends the builder's block with a branch and leaves the builder in a new
/// block where the result is known, named \p Name.x, .y and .z.  A chunk of
/// the first row (Chunk < GridX) has blockIdx (Chunk, \p FirstRowY, \p
/// FirstRowZ): 0 unless given (values available in the builder's block).
std::array<llvm::Value *, 3>
chunkCoordinates(llvm::IRBuilderBase &B, llvm::Value *Desc, llvm::Value *Chunk,
                 llvm::Value *GridX, llvm::Value *GridY,
                 llvm::StringRef Name = "smc.blockIdx",
                 llvm::Value *FirstRowY = nullptr,
                 llvm::Value *FirstRowZ = nullptr);

/// The common start of every variant: K cloned with the descriptor
/// parameter, grid readers inlined, the reads collected, and a new entry
/// block (no terminator yet) holding K's static allocas and the original
/// grid loaded from the descriptor.
struct VariantStart {
  llvm::Function *V = nullptr;
  llvm::Argument *Desc = nullptr;
  llvm::BasicBlock *Body = nullptr;  // K's entry block, now the body's start
  llvm::BasicBlock *Entry = nullptr; // the new entry block
  GridReads Reads;
  unsigned NumReads = 0;
  std::array<llvm::Value *, 3> Grid = {};
};

/// Starts the variant of kind \p Kind of \p K.  On failure a RefusalError,
/// with nothing left behind.
llvm::Expected<VariantStart> startVariant(llvm::Function &K, VariantKind Kind);

/// Moves \p From's allocas of constant size to the end of \p To (a new
/// entry block in front of \p From).
void moveStaticAllocas(llvm::BasicBlock &From, llvm::BasicBlock &To);

/// An IRBuilder position at the end of \p BB, with the variant's debug
/// location (the kernel's line) if it has debug info.
void positionAtEnd(llvm::IRBuilderBase &B, llvm::BasicBlock *BB);

} // namespace smc

#endif
