//===- VariantDriver.h - What every variant builder does around its core --===//
//
// Runs a variant builder over the selected kernels: skips the ones legality
// refuses, records each outcome in the kernel's info record and reports it
// as a remark (-Rpass=smc / -Rpass-missed=smc) naming kernel, reason and
// source line.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_VARIANTDRIVER_H
#define SMC_PASSES_VARIANTDRIVER_H

#include "ABI.h"
#include "Legality.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"
#include <string>

namespace smc {

/// A variant a builder made, and what it did (for the remark).
struct BuiltVariant {
  llvm::Function *V = nullptr;
  std::string Summary;
};

/// Builds one variant of the legal kernel K: the variant, a RefusalError
/// when K cannot have it after all, or another error when the build itself
/// failed (reported as a compiler error; the driver stops).
using VariantBuilder = llvm::function_ref<llvm::Expected<BuiltVariant>(
    llvm::Function &K, const KernelLegality &L)>;

/// Builds the variants of kind \p Kind of every selected kernel with
/// \p Build.
llvm::PreservedAnalyses runVariantBuilder(llvm::Module &M,
                                          llvm::ModuleAnalysisManager &MAM,
                                          VariantKind Kind,
                                          VariantBuilder Build);

} // namespace smc

#endif
