//===- CTAUniformity.h - Which values are the same in every thread of a CTA
//===//
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

#include "llvm/ADT/DenseSet.h"

namespace llvm {
class BasicBlock;
class Function;
class LoopInfo;
class Value;
} // namespace llvm

namespace smc {

class CTAUniformity {
public:
  CTAUniformity(llvm::Function &F, const llvm::LoopInfo &LI);
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

} // namespace smc

#endif
