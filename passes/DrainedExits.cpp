//===- DrainedExits.cpp - Persistent workers for early exits before barriers -//
//
// A kernel such as `if (i >= n) return; ... __syncthreads(); ...` lets some
// threads of a CTA leave while the others still reach barriers: the
// hardware counts a thread that has exited as arrived.  In a persistent
// worker a thread that ends its chunk has not exited, so the variant keeps
// it arriving at the barriers the others still reach, and lets it go on to
// the next chunk only when every thread of the CTA has ended this one.
//
// The body's barriers (all of them __syncthreads(): CTA barrier 0, every
// thread) are routed through one block, the funnel:
//
//   site k:        ... ; resume = k ; -> smc.funnel            (was barrier k)
//   drain j:       resume = B + j ; -> smc.funnel   (a way out of the region)
//   smc.funnel:    inBody = popc(barrier.red.popc 0, resume < B)
//                  switch resume: k -> continuation of barrier k
//                                 B + j -> smc.drained.j
//   smc.drained.j: inBody == 0 ? the way out j : smc.funnel
//
// The region is the body's blocks from which a barrier is reachable; a
// thread leaves it (an edge to a block outside, a return, which is given a
// block of its own, or a barrier after which no barrier is reachable) when
// it can reach no barrier any more: that is where it drains.  A thread of the
// body arrives at the funnel's barrier with 1, a draining thread with 0, so
// every instance of the barrier completes when every thread has arrived, as
// in the original where leavers count as arrived, and the drained threads
// leave together at the first instance that no thread of the body reaches
// (an instance gives all threads the same count): when every thread has
// ended the chunk.  That is what the hand-off to the next chunk needs too.
//
// Why one barrier instruction: ptxas lowers a barrier that a diverged warp
// reaches as a warp-collective that waits for all lanes of the warp at that
// instruction (WARPSYNC.COLLECTIVE.ALL), so lanes of one warp waiting at two
// different barrier instructions for the same instance never meet (hotspot
// hung so, and compute-sanitizer's synccheck reported it).  Through the
// funnel, every lane of a warp that waits waits at the same instruction.
//
// The new edges break SSA dominance, so the body's values that live across
// blocks are demoted to stack slots first and promoted again afterwards
// (LLVM's DemoteRegToStack and PromoteMemToReg).
//
// Promotion leaves a phi in the funnel for every value live across any
// barrier, and a value in a phi is one that ptxas can no longer recompute:
// it holds a register from its definition to its last use, across every
// barrier instance.  In the original, ptxas recomputes such values (shared
// memory addresses, indices from threadIdx and blockIdx) where registers
// are short.  So a funnel phi that only carries one definition (besides
// undef, from the sites before it, and itself) whose value is a cheap pure
// function of values the chunk computes once before its first barrier
// (kernel arguments, threadIdx, blockIdx, the grid) is replaced by that
// function computed again after the funnel's barrier (recomputeAtFunnel).
// Such a value is the same wherever it is computed in the chunk, and where
// the phi carried undef (a thread that drained before the definition) any
// value will do.
//===----------------------------------------------------------------------===//
#include "DrainedExits.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace smc {

/// Is \p I used in another block or by a phi (Reg2Mem's rule)?
static bool usedElsewhere(const Instruction &I) {
  for (const User *U : I.users()) {
    auto *UI = cast<Instruction>(U);
    if (UI->getParent() != I.getParent() || isa<PHINode>(UI))
      return true;
  }
  return false;
}

/// Demotes the phis of the body (every block but \p Entry), then its values
/// that live across blocks (among them the loads that replaced the phis),
/// to stack slots in \p Entry.
static SmallVector<AllocaInst *, 16> demoteBody(Function &V,
                                                BasicBlock &Entry) {
  SmallVector<AllocaInst *, 16> Slots;
  SmallVector<PHINode *, 16> Phis;
  for (BasicBlock &BB : V)
    if (&BB != &Entry)
      for (PHINode &Phi : BB.phis())
        Phis.push_back(&Phi);
  for (PHINode *Phi : Phis)
    Slots.push_back(DemotePHIToStack(Phi));
  SmallVector<Instruction *, 32> Values;
  for (BasicBlock &BB : V)
    if (&BB != &Entry)
      for (Instruction &I : BB)
        if (!I.getType()->isVoidTy() && !I.getType()->isTokenTy() &&
            usedElsewhere(I))
          Values.push_back(&I);
  for (Instruction *I : Values)
    Slots.push_back(DemoteRegToStack(*I));
  return Slots;
}

