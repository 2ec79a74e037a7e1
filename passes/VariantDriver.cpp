//===- VariantDriver.cpp - What every variant builder does around its core -===//
#include "VariantDriver.h"
#include "KernelInfo.h"
#include "KernelSelection.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace smc {

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
  for (auto &[K, L] : Kernels) {
    std::string Kernel = "kernel '" + kernelSourceName(K->getName()) + "'";
    OptimizationRemarkEmitter ORE(K);
    SmcRefusal Refusal = L.Refusal;
    std::string Message = L.Detail + at(L.Where);
    std::string Summary;
    Function *V = nullptr;
    if (L.legal())
      V = Build(*K, L, Refusal, Message, Summary);
    recordVariant(*K, Slice, V ? SMC_REFUSAL_NONE : Refusal, L.OneChunk);
    Changed = true;
    if (!V) {
      const Instruction *Where = L.legal() ? nullptr : L.Where;
      ORE.emit([&] {
        auto R = Where ? OptimizationRemarkMissed("smc", "Refused", Where)
                       : OptimizationRemarkMissed("smc", "Refused", K);
        return R << Kernel << ": no " << Suffix << " variant: "
                 << smcRefusalText(Refusal) << " (" << Message << ")";
      });
      continue;
    }
    ORE.emit([&] {
      return OptimizationRemark("smc", "Built", K)
             << Kernel << ": built " << V->getName() << " (" << Summary
             << ")";
    });
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace smc
