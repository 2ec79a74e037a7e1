//===- CTAUniformity.h - Values alike in all threads of a CTA ---*- C++ -*-===//
//
// LLVM's UniformityAnalysis answers for a warp and treats %ctaid as
// divergent; SMC needs the CTA-level answer: is a branch taken the same way
// by every thread of a CTA?  Uniform are constants, kernel arguments, grid
// and block registers (%ctaid, %nctaid, %ntid, ...) and loads from the
// parameter and constant spaces; divergence starts at thread registers,
// other loads, atomics and calls, and flows through data and through the
// joins and loop exits of divergent branches.  Conservative: "divergent"
// means "may differ".
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_CTAUNIFORMITY_H
#define SMC_PASSES_CTAUNIFORMITY_H

#include "PassMixins.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class BasicBlock;
class Function;
class LoopInfo;
class PostDominatorTree;
class Value;
} // namespace llvm

namespace smc {

/// The CTA-uniformity of one function's values and blocks.
class CTAUniformity {
public:
  CTAUniformity(llvm::Function &F, const llvm::LoopInfo &LI,
                const llvm::PostDominatorTree &PDT);
  bool isUniform(const llvm::Value *V) const { return !Divergent.count(V); }
  /// Is the block executed by only some threads of a CTA: does it lie
  /// between a divergent branch and the point where its threads reconverge?
  bool inDivergentRegion(const llvm::BasicBlock *BB) const {
    return DivergentRegion.count(BB);
  }

private:
  llvm::DenseSet<const llvm::Value *> Divergent;
  llvm::DenseSet<const llvm::BasicBlock *> DivergentRegion;
};

/// The function analysis that computes CTAUniformity from LoopInfo and the
/// post-dominator tree.
struct CTAUniformityAnalysis
    : KeyedAnalysis<CTAUniformityAnalysis, CTAUniformity> {
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// print<smc-cta-uniformity>: for every block with a conditional
/// terminator, whether it branches uniformly, and which blocks lie in a
/// divergent region.
struct CTAUniformityPrinterPass : RequiredPass<CTAUniformityPrinterPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace smc

#endif
