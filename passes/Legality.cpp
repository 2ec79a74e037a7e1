//===- Legality.cpp - Can a kernel be given SMC variants, and how ---------===//
//
// LegalityAnalysis walks each selected kernel and everything it calls.  The
// walk itself refuses call graphs the pass cannot see whole: calls of
// functions defined in another module, indirect calls whose targets are not
// all known here or read blockIdx/gridDim (LegalityIndirectCalls.cpp), and
// recursion through functions that read them (their reads could not be
// inlined into a variant).  The other hazard families are checked where
// they are described (LegalityChecks.h):
//  - refusals of intrinsics, inline assembly and runtime calls (grid-wide
//    synchronization, dynamic parallelism, clusters, %ctaid/%smid in
//    assembly), and PTX exit: LegalityIntrinsics.cpp;
//  - loops that wait on other CTAs (ordered mode) and grid-wide barriers
//    built by hand (refused): LegalityWaits.cpp;
//  - threads that leave before a barrier (one-chunk mode, drained exits):
//    LegalityExits.cpp;
//  - for a legal kernel, the hardware limits each variant must stay within:
//    LegalityLimits.cpp.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes='print<smc-legality>' \
//            -disable-output in.ll
//===----------------------------------------------------------------------===//
#include "Legality.h"
#include "ABI.h"
#include "Diagnostics.h"
#include "GridIndex.h"
#include "KernelSelection.h"
#include "LegalityChecks.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE SMC_NAME

using namespace llvm;

namespace smc {

const DILocation *outermostLocation(const Instruction *I) {
  const DILocation *L = I ? I->getDebugLoc().get() : nullptr;
  while (L && L->getInlinedAt())
    L = L->getInlinedAt();
  return L;
}

// "<detail> at file:line", or the detail alone without debug info.
static std::string describe(const std::string &Detail,
                            const Instruction *Where) {
  std::string Loc = sourceLocation(Where);
  return Loc.empty() ? Detail : Detail + " at " + Loc;
}

std::string ModeReason::describe() const {
  return smc::describe(Detail, Where);
}

SmcRefusal KernelLegality::refusal(VariantKind Kind) const {
  if (!legal())
    return Refusal;
  return Limit[static_cast<unsigned>(Kind)].empty() ? SMC_REFUSAL_NONE
                                                    : SMC_REFUSAL_RESOURCES;
}

std::string KernelLegality::refusalDetail(VariantKind Kind) const {
  if (!legal())
    return describe(Detail, Where);
  return Limit[static_cast<unsigned>(Kind)];
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

namespace legality {

void refuse(KernelLegality &R, SmcRefusal Why, std::string Detail,
            const Instruction *Where) {
  if (!R.legal())
    return; // report the first reason found
  R.Refusal = Why;
  R.Detail = std::move(Detail);
  R.Where = Where;
}

namespace {

class KernelChecker {
public:
  KernelChecker(Function &K, const GridReaders &Readers,
                FunctionAnalysisManager &FAM)
      : Kernel(K), Readers(Readers), FAM(FAM) {}

  KernelLegality check() {
    checkKernelAttributes(Kernel, Result);
    visit(Kernel);
    if (!Result.legal())
      return Result;
    checkEarlyExit(Kernel, HasBarrier, FAM, Result);
    for (VariantKind Kind : AllVariantKinds)
      Result.Limit[static_cast<unsigned>(Kind)] = hardwareLimit(Kernel, Kind);
    return Result;
  }

private:
  Function &Kernel;
  const GridReaders &Readers;
  FunctionAnalysisManager &FAM;
  KernelLegality Result;
  SmallPtrSet<const Function *, 16> Done, OnPath;
  DenseMap<const Function *, bool> HasBarrier;
  InterCTAWaits Waits;

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
      if (Call->isInlineAsm()) {
        Barrier |= isBarrierCall(*Call);
        checkInlineAsm(*Call, Result);
        continue;
      }
      Function *Callee = Call->getCalledFunction();
      if (!Callee) {
        Barrier |= visitIndirectCall(*Call);
        continue;
      }
      StringRef Name = Callee->getName();
      if (Callee->isIntrinsic()) {
        Barrier |= isBarrierCall(*Call);
        checkIntrinsicCall(*Call, Result);
        continue;
      }
      if (checkRuntimeCall(*Call, Name, Result))
        continue;
      if (Callee->isDeclaration()) {
        if (!isKnownExternal(Name))
          refuse(Result, SMC_REFUSAL_UNKNOWN_CALLEE,
                 ("call of " + Name + ", defined in another module").str(), &I);
        continue;
      }
      if (OnPath.count(Callee)) {
        // Harmless unless the cycle reads the grid registers (such reads
        // could not be inlined into the variant).
        if (Readers.contains(Callee))
          refuse(
              Result, SMC_REFUSAL_RECURSION,
              ("recursive call of " + Name + ", which reads blockIdx/gridDim")
                  .str(),
              &I);
        Barrier |= any_of(instructions(*Callee), [](const Instruction &J) {
          auto *C = dyn_cast<CallBase>(&J);
          return C && isBarrierCall(*C);
        });
        continue;
      }
      visit(*Callee);
      Barrier |= HasBarrier.lookup(Callee);
    }
    Waits.check(F, FAM.getResult<LoopAnalysis>(F), Result);
    OnPath.erase(&F);
    Done.insert(&F);
    HasBarrier[&F] = Barrier;
  }

  // Harmless when every possible target is known and none reads the grid
  // registers; the targets are then checked like direct callees.  Does some
  // target contain a barrier?
  bool visitIndirectCall(CallBase &Call) {
    SmallPtrSet<Function *, 8> Targets;
    if (!knownTargets(Call.getCalledOperand(), Targets)) {
      refuse(Result, SMC_REFUSAL_INDIRECT_CALL,
             "indirect call whose targets are not known here (a "
             "function pointer from elsewhere may point into another "
             "translation unit)",
             &Call);
      return false;
    }
    bool Barrier = false;
    for (Function *Target : Targets) {
      if (Readers.contains(Target)) {
        refuse(Result, SMC_REFUSAL_INDIRECT_CALL,
               ("indirect call; its possible target " + Target->getName() +
                " reads blockIdx/gridDim")
                   .str(),
               &Call);
        break;
      }
      if (!OnPath.count(Target)) {
        visit(*Target);
        Barrier |= HasBarrier.lookup(Target);
      }
    }
    return Barrier;
  }
};

} // namespace
} // namespace legality