namespace {

/// What the funnel's copies may be computed from: the values of the chunk
/// computed once, before its first barrier (blocks that dominate the funnel
/// and that no path from the funnel reaches again), so that a copy has the
/// value the original had wherever it is computed.
struct ChunkInvariants {
  BasicBlock &Funnel;
  const DominatorTree &DT;
  SmallPtrSet<const BasicBlock *, 32> AfterFunnel; // reachable from it

  ChunkInvariants(BasicBlock &Funnel, const DominatorTree &DT)
      : Funnel(Funnel), DT(DT) {
    SmallVector<const BasicBlock *, 32> Work = {&Funnel};
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (AfterFunnel.insert(BB).second)
        append_range(Work, successors(BB));
    }
  }
  bool contains(const Instruction &I) const {
    return !AfterFunnel.contains(I.getParent()) &&
           DT.dominates(I.getParent(), &Funnel);
  }
};

/// The phis that \p Phi merges, through other phis (loop headers whose
/// latch now comes from the funnel), into \p Web, and the one value they
/// all carry besides undef; null if there is not exactly one.
static Value *carriedValue(PHINode *Phi, SmallVectorImpl<PHINode *> &Web) {
  Value *Def = nullptr;
  SmallPtrSet<PHINode *, 8> Seen;
  SmallVector<PHINode *, 8> Work = {Phi};
  while (!Work.empty()) {
    PHINode *P = Work.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    Web.push_back(P);
    for (Value *In : P->incoming_values()) {
      if (isa<UndefValue>(In))
        continue;
      if (auto *InPhi = dyn_cast<PHINode>(In)) {
        Work.push_back(InPhi);
        continue;
      }
      if (Def && Def != In)
        return nullptr;
      Def = In;
    }
  }
  return Def;
}

/// How to compute a value again from chunk invariants: the instructions to
/// copy, operands first (a phi among them stands for the value it carries),
/// and the invariants they use.
struct Recipe {
  SmallVector<Instruction *, 16> Order;
  SmallVector<Instruction *, 16> Leaves;
  DenseMap<PHINode *, Value *> Carried;
  SmallPtrSet<Instruction *, 16> Seen;
  unsigned Budget = 16; // instructions at most
};

} // namespace

/// Can \p V be computed again, from chunk invariants, by cheap pure
/// instructions within \p R's budget?  Adds what it takes to \p R.
static bool recomputable(Value *V, const ChunkInvariants &Invariants,
                         Recipe &R) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return isa<Constant>(V) || isa<Argument>(V);
  if (R.Seen.contains(I))
    return true;
  if (Invariants.contains(*I)) {
    R.Seen.insert(I);
    R.Leaves.push_back(I);
    return true;
  }
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    // A phi that carries one such value (besides undef) is that value.
    SmallVector<PHINode *, 8> Web;
    Value *Def = carriedValue(Phi, Web);
    if (!Def || !recomputable(Def, Invariants, R))
      return false;
    R.Carried[Phi] = Def;
  } else {
    if (I->mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(I) ||
        R.Budget == 0)
      return false;
    if (auto *Call = dyn_cast<CallInst>(I);
        Call && !(Call->getCalledFunction() &&
                  Call->getCalledFunction()->isIntrinsic()))
      return false;
    if (I->getOpcode() == Instruction::UDiv ||
        I->getOpcode() == Instruction::SDiv ||
        I->getOpcode() == Instruction::URem ||
        I->getOpcode() == Instruction::SRem)
      return false; // not cheap
    --R.Budget;
    for (Value *Op : I->operands())
      if (!recomputable(Op, Invariants, R))
        return false;
  }
  R.Seen.insert(I);
  R.Order.push_back(I);
  return true;
}

