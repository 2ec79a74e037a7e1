//===- Pipeline.h - What -fpass-plugin=SMCPasses.so runs --------*- C++ -*-===//
//
// The smc pass: what clang runs at the end of its optimization pipeline, on
// the device module and on the host module of every CUDA compile.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_PIPELINE_H
#define SMC_PASSES_PIPELINE_H

#include "PassMixins.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"

namespace smc {

/// smc: on a device module (nvptx), the variants -smc-transforms asks for;
/// on a host module, the launch rewrite.  Nothing without -smc-transforms.
/// Bad options are reported as compiler errors.
struct SMCPipelinePass : RequiredPass<SMCPipelinePass> {
  explicit SMCPipelinePass(
      llvm::OptimizationLevel Level = llvm::OptimizationLevel::O0)
      : Level(Level) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  llvm::OptimizationLevel Level;
};

} // namespace smc

#endif
