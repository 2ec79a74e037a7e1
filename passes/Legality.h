//===- Legality.h - Can a kernel be given SMC variants, and how -----------===//
//
// For every kernel KernelSelection picks, decides whether SMC may build
// variants of it (the refusal reasons of abi.h, each with the instruction
// that caused it); whether a thread may leave the kernel while others of
// its CTA still reach a barrier, so that its __smc variant must run one
// chunk per worker or (-smc-drained-exits) drain such threads at the
// barriers; and whether its CTAs wait on each other, so that its __smc
// variant must hand out chunks in blockIdx order; for a legal
// kernel, also the hardware limits (parameter space, static shared memory)
// each kind of variant would exceed.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_LEGALITY_H
#define SMC_PASSES_LEGALITY_H

#include "ABI.h"
#include "PassMixins.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/PassManager.h"
#include <iterator>
#include <string>

namespace llvm {
class CallBase;
class DILocation;
} // namespace llvm

namespace smc {

/// A mode the __smc variant must run in: whether, why, and the instruction
/// that requires it (for the remark's "at file:line").
struct ModeReason {
  bool Needed = false;
  std::string Detail;
  const llvm::Instruction *Where = nullptr;

  explicit operator bool() const { return Needed; }
  /// Records the first reason found.
  void need(std::string Why, const llvm::Instruction *At) {
    if (Needed)
      return;
    Needed = true;
    Detail = std::move(Why);
    Where = At;
  }
  /// "<detail> at file:line", or the detail alone without debug info.
  std::string describe() const;
};

struct KernelLegality {
  // Why no variant may be built, if so.
  SmcRefusal Refusal = SMC_REFUSAL_NONE;
  std::string Detail; // what exactly, e.g. "call of cudaLaunchDevice"
  const llvm::Instruction *Where = nullptr;

  // For a legal kernel, the hardware limit its variant of each kind would
  // exceed (SMC_REFUSAL_RESOURCES), by VariantKind; empty if none.
  std::string Limit[std::size(AllVariantKinds)];

  ModeReason OneChunk; // __smc must use SMC_MODE_ONE_CHUNK
  // __smc (loop mode) must drain threads that end a chunk early at the
  // chunk's barriers (-smc-drained-exits; DrainedExits.cpp)
  ModeReason Drained;
  ModeReason Ordered; // __smc must claim chunks in blockIdx order

  bool legal() const { return Refusal == SMC_REFUSAL_NONE; }
  /// Why the variant of kind \p Kind may not be built, or
  /// SMC_REFUSAL_NONE.
  SmcRefusal refusal(VariantKind Kind) const;
  /// What exactly refuses it: "<detail> at file:line", or the limit.
  std::string refusalDetail(VariantKind Kind) const;
};

/// Legality of each selected kernel, in module order.
struct LegalityAnalysis
    : KeyedAnalysis<LegalityAnalysis,
                    llvm::MapVector<llvm::Function *, KernelLegality>> {
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

/// print<smc-legality>: one line per selected kernel.
struct LegalityPrinterPass : RequiredPass<LegalityPrinterPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// Is \p Call __syncthreads() itself (CTA barrier 0, all threads), the one
/// barrier a variant with drained exits can route through its funnel
/// (DrainedExits.cpp)?
bool isDrainableBarrier(const llvm::CallBase &Call);

/// The location of an instruction in the user's own code: for code inlined
/// from a header or callee, the outermost call site.  Null without debug
/// info.
const llvm::DILocation *outermostLocation(const llvm::Instruction *I);

/// "file:line" of outermostLocation(I), or "" without debug info.
std::string sourceLocation(const llvm::Instruction *I);

} // namespace smc

#endif
