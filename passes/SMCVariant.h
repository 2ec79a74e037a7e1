//===- SMCVariant.h - Build the SM-centric variant K__smc -----------------===//
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