/// Computes \p Def again before \p Where by \p R; returns the copy of
/// \p Def, or \p Def where it needs no instruction.
static Value *computeAgain(Value *Def, const Recipe &R, Instruction *Where) {
  ValueToValueMapTy Copies;
  auto CopyOf = [&](Value *V) -> Value * {
    Value *Copy = Copies.lookup(V);
    return Copy ? Copy : V;
  };
  for (Instruction *I : R.Order) {
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      Copies[Phi] = CopyOf(R.Carried.lookup(Phi));
      continue;
    }
    Instruction *Copy = I->clone();
    // On paths where the phi carried undef, the copy must not be poison.
    Copy->dropPoisonGeneratingAnnotations();
    if (I->hasName())
      Copy->setName(I->getName() + ".again");
    Copy->insertBefore(Where->getIterator());
    RemapInstruction(Copy, Copies,
                     RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    Copies[I] = Copy;
  }
  return CopyOf(Def);
}

/// Replaces the phis that carry one value through \p Funnel (carriedValue)
/// by that value computed again after each phi, where recomputable() allows
/// and what it is computed from is available there.
static void recomputeAtFunnel(BasicBlock &Funnel, const DominatorTree &DT) {
  Instruction *At = Funnel.getTerminator();
  ChunkInvariants Invariants(Funnel, DT);
  SmallVector<WeakVH, 16> Phis;
  for (PHINode &Phi : Funnel.phis())
    Phis.push_back(&Phi);
  for (WeakVH &Handle : Phis) {
    auto *Phi = dyn_cast_or_null<PHINode>(Handle);
    SmallVector<PHINode *, 8> Web;
    Value *Def = Phi ? carriedValue(Phi, Web) : nullptr;
    Recipe R;
    if (!Def || !recomputable(Def, Invariants, R))
      continue;
    auto WhereFor = [&](PHINode *P) -> Instruction * {
      return P->getParent() == &Funnel ? At
                                       : &*P->getParent()->getFirstNonPHIIt();
    };
    if (!all_of(Web, [&](PHINode *P) {
          return all_of(R.Leaves, [&](Instruction *Leaf) {
            return DT.dominates(Leaf, WhereFor(P));
          });
        }))
      continue;
    for (PHINode *P : Web)
      P->replaceAllUsesWith(computeAgain(Def, R, WhereFor(P)));
    for (PHINode *P : Web)
      P->eraseFromParent();
  }
}

