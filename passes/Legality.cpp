//===- Legality.cpp - Can a kernel be given SMC variants, and how
//----------===//
//
// Refusals (both variants): grid-wide synchronization, dynamic parallelism,
// thread block clusters, inline assembly reading %ctaid/%nctaid/%smid,
// inter-CTA spin-waits, and call graphs the pass cannot see whole
// (functions without a body, indirect calls, recursion).
//
// One-chunk mode (__smc): a branch that CTA-uniformity cannot prove uniform
// sends some threads to the kernel's exit while others can still reach a
// barrier (the common `if (i >= n) return; ... __syncthreads()`), or the
// kernel executes PTX `exit`.  Persistent workers would keep the exited
// threads alive and hang or corrupt the barrier, so such a kernel runs one
// chunk per worker, exactly as the original CTA.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes='print<smc-legality>' \
//            -disable-output in.ll
//===----------------------------------------------------------------------===//
#include "Legality.h"
#include "CTAUniformity.h"
#include "KernelSelection.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smc {

AnalysisKey LegalityAnalysis::Key;

const DILocation *outermostLocation(const Instruction *I) {
  const DILocation *L = I ? I->getDebugLoc().get() : nullptr;
  while (L && L->getInlinedAt())
    L = L->getInlinedAt();
  return L;
}

std::string sourceLocation(const Instruction *I) {
  if (!I || !I->getDebugLoc())
    return "";
  const DILocation *L = outermostLocation(I);
  std::string S;
  raw_string_ostream OS(S);
  if (auto *Scope = dyn_cast_or_null<DIScope>(L->getScope()))
    OS << Scope->getFilename() << ":";
  OS << L->getLine();
  return S;
}

namespace {

bool isBarrier(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isIntrinsic())
    return false;
  StringRef Name = Callee->getName();
  return Name.starts_with("llvm.nvvm.barrier.cta.") ||
         Name.starts_with("llvm.nvvm.barrier0") || Name == "llvm.nvvm.barrier";
}

bool isClusterIntrinsic(StringRef Name) {
  return Name.contains("cluster") || Name.starts_with("llvm.nvvm.mapa");
}

// Device functions that may be declared without a body and read no grid
// register: libdevice, printf, malloc, assert.
bool isKnownExternal(StringRef Name) {
  return Name.starts_with("__nv_") || Name == "vprintf" || Name == "malloc" ||
         Name == "free" || Name == "__assertfail" || Name == "__nvvm_reflect";
}

bool isDeviceLaunch(StringRef Name) {
  return Name.starts_with("cudaLaunchDevice") ||
         Name.starts_with("cudaGetParameterBuffer") ||
         Name.starts_with("cudaDeviceSynchronize");
}

bool isGridSync(StringRef Name) {
  return Name.contains("sync_grids") || Name.contains("grid_sync") ||
         Name.starts_with("cudaCGSynchronizeGrid") ||
         Name.starts_with("cudaCGGetIntrinsicHandle");
}

class KernelChecker {
public:
  explicit KernelChecker(Function &K) : Kernel(K) {}

  KernelLegality check() {
    for (StringRef Attr :
         {"nvvm.cluster_dim", "nvvm.maxclusterrank", "nvvm.blocksareclusters"})
      if (Kernel.hasFnAttribute(Attr))
        refuse(SMC_REFUSAL_CLUSTER, ("kernel attribute " + Attr).str(),
               nullptr);
    visit(Kernel);
    if (Result.legal())
      checkEarlyExit();
    return Result;
  }

private:
  Function &Kernel;
  KernelLegality Result;
  SmallPtrSet<const Function *, 16> Done, OnPath;
  DenseMap<const Function *, bool> HasBarrier;

  void refuse(SmcRefusal Why, std::string Detail, const Instruction *Where) {
    if (!Result.legal())
      return; // report the first reason found
    Result.Refusal = Why;
    Result.Detail = std::move(Detail);
    Result.Where = Where;
  }

  void needOneChunk(std::string Detail, const Instruction *Where) {
    if (Result.OneChunk)
      return;
    Result.OneChunk = true;
    Result.OneChunkDetail = std::move(Detail);
    Result.OneChunkWhere = Where;
  }

