//===- Pipeline.cpp - What -fpass-plugin=SMCPasses.so runs
//-----------------===//
//
// Runs at the end of the optimization pipeline (OptimizerLastEP), so that the
// analyses see optimized kernels with the host stubs already inlined; at -O1
// and above it then tidies the new variants (SROA, EarlyCSE, InstCombine,
// SimplifyCFG) since the rest of the pipeline has already run.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes=smc \
//            -smc-transforms=smc,slice -S in.ll
//===----------------------------------------------------------------------===//
#include "Pipeline.h"
#include "LaunchRewrite.h"
#include "Options.h"
#include "SMCVariant.h"
#include "SliceVariant.h"
#include "smc/abi.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

using namespace llvm;

namespace smc {

PreservedAnalyses SMCPipelinePass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::string Error;
  TransformSet Transforms = requestedTransforms(Error);
  if (Error.empty())
    kernelFilterValid(Error);
  if (!Error.empty()) {
    M.getContext().diagnose(
        DiagnosticInfoGeneric(Twine("SMC: ") + Error, DS_Error));
    return PreservedAnalyses::all();
  }
  if (!Transforms.any())
    return PreservedAnalyses::all();

  if (!M.getTargetTriple().isNVPTX())
    return LaunchRewritePass().run(M, MAM);

  PreservedAnalyses PA = PreservedAnalyses::all();
  if (Transforms.SMCentric)
    PA.intersect(SMCVariantPass().run(M, MAM));
  MAM.invalidate(M, PA);
  if (Transforms.Slice)
    PA.intersect(SliceVariantPass().run(M, MAM));
  if (Level != OptimizationLevel::O0) {
    FunctionAnalysisManager &FAM =
        MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    FunctionPassManager Tidy;
    Tidy.addPass(SROAPass(SROAOptions::ModifyCFG));
    Tidy.addPass(EarlyCSEPass(/*UseMemorySSA=*/false));
    Tidy.addPass(InstCombinePass());
    Tidy.addPass(SimplifyCFGPass());
    MAM.invalidate(M, PA);
    for (Function &F : M)
      if (!F.isDeclaration() && (F.getName().ends_with(SMC_SUFFIX_SMC) ||
                                 F.getName().ends_with(SMC_SUFFIX_SLICE)))
        Tidy.run(F, FAM);
  }
  return PreservedAnalyses::none();
}

} // namespace smc
