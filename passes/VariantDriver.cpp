//===- VariantDriver.cpp - What every variant builder does around its core ===//
//
// The outcome of every (kernel, variant kind) pair ends in the kernel's info
// record and in a remark; STATISTICs count variants built and refused.
//===----------------------------------------------------------------------===//
#include "VariantDriver.h"
#include "Diagnostics.h"
#include "KernelInfo.h"
#include "Options.h"
#include "runtime/base/KernelName.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE SMC_NAME

using namespace llvm;

STATISTIC(NumVariantsBuilt, "Variants built");
STATISTIC(NumVariantsRefused, "Variants refused (a remark says why)");

namespace smc {

PreservedAnalyses runVariantBuilder(Module &M, ModuleAnalysisManager &MAM,
                                    VariantKind Kind, VariantBuilder Build) {
  const char *Suffix = variantInfo(Kind).Suffix;
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
    SmcRefusal Refusal = L.refusal(Kind);
    std::string Message = L.refusalDetail(Kind);
    BuiltVariant Built;
    if (Refusal == SMC_REFUSAL_NONE) {
      Expected<BuiltVariant> Result = Build(*K, L);
      if (Result) {
        Built = std::move(*Result);
      } else if (Error Failed = handleErrors(Result.takeError(),
                                             [&](const RefusalError &R) {
                                               Refusal = R.code();
                                               Message = R.detail();
                                             })) {
        reportError(M.getContext(), std::move(Failed));
        return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
      }
    }
    Function *V = Built.V;
    uint32_t Modes = (L.OneChunk ? SMC_INFO_ONE_CHUNK : 0) |
                     (L.Ordered ? SMC_INFO_ORDERED : 0) |
                     (traceRequested() ? SMC_INFO_TRACED : 0);
    recordVariant(*K, Kind, V ? SMC_REFUSAL_NONE : Refusal, Modes);
    Changed = true;
    if (!V) {
      ++NumVariantsRefused;
      LLVM_DEBUG(dbgs() << SMC_NAME ": " << K->getName() << ": no " << Suffix
                        << ": " << smcRefusalText(Refusal) << " (" << Message
                        << ")\n");
      const DILocation *Where =
          L.legal() ? nullptr : outermostLocation(L.Where);
      ORE.emit([&] {
        auto R = Where ? OptimizationRemarkMissed(RemarkName, "Refused",
                                                  DiagnosticLocation(Where),
                                                  &K->getEntryBlock())
                       : OptimizationRemarkMissed(RemarkName, "Refused", K);
        return R << Kernel << ": no " << Suffix
                 << " variant: " << smcRefusalText(Refusal) << " (" << Message
                 << ")";
      });
      continue;
    }
    ++NumVariantsBuilt;
    LLVM_DEBUG(dbgs() << SMC_NAME ": built " << V->getName() << " ("
                      << Built.Summary << ")\n");
    ORE.emit([&] {
      return OptimizationRemark(RemarkName, "Built", K)
             << Kernel << ": built " << V->getName() << " (" << Built.Summary
             << ")";
    });
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace smc
