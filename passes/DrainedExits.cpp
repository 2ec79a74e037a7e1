//===- DrainedExits.cpp - Persistent workers for early exits before barriers -//
//
// A kernel such as `if (i >= n) return; ... __syncthreads(); ...` lets some
// threads of a CTA leave while the others still reach barriers: the
// hardware counts a thread that has exited as arrived.  In a persistent
// worker a thread that ends its chunk has not exited, so the variant keeps
// it arriving at the barriers the others still reach, and lets it go on to
// the next chunk only when every thread of the CTA has ended this one.
//
// Every barrier instance of the body is one call of the funnel, a function
// of its own that holds the body's only barrier instruction:
//
//   __smc_funnel_barrier(inBody) = barrier.red.popc 0, inBody
//
//   barrier k, a barrier is reachable after it:   __smc_funnel_barrier(1)
//   barrier k, the block after it leaves the region on a condition c known
//   before it (`if (i == last) break;`):  n = __smc_funnel_barrier(!c),
//   and the way out starts its drain from n
//   drain (a way out of the region, and a barrier after which no barrier
//   is reachable):   do n = __smc_funnel_barrier(0) while (n != 0)
//
// The region is the body's blocks from which a barrier is reachable; a
// thread leaves it (an edge to a block outside, or a barrier after which no
// barrier is reachable) when it can reach no barrier any more: that is
// where it drains.  A thread of the body arrives at an instance with 1, a
// draining thread with 0, so every instance completes when every thread has
// arrived, as in the original where leavers count as arrived, and the
// drained threads leave together at the first instance that no thread of
// the body reaches (an instance gives all threads the same count): when
// every thread is past its last barrier.  A barrier after which no barrier
// is reachable is itself the first instance of its drain, and so is a
// barrier after which the thread leaves on a condition known before it
// (the condition, or a pure copy of it from values available there): a
// thread that will leave arrives with 0, and the way out drains only while
// that instance's count was not 0.  So a chunk that ends as the original's
// CTAs do costs no barrier instance the original does not have.  The
// worker's hand-off after the chunk waits for the rest.
//
// Why a function: ptxas lowers a barrier that a diverged warp reaches as a
// warp-collective that waits for all lanes of the warp at that instruction
// (WARPSYNC.COLLECTIVE.ALL), so lanes of one warp waiting at two different
// barrier instructions for the same instance never meet (hotspot hung so,
// and compute-sanitizer's synccheck reported it).  Called from every site,
// the funnel's one instruction is where every lane waits, and the body's
// control flow stays as it was: its loops stay natural loops, which the
// backend's loop strength reduction needs, and its values stay in SSA form.
// (The first form of the funnel was one block that every barrier branched
// to and that dispatched each thread back to its continuation; it made the
// funnel the header of every loop with a barrier, and the drained variants
// executed 2.5 to 3.4 times the original's instructions.)  The function is
// noinline for LLVM; ptxas keeps it a subroutine of each kernel that calls
// it (lit drained-exits.cu checks the assembled kernel's symbols).  The
// lanes of a warp reach its barrier from different call sites: PTX allows
// that for a barrier without .aligned on sm_70 and later, but
// compute-sanitizer's synccheck reports it (docs/compiler.md, "Drained
// exits"; bench/probes/divergent_barrier.cu shows the same without SMC).
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

using namespace llvm;

namespace smc {

static constexpr const char *FunnelName = "__smc_funnel_barrier";

/// The funnel of \p M, created on first use: i32 (i1 inBody), the count of
/// threads of the CTA that arrived with inBody set.  linkonce_odr, so that
/// device code linked from several translation units keeps one.
static Function &funnelFunction(Module &M) {
  if (Function *F = M.getFunction(FunnelName))
    return *F;
  LLVMContext &Ctx = M.getContext();
  IRBuilder<> B(Ctx);
  auto *Ty = FunctionType::get(B.getInt32Ty(), {B.getInt1Ty()}, false);
  Function *F =
      Function::Create(Ty, GlobalValue::LinkOnceODRLinkage, FunnelName, M);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::Convergent);
  F->addFnAttr(Attribute::NoUnwind);
  F->getArg(0)->setName("in.body");
  B.SetInsertPoint(BasicBlock::Create(Ctx, "", F));
  Function *BarrierRed = Intrinsic::getOrInsertDeclaration(
      &M, Intrinsic::nvvm_barrier_cta_red_popc_all);
  B.CreateRet(
      B.CreateCall(BarrierRed, {B.getInt32(0), F->getArg(0)}, "in.body.count"));
  return *F;
}

static CallInst *callFunnel(IRBuilder<> &B, Function &Funnel, Value *InBody,
                            const Twine &Name = "") {
  CallInst *Call = B.CreateCall(&Funnel, {InBody}, Name);
  Call->addFnAttr(Attribute::Convergent);
  return Call;
}

/// \p V as it is before \p Barrier: V where it is available there, else a
/// copy of V where V is a pure instruction of the block after the barrier
/// whose operands are available there; null otherwise.
static Value *valueBefore(Value *V, CallInst &Barrier,
                          const DominatorTree &DT) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, &Barrier))
    return V;
  if (I->getParent() != Barrier.getParent()->getSingleSuccessor() ||
      isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      !isSafeToSpeculativelyExecute(I))
    return nullptr;
  for (Value *Op : I->operands())
    if (auto *OpI = dyn_cast<Instruction>(Op);
        OpI && !DT.dominates(OpI, &Barrier))
      return nullptr;
  Instruction *Copy = I->clone();
  if (I->hasName())
    Copy->setName(I->getName() + ".before");
  Copy->insertBefore(Barrier.getIterator());
  return Copy;
}

