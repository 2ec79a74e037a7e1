//===- KernelSelection.h - Kernels of a device module SMC transforms ------===//
//
// The kernels (ptx_kernel calling convention, with a body) of the module
// that -smc-kernels selects, leaving out variants SMC built itself.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_KERNELSELECTION_H
#define SMC_PASSES_KERNELSELECTION_H

#include "PassMixins.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

namespace smc {

/// Is \p F a kernel with a body (not a declaration)?
bool isKernel(const llvm::Function &F);

struct KernelSelection
    : KeyedAnalysis<KernelSelection, llvm::SmallVector<llvm::Function *, 8>> {
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// print<smc-kernels>: the selected kernels, one per line.
struct KernelSelectionPrinterPass : RequiredPass<KernelSelectionPrinterPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace smc

#endif
