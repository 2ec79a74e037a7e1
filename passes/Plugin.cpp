//===- Plugin.cpp - The SMC pass plugin's single entry --------------------===//
//
// Registers every SMC pass and analysis once:
//  - for clang (-fpass-plugin=SMCPasses.so): the smc pipeline at the end of
//    the optimization pipeline, at every -O level;
//  - for opt (-load-pass-plugin=SMCPasses.so -passes=...):
//      smc                  what clang runs (honours -smc-transforms)
//      smc-variant          build K__smc for the selected kernels
//      smc-slice            build K__slice for the selected kernels
//      smc-launch-rewrite   host launches -> SMC runtime entries
//      smc-print-abi        print the nvptx64 ABI layout
//      print<smc-kernels>   the selected kernels
//      print<smc-legality>  refusals (also hardware limits) and modes
//      print<smc-cta-uniformity>  uniform and divergent branches (function)
//
// USAGE: clang++ -fpass-plugin=SMCPasses.so -mllvm -smc-transforms=smc,slice
//===----------------------------------------------------------------------===//
#include "ABI.h"
#include "CTAUniformity.h"
#include "KernelSelection.h"
#include "LaunchRewrite.h"
#include "Legality.h"
#include "Pipeline.h"
#include "SMCVariant.h"
#include "SliceVariant.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;
using namespace smc;

static bool parseModulePass(StringRef Name, ModulePassManager &MPM,
                            ArrayRef<PassBuilder::PipelineElement>) {
  if (Name == "smc")
    MPM.addPass(SMCPipelinePass(OptimizationLevel::O0));
  else if (Name == "smc-variant")
    MPM.addPass(SMCVariantPass());
  else if (Name == "smc-slice")
    MPM.addPass(SliceVariantPass());
  else if (Name == "smc-launch-rewrite")
    MPM.addPass(LaunchRewritePass());
  else if (Name == "smc-print-abi")
    MPM.addPass(PrintABIPass());
  else if (Name == "print<smc-kernels>")
    MPM.addPass(KernelSelectionPrinterPass());
  else if (Name == "print<smc-legality>")
    MPM.addPass(LegalityPrinterPass());
  else
    return false;
  return true;
}

static bool parseFunctionPass(StringRef Name, FunctionPassManager &FPM,
                              ArrayRef<PassBuilder::PipelineElement>) {
  if (Name != "print<smc-cta-uniformity>")
    return false;
  FPM.addPass(CTAUniformityPrinterPass());
  return true;
}

static void registerSMC(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
    MAM.registerPass([] { return KernelSelection(); });
    MAM.registerPass([] { return LegalityAnalysis(); });
  });
  PB.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &FAM) {
    FAM.registerPass([] { return CTAUniformityAnalysis(); });
  });
  PB.registerPipelineParsingCallback(parseModulePass);
  PB.registerPipelineParsingCallback(parseFunctionPass);
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level, ThinOrFullLTOPhase) {
        MPM.addPass(SMCPipelinePass(Level));
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "SMCPasses", "0.1.0", registerSMC};
}
