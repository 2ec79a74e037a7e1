//===- KernelSelection.cpp - Kernels of a device module SMC transforms ----===//
//
// Kernels are functions with the ptx_kernel calling convention and a body;
// -smc-kernels filters them by mangled or source name (runtime/KernelName,
// the spelling SMC_POLICY uses too).
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes='print<smc-kernels>' \
//            -smc-kernels='vec.*' -disable-output in.ll
//===----------------------------------------------------------------------===//
#include "KernelSelection.h"
#include "ABI.h"
#include "Diagnostics.h"
#include "Options.h"
#include "runtime/base/KernelName.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smc {

bool isKernel(const Function &F) {
  return F.getCallingConv() == CallingConv::PTX_Kernel && !F.isDeclaration();
}

KernelSelection::Result KernelSelection::run(Module &M,
                                             ModuleAnalysisManager &) {
  Result Kernels;
  if (Error E = checkKernelFilter()) {
    reportError(M.getContext(), std::move(E));
    return Kernels;
  }
  for (Function &F : M)
    if (isKernel(F) && !isVariantName(F.getName()) &&
        kernelSelected(F.getName(), kernelSourceName(F.getName())))
      Kernels.push_back(&F);
  return Kernels;
}

PreservedAnalyses KernelSelectionPrinterPass::run(Module &M,
                                                  ModuleAnalysisManager &MAM) {
  for (Function *F : MAM.getResult<KernelSelection>(M))
    outs() << "kernel " << F->getName() << " ("
           << kernelSourceName(F->getName()) << ")\n";
  return PreservedAnalyses::all();
}

} // namespace smc
