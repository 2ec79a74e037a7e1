//===- VariantDriver.cpp - What every variant builder does around its core ===//
//
// The outcome of every (kernel, variant kind) pair ends in the kernel's info
// record and in a remark; STATISTICs count variants built and refused.
//===----------------------------------------------------------------------===//
#include "VariantDriver.h"
#include "Diagnostics.h"
#include "KernelInfo.h"
#include "runtime/KernelName.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/NVPTXAddrSpace.h"

#define DEBUG_TYPE SMC_NAME

using namespace llvm;

STATISTIC(NumVariantsBuilt, "Variants built");
STATISTIC(NumVariantsRefused, "Variants refused (a remark says why)");

namespace smc {

// Hardware limits a variant must stay within (PTX ISA, sm_70 and later):
// 32764 bytes of kernel parameters, 48 KiB of static shared memory.  The
// descriptor adds to the first; __smc's chunk broadcast slots to the second.
static std::string exceedsLimits(Function &K, VariantKind Kind) {
  const DataLayout &DL = K.getParent()->getDataLayout();
  uint64_t Params = DL.getTypeAllocSize(descriptorType(K.getContext()));
  for (Argument &A : K.args())
    Params += DL.getTypeAllocSize(A.hasByValAttr() ? A.getParamByValType()
                                                   : A.getType());
  if (Params > 32764)
    return std::to_string(Params) +
           " bytes of parameters with the descriptor, over the 32764 allowed";
  if (Kind != VariantKind::SMCentric)
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
          if (GV->getAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED &&
              Seen.insert(GV).second)
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
    SmcRefusal Refusal = L.Refusal;
    std::string Message = L.Detail + at(L.Where);
    if (L.legal()) {
      std::string Limit = exceedsLimits(*K, Kind);
      if (!Limit.empty()) {
        Refusal = SMC_REFUSAL_RESOURCES;
        Message = Limit;
      }
    }
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
                     (L.Ordered ? SMC_INFO_ORDERED : 0);
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
