//===- TransformPasses.h - The passes that change a module ----------------===//
//
// The module passes that change a module; each is implemented in the file
// named after it, and the smc pipeline (Pipeline.cpp) runs them:
//  - LocalityRecord.cpp: each kernel's CTA locality class goes into its info
//    record and a remark (-Rpass-analysis=smc);
//  - SMCVariant.cpp: K__smc runs the chunks of the original grid in workers
//    that the runtime places per SM (the file shows the variant's shape);
//  - SliceVariant.cpp: K__slice runs a contiguous range of the original
//    grid's chunks as a smaller launch, so that kernels can run in slices
//    next to each other;
//  - RemapVariant.cpp: K__remap runs K's jobs in the order of a remap table
//    the runtime sorts by the key K__remap_keys writes (thread-data
//    remapping);
//  - LaunchRewrite.cpp: in a host module, the CUDA calls SMC_HOST_ENTRIES
//    (smc/abi.h) names call the SMC runtime's entries instead.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_TRANSFORMPASSES_H
#define SMC_PASSES_TRANSFORMPASSES_H

#include "PassMixins.h"

#include "llvm/IR/PassManager.h"

namespace smc {

/// smc-locality: records every selected kernel's CTA locality class
/// (LocalityAnalysis) in its info record and reports it as an analysis
/// remark.
struct LocalityRecordPass : RequiredPass<LocalityRecordPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// smc-variant: adds K__smc for every selected kernel K that is legal.
struct SMCVariantPass : RequiredPass<SMCVariantPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// smc-slice: adds K__slice for every selected kernel K that is legal.
struct SliceVariantPass : RequiredPass<SliceVariantPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// smc-remap: adds K__remap and K__remap_keys for every selected kernel K
/// whose jobs may be remapped (RemapAnalysis.h).
struct RemapVariantPass : RequiredPass<RemapVariantPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// smc-launch-rewrite: every call or invoke of a CUDA function listed in
/// SMC_HOST_ENTRIES calls the runtime entry of the same signature instead.
struct LaunchRewritePass : RequiredPass<LaunchRewritePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace smc

#endif // SMC_PASSES_TRANSFORMPASSES_H
