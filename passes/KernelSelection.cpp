//===- KernelSelection.cpp - Which kernels of a device module SMC transforms //
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes='print<smc-kernels>' \
//            -smc-kernels='vec.*' -disable-output in.ll
//===----------------------------------------------------------------------===//
#include "KernelSelection.h"
#include "Options.h"
#include "runtime/KernelName.h"
#include "smc/abi.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smc {

AnalysisKey KernelSelection::Key;

bool isKernel(const Function &F) {
  return F.getCallingConv() == CallingConv::PTX_Kernel && !F.isDeclaration();
}

static bool isVariantName(StringRef Name) {
  return Name.ends_with(SMC_SUFFIX_SMC) || Name.ends_with(SMC_SUFFIX_SLICE);
}

KernelSelection::Result KernelSelection::run(Module &M,
                                             ModuleAnalysisManager &) {
  Result Kernels;
  std::string Error;
  if (!kernelFilterValid(Error)) {
    M.getContext().diagnose(
        DiagnosticInfoGeneric(Twine("SMC: ") + Error, DS_Error));
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