void funnelBarriers(Function &V, BasicBlock &Entry, BasicBlock &Body,
                    ArrayRef<CallInst *> Barriers,
                    ArrayRef<ReturnInst *> Returns) {
  LLVMContext &Ctx = V.getContext();
  // Every return in a block of its own (outside the region), every barrier
  // at the end of its block (its continuation in the next).
  for (ReturnInst *Ret : Returns)
    if (Ret != &*Ret->getParent()->getFirstNonPHIOrDbgOrLifetime())
      SplitBlock(Ret->getParent(), Ret->getIterator());
  for (CallInst *Barrier : Barriers)
    SplitBlock(Barrier->getParent(), std::next(Barrier->getIterator()));

  SmallVector<AllocaInst *, 16> Slots = demoteBody(V, Entry);

  // The region: the blocks from which a barrier is reachable.
  SmallPtrSet<BasicBlock *, 32> Sites, Region;
  SmallVector<BasicBlock *, 32> Work;
  for (CallInst *Barrier : Barriers) {
    Sites.insert(Barrier->getParent());
    Work.push_back(Barrier->getParent());
  }
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == &Entry || !Region.insert(BB).second)
      continue;
    append_range(Work, predecessors(BB));
  }
  // The ways out: edges from a block of the region to a block outside, in
  // block order so that the output is deterministic; a barrier's edge to
  // its continuation goes through the funnel, and is a way out when no
  // barrier is reachable from the continuation (after the last barrier).
  SmallVector<std::pair<Instruction *, unsigned>, 16> Exits;
  for (BasicBlock &BB : V) {
    if (!Region.contains(&BB))
      continue;
    Instruction *Term = BB.getTerminator();
    for (unsigned I = 0, E = Term->getNumSuccessors(); I != E; ++I)
      if (!Region.contains(Term->getSuccessor(I)))
        Exits.push_back({Term, I});
  }

  IRBuilder<> B(Ctx);
  B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *Resume = B.CreateAlloca(B.getInt32Ty(), nullptr, "smc.resume");
  Slots.push_back(Resume);
  auto *Funnel = BasicBlock::Create(Ctx, "smc.funnel", &V);
  auto *Unreachable = BasicBlock::Create(Ctx, "smc.funnel.none", &V);
  new UnreachableInst(Ctx, Unreachable);

  unsigned NumSites = Barriers.size();
  B.SetInsertPoint(Funnel);
  B.SetCurrentDebugLocation(Barriers.front()->getDebugLoc());
  Value *Site = B.CreateLoad(B.getInt32Ty(), Resume, "smc.resume.at");
  Value *InBody = B.CreateICmpULT(Site, B.getInt32(NumSites), "smc.in.body");
  Function *BarrierRed = Intrinsic::getOrInsertDeclaration(
      V.getParent(), Intrinsic::nvvm_barrier_cta_red_popc_all);
  Value *Remaining =
      B.CreateCall(BarrierRed, {B.getInt32(0), InBody}, "smc.in.body.count");
  Value *AllEnded = B.CreateICmpEQ(Remaining, B.getInt32(0), "smc.all.ended");
  SwitchInst *Dispatch =
      B.CreateSwitch(Site, Unreachable, NumSites + Exits.size());

  // Each way out j: a drain block that enters the funnel as B + j, and the
  // block the funnel sends it to, which lets it out once all have ended.
  DenseMap<BasicBlock *, BasicBlock *> DrainAfterBarrier;
  for (auto [J, Exit] : enumerate(Exits)) {
    auto [Term, Index] = Exit;
    BasicBlock *Out = Term->getSuccessor(Index);
    auto *Drain = BasicBlock::Create(Ctx, "smc.drain", &V, Out);
    auto *Drained = BasicBlock::Create(Ctx, "smc.drained", &V, Out);
    B.SetInsertPoint(Drain);
    B.SetCurrentDebugLocation(Term->getDebugLoc());
    B.CreateStore(B.getInt32(NumSites + J), Resume);
    B.CreateBr(Funnel);
    B.SetInsertPoint(Drained);
    B.CreateCondBr(AllEnded, Out, Funnel);
    Dispatch->addCase(B.getInt32(NumSites + J), Drained);
    if (Sites.contains(Term->getParent()))
      DrainAfterBarrier[Term->getParent()] = Drain;
    else
      Term->setSuccessor(Index, Drain);
  }
  // Each barrier k: its block enters the funnel as k, and the funnel sends
  // the thread on to the continuation, or to drain where that is a way out.
  for (auto [K, Barrier] : enumerate(Barriers)) {
    BasicBlock *At = Barrier->getParent();
    Instruction *Term = At->getTerminator();
    BasicBlock *Then = DrainAfterBarrier.lookup(At);
    Dispatch->addCase(B.getInt32(K), Then ? Then : Term->getSuccessor(0));
    B.SetInsertPoint(Term);
    B.SetCurrentDebugLocation(Barrier->getDebugLoc());
    B.CreateStore(B.getInt32(K), Resume);
    B.CreateBr(Funnel);
    Term->eraseFromParent();
    Barrier->eraseFromParent();
  }

  // The entry block gets its terminator from the caller; until then a
  // branch to the body makes the function whole for the dominator tree.
  BranchInst *ToBody = BranchInst::Create(&Body, &Entry);
  DominatorTree DT(V);
  PromoteMemToReg(Slots, DT);
  recomputeAtFunnel(*Funnel, DT);
  ToBody->eraseFromParent();
}

} // namespace smc
