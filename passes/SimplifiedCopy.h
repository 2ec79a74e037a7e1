//===- SimplifiedCopy.h - Unoptimized kernels analysed on a copy ----------===//
//
// LocalityAnalysis reads addresses through ScalarEvolution, which sees
// little in code the optimizer has not simplified (-O0: locals in memory;
// calls of functions with a body).  The passes that report the locality
// class (smc-locality, print<smc-locality>) therefore analyse such a kernel
// on a simplified copy of the module: the kernel's calls inlined, its
// grid-register reads hoisted to the entry, SROA, EarlyCSE, InstCombine,
// SimplifyCFG and LoopSimplify run on it; the copy is then dropped.  The
// module itself is not changed, and the analysis never transforms.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_SIMPLIFIEDCOPY_H
#define SMC_PASSES_SIMPLIFIEDCOPY_H

#include "LocalityAnalysis.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/PassManager.h"

namespace smc {

/// The CTA locality of each kernel KernelSelection picks, in module order:
/// LocalityAnalysis of the kernel as it stands, or, for a kernel the
/// optimizer has not simplified, of the kernel in a simplified copy of
/// \p M.  \p M is left as it is.
llvm::MapVector<llvm::Function *, KernelLocality>
localityOfSelectedKernels(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

/// Inlines the calls of functions with a body into \p F, level by level, up
/// to a budget (recursion stays calls).
void inlineDefinedCalls(llvm::Function &F);

} // namespace smc

#endif
