//===- SliceVariant.cpp - Build the slice variant K__slice ----------------===//
//
// Index rectification (the paper "Kernelet: High-Throughput GPU Kernel
// Executions with Dynamic Slicing and Scheduling"): K__slice(args..., desc) is
// launched as a 1-D grid of `count` CTAs and runs the original chunks
// [slice_offset, slice_offset + count).  Its CTA b computes the chunk
// slice_offset + b and, from the original grid in the descriptor, the
// blockIdx that chunk had; every blockIdx/gridDim read (also in inlined
// callees) reads as in the full launch.  Returns stay returns.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes=smc-slice -S in.ll
//===----------------------------------------------------------------------===//
#include "ABI.h"
#include "GridIndex.h"
#include "TransformPasses.h"
#include "VariantDriver.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace smc {

static Expected<BuiltVariant> buildSliceVariant(Function &K) {
  Expected<VariantStart> Started = startVariant(K, VariantKind::Slice);
  if (!Started)
    return Started.takeError();
  VariantStart &S = *Started;
  IRBuilder<> B(S.V->getContext());
  positionAtEnd(B, S.Entry);
  Value *Offset =
      loadDescField(B, S.Desc, Desc_slice_offset, "smc.slice.offset");
  Value *SliceCTA =
      B.CreateIntrinsic(B.getInt32Ty(), Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                        {}, nullptr, "smc.slice.cta");
  Value *ChunkId = B.CreateAdd(Offset, SliceCTA, "smc.chunk.id");
  std::array<Value *, 3> BlockIdx =
      chunkCoordinates(B, S.Desc, ChunkId, S.Grid[0], S.Grid[1]);
  B.CreateBr(S.Body);

  replaceGridReads(S.Reads, BlockIdx, S.Grid);
  return BuiltVariant{S.V, "index rectification; " +
                               std::to_string(S.NumReads) +
                               " blockIdx/gridDim reads replaced"};
}

PreservedAnalyses SliceVariantPass::run(Module &M, ModuleAnalysisManager &MAM) {
  return runVariantBuilder(
      M, MAM, VariantKind::Slice,
      [](Function &K, const KernelLegality &) { return buildSliceVariant(K); });
}

} // namespace smc
