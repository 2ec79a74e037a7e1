//===- LaunchRewrite.h - Host launches go through the SMC runtime ---------===//
//
// The host-side pass: kernel launches and cudaDeviceReset in a host module
// call the SMC runtime's entries instead of the CUDA runtime's.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_LAUNCHREWRITE_H
#define SMC_PASSES_LAUNCHREWRITE_H

#include "llvm/IR/PassManager.h"

namespace smc {

/// smc-launch-rewrite: every call or invoke of cudaLaunchKernel /
/// cudaLaunchKernel_ptsz in a host module calls the runtime entry of the
/// same signature instead (__smc_launch_kernel / __smc_launch_kernel_ptsz).
struct LaunchRewritePass : llvm::PassInfoMixin<LaunchRewritePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace smc

#endif