LegalityAnalysis::Result LegalityAnalysis::run(Module &M,
                                               ModuleAnalysisManager &MAM) {
  Result R;
  GridReaders Readers(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function *K : MAM.getResult<KernelSelection>(M)) {
    R[K] = legality::KernelChecker(*K, Readers, FAM).check();
    LLVM_DEBUG(dbgs() << SMC_NAME ": legality of " << K->getName() << ": "
                      << smcRefusalText(R[K].Refusal) << "\n");
  }
  return R;
}

PreservedAnalyses LegalityPrinterPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  for (auto &[K, L] : MAM.getResult<LegalityAnalysis>(M)) {
    outs() << "kernel " << K->getName() << ": ";
    if (!L.legal()) {
      outs() << "refused: " << smcRefusalText(L.Refusal) << " ("
             << L.refusalDetail(VariantKind::SMCentric) << ")\n";
      continue;
    }
    outs() << "legal, " << (L.OneChunk ? "one-chunk" : "loop");
    if (L.OneChunk)
      outs() << " (" << L.OneChunk.Detail << ")";
    else if (L.Drained)
      outs() << ", drained exits (" << L.Drained.Detail << ")";
    if (L.Ordered)
      outs() << ", ordered (" << L.Ordered.describe() << ")";
    for (VariantKind Kind : AllVariantKinds)
      if (SmcRefusal Why = L.refusal(Kind))
        outs() << "; no " << variantInfo(Kind).Suffix
               << " variant: " << smcRefusalText(Why) << " ("
               << L.refusalDetail(Kind) << ")";
    outs() << "\n";
  }
  return PreservedAnalyses::all();
}

} // namespace smc
