//===- Plugin.cpp - The SMC pass plugin's single entry --------------------===//
//
// Registers every SMC pass and analysis once (the names are listed in
// PassRegistry.def):
//  - for clang (-fpass-plugin=SMCPasses.so): the smc pipeline at the end of
//    the optimization pipeline, at every -O level;
//  - for opt (-load-pass-plugin=SMCPasses.so -passes=...):
//      smc                  what clang runs (honours -smc-transforms)
//      smc-variant          build K__smc for the selected kernels
//      smc-slice            build K__slice for the selected kernels
//      smc-remap            build K__remap and K__remap_keys
//      smc-launch-rewrite   host launches -> SMC runtime entries
//      smc-locality         record each kernel's CTA locality class
//      smc-print-abi        print the nvptx64 ABI layout
//      print<smc-kernels>   the selected kernels
//      print<smc-legality>  refusals (also hardware limits) and modes
//      print<smc-locality>  which neighbouring CTAs share data
//      print<smc-remap>     whether jobs may be remapped, and by what key
//      print<smc-cta-uniformity>  uniform and divergent branches (function)
//
// USAGE: clang++ -fpass-plugin=SMCPasses.so -mllvm -smc-transforms=smc,slice
//===----------------------------------------------------------------------===//
#include "ABI.h"
#include "CTAUniformity.h"
#include "KernelSelection.h"
#include "Legality.h"
#include "LocalityAnalysis.h"
#include "Pipeline.h"
#include "RemapAnalysis.h"
#include "TransformPasses.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;
using namespace smc;

// Adds the pass named NAME to PM and returns, if the pipeline names it.
#define SMC_ADD_IF_NAMED(PM, NAME, CREATE)                                     \
  if (Name == NAME) {                                                          \
    PM.addPass(CREATE);                                                        \
    return true;                                                               \
  }

static bool parseModulePass(StringRef Name, ModulePassManager &MPM,
                            ArrayRef<PassBuilder::PipelineElement>) {
#define MODULE_PASS(NAME, CREATE) SMC_ADD_IF_NAMED(MPM, NAME, CREATE)
#include "PassRegistry.def"
  return false;
}

static bool parseFunctionPass(StringRef Name, FunctionPassManager &FPM,
                              ArrayRef<PassBuilder::PipelineElement>) {
#define FUNCTION_PASS(NAME, CREATE) SMC_ADD_IF_NAMED(FPM, NAME, CREATE)
#include "PassRegistry.def"
  return false;
}
#undef SMC_ADD_IF_NAMED

static void registerSMC(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
#define MODULE_ANALYSIS(CREATE) MAM.registerPass([] { return CREATE; });
#include "PassRegistry.def"
  });
  PB.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &FAM) {
#define FUNCTION_ANALYSIS(CREATE) FAM.registerPass([] { return CREATE; });
#include "PassRegistry.def"
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
