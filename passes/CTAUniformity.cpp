//===- CTAUniformity.cpp - Values the same in every thread of a CTA -------===//
//
// A forward divergence propagation to a fixed point:
//  - seeds: reads of per-thread registers, loads other than from the param
//    and constant spaces (or a byval kernel argument), atomics, calls other
//    than CTA-uniform intrinsics;
//  - data: a user of a divergent value is divergent;
//  - control: for a branch on a divergent condition, phis in blocks that
//    two of its successors both reach before the threads reconverge at the
//    branch's immediate post-dominator (that one included) are divergent,
//    and if the branch exits a loop, values of the loop used outside it are
//    divergent.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so \
//            -passes='print<smc-cta-uniformity>' -disable-output in.ll
//===----------------------------------------------------------------------===//
#include "CTAUniformity.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smc {

static bool isUniformIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nsmid:
  case Intrinsic::nvvm_read_ptx_sreg_warpsize:
  case Intrinsic::nvvm_read_ptx_sreg_smid:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
    return true;
  default:
    return false;
  }
}

// Is the pointer a byval kernel argument (plus constant-free GEPs)?
static bool pointsIntoByvalArgument(const Value *Ptr) {
  Ptr = Ptr->stripInBoundsOffsets();
  if (const auto *A = dyn_cast<Argument>(Ptr))
    return A->hasByValAttr();
  return false;
}

static bool isDivergenceSource(const Instruction &I) {
  if (const auto *LI = dyn_cast<LoadInst>(&I)) {
    unsigned AS = LI->getPointerAddressSpace();
    if (LI->isVolatile() || LI->isAtomic())
      return true;
    return !(AS == NVPTXAS::ADDRESS_SPACE_CONST ||
             AS == NVPTXAS::ADDRESS_SPACE_PARAM ||
             pointsIntoByvalArgument(LI->getPointerOperand()));
  }
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return true;
  if (const auto *Call = dyn_cast<CallBase>(&I))
    return !isUniformIntrinsic(Call->getIntrinsicID());
  return false;
}

CTAUniformity::CTAUniformity(Function &F, const LoopInfo &LI,
                             const PostDominatorTree &PDT) {
  SmallVector<const Value *, 64> Worklist;
  auto MarkDivergent = [&](const Value *V) {
    if (Divergent.insert(V).second)
      Worklist.push_back(V);
  };
  for (Instruction &I : instructions(F))
    if (isDivergenceSource(I))
      MarkDivergent(&I);

  SmallPtrSet<const Instruction *, 16> HandledBranches;
  while (!Worklist.empty()) {
    const Value *V = Worklist.pop_back_val();
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I)
        continue;
      MarkDivergent(I);
      if (!I->isTerminator() || I->getNumSuccessors() < 2 ||
          !HandledBranches.insert(I).second)
        continue;
      // Control divergence: joins reached from two successors before the
      // reconvergence point.
      const BasicBlock *From = I->getParent();
      const BasicBlock *Reconverge = nullptr;
      if (const DomTreeNode *Node = PDT.getNode(From))
        if (const DomTreeNode *IPDom = Node->getIDom())
          Reconverge = IPDom->getBlock();
      DenseMap<const BasicBlock *, unsigned> ReachedBy;
      for (unsigned S = 0; S < I->getNumSuccessors(); ++S) {
        SmallVector<const BasicBlock *, 16> Stack{I->getSuccessor(S)};
        SmallPtrSet<const BasicBlock *, 32> Seen;
        while (!Stack.empty()) {
          const BasicBlock *BB = Stack.pop_back_val();
          if (!Seen.insert(BB).second)
            continue;
          unsigned &Mask = ReachedBy[BB];
          Mask |= 1u << std::min(S, 31u);
          if (BB == Reconverge)
            continue;
          for (const BasicBlock *Succ : successors(BB))
            Stack.push_back(Succ);
        }
      }
      for (auto &[BB, Mask] : ReachedBy) {
        if (BB != Reconverge)
          DivergentRegion.insert(BB);
        if (Mask & (Mask - 1))
          for (const PHINode &Phi : BB->phis())
            MarkDivergent(&Phi);
      }
      // Temporal divergence: values of a loop this branch may exit.
      if (const Loop *L = LI.getLoopFor(From)) {
        bool Exits = false;
        for (const BasicBlock *Succ : successors(From))
          Exits |= !L->contains(Succ);
        if (Exits)
          for (const BasicBlock *BB : L->blocks())
            for (const Instruction &Def : *BB)
              for (const User *DefUser : Def.users())
                if (const auto *UI = dyn_cast<Instruction>(DefUser))
                  if (!L->contains(UI->getParent()))
                    MarkDivergent(&Def);
      }
    }
  }
}

CTAUniformity CTAUniformityAnalysis::run(Function &F,
                                         FunctionAnalysisManager &FAM) {
  return CTAUniformity(F, FAM.getResult<LoopAnalysis>(F),
                       FAM.getResult<PostDominatorTreeAnalysis>(F));
}

PreservedAnalyses CTAUniformityPrinterPass::run(Function &F,
                                                FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  const CTAUniformity &U = FAM.getResult<CTAUniformityAnalysis>(F);
  raw_ostream &OS = outs();
  OS << "CTA uniformity of " << F.getName() << ":\n";
  for (const BasicBlock &BB : F) {
    const Instruction *Term = BB.getTerminator();
    const Value *Cond = nullptr;
    if (const auto *Br = dyn_cast<BranchInst>(Term))
      Cond = Br->isConditional() ? Br->getCondition() : nullptr;
    else if (const auto *Sw = dyn_cast<SwitchInst>(Term))
      Cond = Sw->getCondition();
    bool InRegion = U.inDivergentRegion(&BB);
    if (!Cond && !InRegion)
      continue;
    OS << "  ";
    BB.printAsOperand(OS, /*PrintType=*/false);
    OS << ":";
    if (Cond)
      OS << (U.isUniform(Cond) ? " uniform" : " divergent") << " branch";
    if (InRegion)
      OS << (Cond ? "," : "") << " in a divergent region";
    OS << "\n";
  }
  return PreservedAnalyses::all();
}

} // namespace smc