void funnelBarriers(Function &V, BasicBlock &Entry, BasicBlock &Body,
                    ArrayRef<CallInst *> Barriers,
                    ArrayRef<ReturnInst *> Returns) {
  LLVMContext &Ctx = V.getContext();
  Function &Funnel = funnelFunction(*V.getParent());
  // Every return in a block of its own (outside the region), every barrier
  // at the end of its block (its continuation in the next).
  for (ReturnInst *Ret : Returns)
    if (Ret != &*Ret->getParent()->getFirstNonPHIOrDbgOrLifetime())
      SplitBlock(Ret->getParent(), Ret->getIterator());
  for (CallInst *Barrier : Barriers)
    SplitBlock(Barrier->getParent(), std::next(Barrier->getIterator()));

  // The region: the blocks from which a barrier is reachable.
  SmallPtrSet<BasicBlock *, 32> Region;
  SmallVector<BasicBlock *, 32> Work;
  for (CallInst *Barrier : Barriers)
    Work.push_back(Barrier->getParent());
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == &Entry || !Region.insert(BB).second)
      continue;
    append_range(Work, predecessors(BB));
  }
  // The ways out: edges from a block of the region to a block outside, one
  // drain per pair of blocks, in block order so that the output is
  // deterministic.
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 16> Exits;
  for (BasicBlock &BB : V) {
    if (!Region.contains(&BB))
      continue;
    for (BasicBlock *Succ : successors(&BB))
      if (!Region.contains(Succ) &&
          !is_contained(Exits, std::make_pair(&BB, Succ)))
        Exits.push_back({&BB, Succ});
  }

  // Each barrier k: one instance with 1 where a barrier is reachable after
  // it; after the last, the drain of its way out is its instance.  Where
  // the block after it leaves the region on a condition known before it
  // (a loop's `if (i == last) break;`), a thread that will leave arrives
  // with 0: the instance is the first of its drain, whose count the drain
  // then starts from.  The entry block gets its terminator from the caller;
  // until then a branch to the body makes the function whole for the
  // dominator tree.
  BranchInst *ToBody = BranchInst::Create(&Body, &Entry);
  DominatorTree DT(V);
  DenseMap<std::pair<BasicBlock *, BasicBlock *>, Value *> DrainStarts;
  for (CallInst *Barrier : Barriers) {
    BasicBlock *Then = Barrier->getParent()->getSingleSuccessor();
    if (Region.contains(Then)) {
      IRBuilder<> B(Barrier);
      Value *InBody = B.getTrue();
      BasicBlock *Out = nullptr;
      auto *Br = dyn_cast<BranchInst>(Then->getTerminator());
      if (Br && Br->isConditional() &&
          Region.contains(Br->getSuccessor(0)) !=
              Region.contains(Br->getSuccessor(1))) {
        if (Value *Cond = valueBefore(Br->getCondition(), *Barrier, DT)) {
          bool LeavesOnTrue = !Region.contains(Br->getSuccessor(0));
          Out = Br->getSuccessor(LeavesOnTrue ? 0 : 1);
          InBody = LeavesOnTrue ? B.CreateNot(Cond, "smc.stays") : Cond;
        }
      }
      CallInst *Count = callFunnel(B, Funnel, InBody);
      if (Out)
        DrainStarts[{Then, Out}] = Count;
    }
    Barrier->eraseFromParent();
  }
  ToBody->eraseFromParent();

  // Each way out: a drain block on the edge, which arrives with 0 until an
  // instance finds no thread in the body; where the barrier before it was
  // the drain's first instance, a check of that count first.
  IRBuilder<> B(Ctx);
  for (auto &Exit : Exits) {
    BasicBlock *From = Exit.first, *Out = Exit.second;
    auto *Drain = BasicBlock::Create(Ctx, "smc.drain", &V, Out);
    B.SetInsertPoint(Drain);
    B.SetCurrentDebugLocation(From->getTerminator()->getDebugLoc());
    CallInst *Count = callFunnel(B, Funnel, B.getFalse(), "smc.in.body.count");
    B.CreateCondBr(B.CreateICmpEQ(Count, B.getInt32(0), "smc.all.ended"), Out,
                   Drain);
    SmallVector<BasicBlock *, 2> Preds = {Drain};
    BasicBlock *Start = Drain;
    if (Value *Known = DrainStarts.lookup({From, Out})) {
      Start = BasicBlock::Create(Ctx, "smc.drain.check", &V, Drain);
      B.SetInsertPoint(Start);
      B.CreateCondBr(B.CreateICmpEQ(Known, B.getInt32(0), "smc.all.ended"), Out,
                     Drain);
      Preds.push_back(Start);
    }
    From->getTerminator()->replaceSuccessorWith(Out, Start);
    for (PHINode &Phi : Out->phis()) {
      Value *In = Phi.getIncomingValueForBlock(From);
      Phi.removeIncomingValueIf(
          [&](unsigned I) { return Phi.getIncomingBlock(I) == From; },
          /*DeletePHIIfEmpty=*/false);
      for (BasicBlock *Pred : Preds)
        Phi.addIncoming(In, Pred);
    }
  }
}

} // namespace smc
