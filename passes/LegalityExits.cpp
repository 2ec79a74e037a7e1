//===- LegalityExits.cpp - Threads that leave before a barrier ------------===//
//
// Part of LegalityAnalysis (LegalityChecks.h).  A branch that CTA-uniformity
// cannot prove uniform, with one successor from which a barrier is
// reachable and one from which none is (the way to the exit), lets threads
// leave while others of the CTA still wait (the common `if (i >= n) return;
// ... __syncthreads()`).  Persistent workers would keep the exited threads
// alive and hang or corrupt the barrier, so the __smc variant of such a
// kernel runs one chunk per worker, exactly as the original CTA; or, with
// -smc-drained-exits and when every barrier is __syncthreads() itself, it
// drains such threads at the chunk's barriers (DrainedExits.cpp).
//===----------------------------------------------------------------------===//
#include "CTAUniformity.h"
#include "LegalityChecks.h"
#include "Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace smc::legality {

// Barrier sites: barrier intrinsics and calls of functions containing one.
void checkEarlyExit(Function &Kernel,
                    const DenseMap<const Function *, bool> &HasBarrier,
                    FunctionAnalysisManager &FAM, KernelLegality &Result) {
  SmallPtrSet<const BasicBlock *, 16> BarrierBlocks;
  const Instruction *Undrainable = nullptr;
  for (Instruction &I : instructions(Kernel))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (isBarrierCall(*Call) ||
          (Call->getCalledFunction() &&
           HasBarrier.lookup(Call->getCalledFunction()))) {
        BarrierBlocks.insert(I.getParent());
        if (!Undrainable && !isDrainableBarrier(*Call))
          Undrainable = &I;
      }
  if (BarrierBlocks.empty())
    return;
  // Blocks from whose start a barrier is reachable.
  SmallPtrSet<const BasicBlock *, 32> ReachesBarrier;
  SmallVector<const BasicBlock *, 32> Stack(BarrierBlocks.begin(),
                                            BarrierBlocks.end());
  while (!Stack.empty()) {
    const BasicBlock *BB = Stack.pop_back_val();
    if (!ReachesBarrier.insert(BB).second)
      continue;
    for (const BasicBlock *Pred : predecessors(BB))
      Stack.push_back(Pred);
  }
  const CTAUniformity &Uniformity =
      FAM.getResult<CTAUniformityAnalysis>(Kernel);
  for (BasicBlock &BB : Kernel) {
    Instruction *Term = BB.getTerminator();
    if (Term->getNumSuccessors() < 2)
      continue;
    bool ToBarrier = false, ToExit = false;
    for (BasicBlock *Succ : successors(&BB))
      (ReachesBarrier.count(Succ) ? ToBarrier : ToExit) = true;
    if (!ToBarrier || !ToExit)
      continue;
    Value *Cond = nullptr;
    if (auto *Br = dyn_cast<BranchInst>(Term))
      Cond = Br->getCondition();
    else if (auto *Sw = dyn_cast<SwitchInst>(Term))
      Cond = Sw->getCondition();
    if (Cond && Uniformity.isUniform(Cond) &&
        !Uniformity.inDivergentRegion(&BB))
      continue;
    if (!drainedExitsRequested()) {
      Result.OneChunk.need("threads may exit before a barrier other "
                           "threads of the CTA still reach",
                           Term);
      return;
    }
    if (!Undrainable) {
      Result.Drained.need("threads may end a chunk before a barrier other "
                          "threads of the CTA still reach",
                          Term);
      return;
    }
    std::string What = "a barrier the variant cannot drain at";
    if (std::string Line = sourceLocation(Undrainable); !Line.empty())
      What += " " + Line;
    Result.OneChunk.need("threads may exit before a barrier other threads "
                         "of the CTA still reach, and " +
                             What,
                         Term);
    return;
  }
}

} // namespace smc::legality
