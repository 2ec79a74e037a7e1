//===- Pipeline.cpp - What -fpass-plugin=SMCPasses.so runs ----------------===//
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
#include "ABI.h"
#include "Diagnostics.h"
#include "Options.h"
#include "TransformPasses.h"

#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

using namespace llvm;

namespace smc {

PreservedAnalyses SMCPipelinePass::run(Module &M, ModuleAnalysisManager &MAM) {
  Expected<TransformSet> Requested = requestedTransforms();
  Error Bad = Requested ? checkKernelFilter() : Requested.takeError();
  if (Bad) {
    reportError(M.getContext(), std::move(Bad));
    return PreservedAnalyses::all();
  }
  const TransformSet &Transforms = *Requested;
  if (!Transforms.any())
    return PreservedAnalyses::all();

  if (!M.getTargetTriple().isNVPTX())
    return LaunchRewritePass().run(M, MAM);

  // The locality class first: it describes the kernels as they are.
  PreservedAnalyses PA = LocalityRecordPass().run(M, MAM);
  MAM.invalidate(M, PA);
  if (Transforms.has(VariantKind::SMCentric))
    PA.intersect(SMCVariantPass().run(M, MAM));
  MAM.invalidate(M, PA);
  if (Transforms.has(VariantKind::Slice))
    PA.intersect(SliceVariantPass().run(M, MAM));
  MAM.invalidate(M, PA);
  if (Transforms.has(VariantKind::Remap))
    PA.intersect(RemapVariantPass().run(M, MAM));
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
      if (!F.isDeclaration() && isVariantName(F.getName()))
        Tidy.run(F, FAM);
  }
  return PreservedAnalyses::none();
}

} // namespace smc
