//===- SliceVariant.h - Build the slice variant K__slice ------------------===//
//
// K__slice runs a contiguous range of the original grid's chunks as a
// smaller launch, so that kernels can run in slices next to each other.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_SLICEVARIANT_H
#define SMC_PASSES_SLICEVARIANT_H

#include "llvm/IR/PassManager.h"

namespace smc {

/// smc-slice: adds K__slice for every selected kernel K that is legal.
struct SliceVariantPass : llvm::PassInfoMixin<SliceVariantPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace smc

#endif
