//===- SimplifiedCopy.cpp - Unoptimized kernels analysed on a copy --------===//
//
// The step the locality passes take before LocalityAnalysis
// (SimplifiedCopy.h): a kernel that is unoptimized (optnone) or calls
// functions with a body is analysed in a clone of the module in which its
// calls are inlined (level by level, up to a budget; recursion stays
// calls), its reads of blockIdx, threadIdx, blockDim and gridDim are moved
// to the entry block (what LICM does at -O1 and above), and the usual
// cleanup passes have run.  Other kernels are analysed as they stand.  The
// copy is a module of its own, with analysis managers of its own, dropped
// once its kernels are analysed.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes='print<smc-locality>' \
//            -disable-output unoptimized.ll
//===----------------------------------------------------------------------===//
#include "SimplifiedCopy.h"
#include "CTAUniformity.h"
#include "Diagnostics.h"
#include "KernelSelection.h"
#include "LocalityChecker.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

#define DEBUG_TYPE SMC_NAME

using namespace llvm;

namespace smc {

using locality::SpecialRegister;
using locality::specialRegister;

// Is K unoptimized (-O0) or does it call functions with a body?
static bool needsSimplifiedCopy(const Function &K) {
  if (K.hasOptNone())
    return true;
  for (const Instruction &I : instructions(K))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction())
        if (!Callee->isDeclaration() && !Callee->isIntrinsic())
          return true;
  return false;
}

void inlineDefinedCalls(Function &F) {
  unsigned Budget = 4096;
  for (unsigned Level = 0; Level < 16 && Budget; ++Level) {
    SmallVector<CallBase *, 16> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (!Callee->isDeclaration() && Callee != &F && !Callee->isVarArg() &&
              !Callee->isIntrinsic() &&
              Callee->getFunctionType() == Call->getFunctionType())
            Calls.push_back(Call);
    if (Calls.empty())
      return;
    bool Inlined = false;
    for (CallBase *Call : Calls) {
      if (!Budget)
        break;
      --Budget;
      InlineFunctionInfo IFI;
      Inlined |= InlineFunction(*Call, IFI).isSuccess();
    }
    if (!Inlined)
      return;
  }
}

// Moves the reads of blockIdx, threadIdx, blockDim and gridDim to the entry
// block (what LICM would do at -O1 and above), so that a loop stepping by
// blockDim.x * gridDim.x is a recurrence ScalarEvolution sees.
static void hoistGridRegisterReads(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  SmallVector<Instruction *, 16> Reads;
  for (Instruction &I : instructions(F))
    if (SpecialRegister R = specialRegister(&I);
        R.Kind != SpecialRegister::None && R.Kind != SpecialRegister::PerThread)
      Reads.push_back(&I);
  for (Instruction *I : Reads)
    if (I->getParent() != &Entry)
      I->moveBefore(Entry.getFirstInsertionPt());
}

// Analyses the kernels Ks on a simplified copy of M.
static void analyseSimplifiedCopies(Module &M, ArrayRef<Function *> Ks,
                                    DenseMap<Function *, KernelLocality> &Out) {
  ValueToValueMapTy VMap;
  std::unique_ptr<Module> Copy = CloneModule(M, VMap);
  for (Function &F : *Copy) {
    F.removeFnAttr(Attribute::OptimizeNone);
    F.removeFnAttr(Attribute::NoInline);
  }
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FAM.registerPass([] { return CTAUniformityAnalysis(); });
  FAM.registerPass([] { return LocalityAnalysis(); });
  FunctionPassManager Simplify;
  Simplify.addPass(SROAPass(SROAOptions::ModifyCFG));
  Simplify.addPass(EarlyCSEPass(/*UseMemorySSA=*/false));
  Simplify.addPass(InstCombinePass());
  Simplify.addPass(SimplifyCFGPass());
  Simplify.addPass(LoopSimplifyPass());
  for (Function *K : Ks) {
    auto &KC = *cast<Function>(VMap[K]);
    inlineDefinedCalls(KC);
    hoistGridRegisterReads(KC);
    Simplify.run(KC, FAM);
    Out[K] = FAM.getResult<LocalityAnalysis>(KC);
  }
  FAM.clear();
  MAM.clear();
}

MapVector<Function *, KernelLocality>
localityOfSelectedKernels(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  const auto &Kernels = MAM.getResult<KernelSelection>(M);
  DenseMap<Function *, KernelLocality> Found;
  SmallVector<Function *, 8> ToCopy;
  for (Function *K : Kernels) {
    if (needsSimplifiedCopy(*K))
      ToCopy.push_back(K);
    else
      Found[K] = FAM.getResult<LocalityAnalysis>(*K);
  }
  if (!ToCopy.empty())
    analyseSimplifiedCopies(M, ToCopy, Found);
  MapVector<Function *, KernelLocality> R;
  for (Function *K : Kernels) {
    R[K] = std::move(Found[K]);
    LLVM_DEBUG(dbgs() << SMC_NAME ": locality of " << K->getName() << ": "
                      << R[K].describe() << "\n");
  }
  return R;
}

} // namespace smc