  // Walks F and everything it calls; records barriers per function.
  void visit(Function &F) {
    if (Done.count(&F))
      return;
    OnPath.insert(&F);
    bool Barrier = false;
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (auto *Asm = dyn_cast<InlineAsm>(Call->getCalledOperand())) {
        Barrier |= isAsmBarrier(*Call);
        checkInlineAsm(*Asm, I);
        continue;
      }
      Function *Callee = Call->getCalledFunction();
      if (!Callee) {
        refuse(SMC_REFUSAL_INDIRECT_CALL, "indirect call", &I);
        continue;
      }
      StringRef Name = Callee->getName();
      if (Callee->isIntrinsic()) {
        Barrier |= isBarrier(*Call);
        if (Name.starts_with("llvm.nvvm.read.ptx.sreg.envreg"))
          refuse(SMC_REFUSAL_GRID_SYNC, "read of %envreg (grid workspace)", &I);
        else if (isClusterIntrinsic(Name))
          refuse(SMC_REFUSAL_CLUSTER, ("call of " + Name).str(), &I);
        else if (Callee->getIntrinsicID() == Intrinsic::nvvm_exit)
          needOneChunk("executes PTX exit", &I);
        continue;
      }
      if (isGridSync(Name)) {
        refuse(SMC_REFUSAL_GRID_SYNC, ("call of " + Name).str(), &I);
        continue;
      }
      if (isDeviceLaunch(Name)) {
        refuse(SMC_REFUSAL_DYNAMIC_PARALLELISM, ("call of " + Name).str(), &I);
        continue;
      }
      if (Callee->isDeclaration()) {
        if (!isKnownExternal(Name))
          refuse(SMC_REFUSAL_UNKNOWN_CALLEE,
                 ("call of " + Name + ", defined in another module").str(), &I);
        continue;
      }
      if (OnPath.count(Callee)) {
        refuse(SMC_REFUSAL_RECURSION, ("recursive call of " + Name).str(), &I);
        continue;
      }
      visit(*Callee);
      Barrier |= HasBarrier.lookup(Callee);
    }
    checkSpinWaits(F);
    OnPath.erase(&F);
    Done.insert(&F);
    HasBarrier[&F] = Barrier;
  }

  // A CTA barrier written in inline assembly (bar.sync, barrier.sync, ...).
  static bool isAsmBarrier(const CallBase &Call) {
    auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
    if (!Asm)
      return false;
    StringRef Text = Asm->getAsmString();
    return Text.contains("bar.sync") || Text.contains("bar.red") ||
           Text.contains("bar.arrive") || Text.contains("barrier.sync") ||
           Text.contains("barrier.red") || Text.contains("barrier.arrive") ||
           Text.contains("barrier.cta");
  }

  static bool isAsmExit(const InlineAsm &Asm) {
    for (StringRef Line : split(Asm.getAsmString(), ';'))
      if (Line.trim() == "exit")
        return true;
    return false;
  }

  void checkInlineAsm(const InlineAsm &Asm, const Instruction &I) {
    if (isAsmExit(Asm))
      needOneChunk("executes PTX exit", &I);
    StringRef Text = Asm.getAsmString();
    if (Text.contains("%cluster") || Text.contains("%nclusterid") ||
        Text.contains("%is_explicit_cluster"))
      refuse(SMC_REFUSAL_CLUSTER, "inline assembly reads a cluster register",
             &I);
    else if (Text.contains("%ctaid") || Text.contains("%nctaid") ||
             Text.contains("%smid") || Text.contains("%nsmid"))
      refuse(SMC_REFUSAL_INLINE_ASM, ("inline assembly '" + Text + "'").str(),
             &I);
    else if (Text.contains("%envreg"))
      refuse(SMC_REFUSAL_GRID_SYNC, "inline assembly reads %envreg", &I);
  }

  // A loop whose exit depends on a volatile/atomic read of memory other
  // threads' CTAs can write, and that writes nothing itself, waits for
  // another CTA: with chunk order changed it may wait forever.
  void checkSpinWaits(Function &F) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    for (Loop *Top : LI)
      for (Loop *L : depth_first(Top)) {
        if (loopWrites(*L))
          continue;
        SmallVector<BasicBlock *, 4> Exiting;
        L->getExitingBlocks(Exiting);
        for (BasicBlock *BB : Exiting)
          if (auto *Br = dyn_cast<BranchInst>(BB->getTerminator()))
            if (Br->isConditional())
              if (const Instruction *Read =
                      findSharedRead(Br->getCondition(), *L)) {
                refuse(SMC_REFUSAL_SPIN_WAIT,
                       "loop waits on a value another CTA writes", Read);
                return;
              }
      }
  }

  static bool isCrossCTARead(const Instruction &I) {
    unsigned AS;
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      if (!LI->isVolatile() && !LI->isAtomic())
        return false;
      AS = LI->getPointerAddressSpace();
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      AS = RMW->getPointerAddressSpace();
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      AS = CX->getPointerAddressSpace();
    } else {
      return false;
    }
    return AS != 3 && AS != 5; // not shared, not local
  }

  // Does the loop store, or call something that may write memory, other
  // than the atomics its exit condition reads?
  static bool loopWrites(const Loop &L) {
    for (const BasicBlock *BB : L.blocks())
      for (const Instruction &I : *BB) {
        if (auto *SI = dyn_cast<StoreInst>(&I)) {
          // Stores to a thread's own stack (allocas at -O0) are not work
          // other CTAs could be waiting for.
          if (SI->getPointerAddressSpace() == 5 ||
              isa<AllocaInst>(getUnderlyingObject(SI->getPointerOperand())))
            continue;
          return true;
        }
        if (const auto *Call = dyn_cast<CallBase>(&I))
          if (!Call->onlyReadsMemory() && !isa<IntrinsicInst>(Call) &&
              !(callsCrossCTARead(*Call) && testedInLoop(I, L)))
            return true;
        // An atomic whose result nobody in the loop tests is work (e.g.
        // atomicAdd of a sum), not waiting.
        if ((isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) &&
            !testedInLoop(I, L))
          return true;
      }
    return false;
  }

  static bool testedInLoop(const Instruction &I, const Loop &L) {
    for (const User *U : I.users())
      if (const auto *UI = dyn_cast<Instruction>(U))
        if (L.contains(UI))
          return true;
    return false;
  }

  // A call of a device function that itself makes such a read: the
  // atomicCAS and atomicAdd wrappers, which stay calls at -O0.
  static bool callsCrossCTARead(const CallBase &Call) {
    const Function *Callee = Call.getCalledFunction();
    if (!Callee || Callee->isDeclaration())
      return false;
    for (const Instruction &I : instructions(*Callee))
      if (isCrossCTARead(I))
        return true;
    return false;
  }

  static const Instruction *findSharedRead(Value *Cond, const Loop &L) {
    SmallVector<Value *, 16> Stack{Cond};
    SmallPtrSet<Value *, 32> Seen;
    while (!Stack.empty()) {
      auto *I = dyn_cast<Instruction>(Stack.pop_back_val());
      if (!I || !L.contains(I->getParent()) || !Seen.insert(I).second ||
          Seen.size() > 64)
        continue;
      if (isCrossCTARead(*I))
        return I;
      if (auto *Call = dyn_cast<CallBase>(I))
        if (callsCrossCTARead(*Call))
          return I;
      for (Value *Op : I->operands())
        Stack.push_back(Op);
    }
    return nullptr;
  }

  // Barrier sites: barrier intrinsics and calls of functions containing
  // one.  A branch that CTA-uniformity cannot prove uniform, with one
  // successor from which a barrier is reachable and one from which none is
  // (the way to the exit), lets threads leave while others still wait.
  void checkEarlyExit() {
    SmallPtrSet<const BasicBlock *, 16> BarrierBlocks;
    for (Instruction &I : instructions(Kernel))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (isBarrier(*Call) || isAsmBarrier(*Call) ||
            (Call->getCalledFunction() &&
             HasBarrier.lookup(Call->getCalledFunction())))
          BarrierBlocks.insert(I.getParent());
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
    DominatorTree DT(Kernel);
    LoopInfo LI(DT);
    CTAUniformity Uniformity(Kernel, LI);
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
      needOneChunk("threads may exit before a barrier other threads of the "
                   "CTA still reach",
                   Term);
      return;
    }
  }
};

} // namespace

LegalityAnalysis::Result LegalityAnalysis::run(Module &M,
                                               ModuleAnalysisManager &MAM) {
  Result R;
  for (Function *K : MAM.getResult<KernelSelection>(M))
    R[K] = KernelChecker(*K).check();
  return R;
}

PreservedAnalyses LegalityPrinterPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  for (auto &[K, L] : MAM.getResult<LegalityAnalysis>(M)) {
    outs() << "kernel " << K->getName() << ": ";
    if (!L.legal()) {
      outs() << "refused: " << smcRefusalText(L.Refusal) << " (" << L.Detail;
      std::string Loc = sourceLocation(L.Where);
      if (!Loc.empty())
        outs() << " at " << Loc;
      outs() << ")\n";
      continue;
    }
    outs() << "legal, " << (L.OneChunk ? "one-chunk" : "loop");
    if (L.OneChunk)
      outs() << " (" << L.OneChunkDetail << ")";
    outs() << "\n";
  }
  return PreservedAnalyses::all();
}

} // namespace smc
