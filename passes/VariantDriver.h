//===- VariantDriver.h - What every variant builder does around its core --===//
//
// Runs a variant builder over the selected kernels: skips the ones legality
// refuses, records each outcome in the kernel's info record and reports it
// as a remark (-Rpass=smc / -Rpass-missed=smc) naming kernel, reason and
// source line.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_VARIANTDRIVER_H
#define SMC_PASSES_VARIANTDRIVER_H

#include "Legality.h"

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/IR/PassManager.h"

namespace smc {

/// Builds one variant of kernel K.  Returns the variant, or null with a
/// refusal code and message; fills Summary with what was done.
using VariantBuilder = llvm::function_ref<llvm::Function *(
    llvm::Function &K, const KernelLegality &L, SmcRefusal &Refusal,
    std::string &Message, std::string &Summary)>;

llvm::PreservedAnalyses runVariantBuilder(llvm::Module &M,
                                          llvm::ModuleAnalysisManager &MAM,
                                          bool Slice, VariantBuilder Build);

} // namespace smc

#endif
