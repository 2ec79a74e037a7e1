//===- LocalityRecord.cpp - Record and report each kernel's CTA locality --===//
//
// smc-locality: for every selected kernel, the class LocalityAnalysis finds
// (for a kernel the optimizer has not simplified, in a simplified copy of
// the module: SimplifiedCopy.h) goes into the kernel's info record (field
// `locality`) and into an analysis remark (-Rpass-analysis=smc), e.g.
//   kernel 'mm': CTA locality tile (x: B is the same for all CTAs along x
//   at mm.cu:16; y: A is the same for all CTAs along y at mm.cu:15)
// The smc pipeline runs it before building variants; the kernel itself is
// not changed.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes=smc-locality \
//            -pass-remarks-analysis=smc -S in.ll
//===----------------------------------------------------------------------===//
#include "Diagnostics.h"
#include "KernelInfo.h"
#include "KernelSelection.h"
#include "Legality.h"
#include "LocalityAnalysis.h"
#include "SimplifiedCopy.h"
#include "TransformPasses.h"
#include "runtime/base/KernelName.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE SMC_NAME

using namespace llvm;

STATISTIC(NumLocalityShared, "Kernels whose neighbouring CTAs share data");

namespace smc {

PreservedAnalyses LocalityRecordPass::run(Module &M,
                                          ModuleAnalysisManager &MAM) {
  MapVector<Function *, KernelLocality> Kernels =
      localityOfSelectedKernels(M, MAM);
  if (Kernels.empty())
    return PreservedAnalyses::all();
  for (auto &Entry : Kernels) {
    Function *K = Entry.first;
    const KernelLocality &L = Entry.second;
    recordLocality(*K, L.Class);
    if (L.Class >= SMC_LOCALITY_X && L.Class <= SMC_LOCALITY_TILE)
      ++NumLocalityShared;
    OptimizationRemarkEmitter ORE(K);
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkName, "Locality", K)
             << "kernel '" << kernelSourceName(K->getName())
             << "': CTA locality " << L.describe();
    });
  }
  // Only info records were added: the kernels and every analysis of them
  // are as they were.
  PreservedAnalyses PA;
  PA.preserveSet<AllAnalysesOn<Function>>();
  PA.preserve<FunctionAnalysisManagerModuleProxy>();
  PA.preserve<KernelSelection>();
  PA.preserve<LegalityAnalysis>();
  return PA;
}

} // namespace smc
