//===- VariantDriver.cpp - What every variant builder does around its core
//-===//
#include "VariantDriver.h"
#include "KernelInfo.h"
#include "runtime/KernelName.h"

#include "ABI.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace smc {

// Hardware limits a variant must stay within (PTX ISA, sm_70 and later):
// 32764 bytes of kernel parameters, 48 KiB of static shared memory.  The
// descriptor adds to the first; __smc's chunk broadcast slots to the second.
static std::string exceedsLimits(Function &K, bool Slice) {
  const DataLayout &DL = K.getParent()->getDataLayout();
  uint64_t Params = DL.getTypeAllocSize(descriptorType(K.getContext()));
  for (Argument &A : K.args())
    Params += DL.getTypeAllocSize(A.hasByValAttr() ? A.getParamByValType()
                                                   : A.getType());
  if (Params > 32764)
    return std::to_string(Params) +
           " bytes of parameters with the descriptor, over the 32764 allowed";
  if (Slice)
    return "";
  // Static shared memory the kernel and its callees use.
  uint64_t Shared = 8; // __smc_dev_slot
  SmallPtrSet<const GlobalVariable *, 8> Seen;
  SmallVector<const Function *, 8> Work{&K};
  SmallPtrSet<const Function *, 8> Visited{&K};
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(*F))
      for (const Value *Op : I.operands()) {
        const Value *Base = Op->stripPointerCasts();
        if (auto *CE = dyn_cast<ConstantExpr>(Op))
          Base = CE->getOperand(0)->stripPointerCasts();
        if (auto *GV = dyn_cast<GlobalVariable>(Base)) {
          if (GV->getAddressSpace() == 3 && Seen.insert(GV).second)
            Shared += DL.getTypeAllocSize(GV->getValueType());
        } else if (auto *Callee = dyn_cast<Function>(Base)) {
          if (!Callee->isDeclaration() && Visited.insert(Callee).second)
            Work.push_back(Callee);
        }
      }
  }
  if (Shared > 48 * 1024)
    return std::to_string(Shared) + " bytes of static shared memory with the "
                                    "worker's own, over the 49152 allowed";
  return "";
}

static std::string at(const Instruction *Where) {
  std::string Loc = sourceLocation(Where);
  return Loc.empty() ? "" : " at " + Loc;
}

PreservedAnalyses runVariantBuilder(Module &M, ModuleAnalysisManager &MAM,
                                    bool Slice, VariantBuilder Build) {
  const char *Suffix = Slice ? SMC_SUFFIX_SLICE : SMC_SUFFIX_SMC;
  // Copy: building variants invalidates the analyses.
  LegalityAnalysis::Result Kernels = MAM.getResult<LegalityAnalysis>(M);
  bool Changed = false;
  for (auto &Entry : Kernels) {
    Function *K = Entry.first;
    const KernelLegality &L = Entry.second;
    std::string Kernel = "kernel '" + kernelSourceName(K->getName()) + "'";
    // Already built (the pipeline ran twice): nothing to do.
    if (M.getFunction((K->getName() + Suffix).str()))
      continue;
    OptimizationRemarkEmitter ORE(K);
    SmcRefusal Refusal = L.Refusal;
    std::string Message = L.Detail + at(L.Where);
    if (L.legal()) {
      std::string Limit = exceedsLimits(*K, Slice);
      if (!Limit.empty()) {
        Refusal = SMC_REFUSAL_RESOURCES;
        Message = Limit;
      }
    }
    std::string Summary;
    Function *V = nullptr;
    if (Refusal == SMC_REFUSAL_NONE)
      V = Build(*K, L, Refusal, Message, Summary);
    uint32_t Modes = (L.OneChunk ? SMC_INFO_ONE_CHUNK : 0) |
                     (L.Ordered ? SMC_INFO_ORDERED : 0);
    recordVariant(*K, Slice, V ? SMC_REFUSAL_NONE : Refusal, Modes);
    Changed = true;
    if (!V) {
      const DILocation *Where =
          L.legal() ? nullptr : outermostLocation(L.Where);
      ORE.emit([&] {
        auto R = Where ? OptimizationRemarkMissed("smc", "Refused",
                                                  DiagnosticLocation(Where),
                                                  &K->getEntryBlock())
                       : OptimizationRemarkMissed("smc", "Refused", K);
        return R << Kernel << ": no " << Suffix
                 << " variant: " << smcRefusalText(Refusal) << " (" << Message
                 << ")";
      });
      continue;
    }
    ORE.emit([&] {
      return OptimizationRemark("smc", "Built", K)
             << Kernel << ": built " << V->getName() << " (" << Summary << ")";
    });
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace smc
