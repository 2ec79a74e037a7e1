//===- SMCVariant.h - Build the SM-centric variant K__smc -----------------===//
//
// K__smc runs the chunks of the original grid in workers that the runtime
// places per SM (SMCVariant.cpp shows the shape of the variant).
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_SMCVARIANT_H
#define SMC_PASSES_SMCVARIANT_H

#include "llvm/IR/PassManager.h"

namespace smc {

/// smc-variant: adds K__smc for every selected kernel K that is legal.
struct SMCVariantPass : llvm::PassInfoMixin<SMCVariantPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace smc

#endif
