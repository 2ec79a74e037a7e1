//===- KernelSelection.h - Kernels of a device module SMC transforms ------===//
//
// The kernels (ptx_kernel calling convention, with a body) of the module
// that -smc-kernels selects, leaving out variants SMC built itself.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_KERNELSELECTION_H
#define SMC_PASSES_KERNELSELECTION_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

namespace smc {

/// Is \p F a kernel with a body (not a declaration)?
bool isKernel(const llvm::Function &F);

class KernelSelection : public llvm::AnalysisInfoMixin<KernelSelection> {
public:
  using Result = llvm::SmallVector<llvm::Function *, 8>;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  friend llvm::AnalysisInfoMixin<KernelSelection>;
  static llvm::AnalysisKey Key;
};

/// print<smc-kernels>: the selected kernels, one per line.
struct KernelSelectionPrinterPass
    : llvm::PassInfoMixin<KernelSelectionPrinterPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace smc

#endif
