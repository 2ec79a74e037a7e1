//===- SliceVariant.cpp - Build the slice variant K__slice
//-----------------===//
//
// Index rectification (Kernelet, sec. 4.1): K__slice(args..., desc) is
// launched as a 1-D grid of `count` CTAs and runs the original chunks
// [slice_offset, slice_offset + count).  Its CTA b computes the chunk
// slice_offset + b and, from the original grid in the descriptor, the
// blockIdx that chunk had; every blockIdx/gridDim read (also in inlined
// callees) reads as in the full launch.  Returns stay returns.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes=smc-slice -S in.ll
//===----------------------------------------------------------------------===//
#include "SliceVariant.h"
#include "ABI.h"
#include "GridIndex.h"
#include "VariantDriver.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace smc {

static Function *buildSliceVariant(Function &K, SmcRefusal &Refusal,
                                   std::string &Message, std::string &Summary) {
  VariantStart S;
  if (!startVariant(K, SMC_SUFFIX_SLICE, S, Refusal, Message))
    return nullptr;
  IRBuilder<> B(S.V->getContext());
  positionAtEnd(B, S.Entry);
  Value *Offset =
      loadDescField(B, S.Desc, Desc_slice_offset, "smc.slice.offset");
  Value *SliceCTA =
      B.CreateIntrinsic(B.getInt32Ty(), Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                        {}, nullptr, "smc.slice.cta");
  Value *ChunkId = B.CreateAdd(Offset, SliceCTA, "smc.chunk.id");
  std::array<Value *, 3> BlockIdx =
      chunkCoordinates(B, ChunkId, S.Grid[0], S.Grid[1]);
  B.CreateBr(S.Body);

  replaceGridReads(S.Reads, BlockIdx, S.Grid);
  Summary = "index rectification; " + std::to_string(S.NumReads) +
            " blockIdx/gridDim reads replaced";
  return S.V;
}
PreservedAnalyses SliceVariantPass::run(Module &M, ModuleAnalysisManager &MAM) {
  return runVariantBuilder(
      M, MAM, /*Slice=*/true,
      [&](Function &K, const KernelLegality &, SmcRefusal &Refusal,
          std::string &Message, std::string &Summary) {
        return buildSliceVariant(K, Refusal, Message, Summary);
      });
}

} // namespace smc
