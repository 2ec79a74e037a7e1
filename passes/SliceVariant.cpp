//===- SliceVariant.cpp - Build the slice variant K__slice ----------------===//
//
// Index rectification (the paper "Kernelet: High-Throughput GPU Kernel
// Executions with Dynamic Slicing and Scheduling"): K__slice(args..., desc)
// runs a range of the original chunks, and every blockIdx/gridDim read (also
// in inlined callees) reads as in the full launch.  Returns stay returns.
// Two launch shapes (the runtime's choice, runtime/QueuePlan.h):
//   - a 1-D grid of `count` CTAs for the chunks [slice_offset, slice_offset +
//     count): CTA b computes chunk slice_offset + b and, from the original
//     grid in the descriptor, the blockIdx that chunk had (a division by
//     multiply-high per thread for 2-D and 3-D grids);
//   - whole rows of a 2-D or 3-D grid as a grid of that shape (gridDim.y or
//     .z above 1): CTA (x, y, z) is blockIdx (x, y + slice_first_y, z +
//     slice_first_z), two adds.  For hotspot's 2-D grid in one slice the
//     1-D form executed 14% more warp instructions than the original
//     (Nsight Compute, H100) and took 1.088x its time.
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
  LLVMContext &Ctx = S.V->getContext();
  IRBuilder<> B(Ctx);
  positionAtEnd(B, S.Entry);
  auto Sreg = [&](Intrinsic::ID Id, const char *Name) {
    return B.CreateIntrinsic(B.getInt32Ty(), Id, {}, nullptr, Name);
  };
  Value *SliceCTA =
      Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, "smc.slice.cta");
  // Launched with gridDim.y or .z above 1: whole rows, laid out as the
  // original grid's (uniform: every thread of the launch takes one side).
  Value *LaunchY = Sreg(Intrinsic::nvvm_read_ptx_sreg_nctaid_y, "smc.slice.ny");
  Value *LaunchZ = Sreg(Intrinsic::nvvm_read_ptx_sreg_nctaid_z, "smc.slice.nz");
  // Both are at least 1: their sum is 2 only when both are 1.
  Value *Shaped = B.CreateICmpNE(B.CreateAdd(LaunchY, LaunchZ, "smc.slice.nyz"),
                                 B.getInt32(2), "smc.slice.shaped");
  auto *Rows = BasicBlock::Create(Ctx, "smc.slice.rows", S.V, S.Body);
  auto *Linear = BasicBlock::Create(Ctx, "smc.slice.linear", S.V, S.Body);
  auto *Merge = BasicBlock::Create(Ctx, "smc.slice.blockIdx", S.V, S.Body);
  B.CreateCondBr(Shaped, Rows, Linear);

  positionAtEnd(B, Rows);
  std::array<Value *, 3> Shifted = {
      SliceCTA,
      B.CreateAdd(
          Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_y, "smc.rows.y"),
          loadDescField(B, S.Desc, Desc_slice_first_y, "smc.slice.first.y"),
          "smc.rows.by"),
      B.CreateAdd(
          Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_z, "smc.rows.z"),
          loadDescField(B, S.Desc, Desc_slice_first_z, "smc.slice.first.z"),
          "smc.rows.bz")};
  BasicBlock *RowsEnd = B.GetInsertBlock();
  B.CreateBr(Merge);

  positionAtEnd(B, Linear);
  Value *Offset =
      loadDescField(B, S.Desc, Desc_slice_offset, "smc.slice.offset");
  Value *ChunkId = B.CreateAdd(Offset, SliceCTA, "smc.chunk.id");
  std::array<Value *, 3> Linearized = chunkCoordinates(
      B, S.Desc, ChunkId, S.Grid[0], S.Grid[1], "smc.linear.blockIdx");
  BasicBlock *LinearEnd = B.GetInsertBlock();
  B.CreateBr(Merge);

  positionAtEnd(B, Merge);
  std::array<Value *, 3> BlockIdx;
  const char *Names[3] = {"smc.blockIdx.x", "smc.blockIdx.y", "smc.blockIdx.z"};
  for (unsigned D = 0; D < 3; ++D) {
    PHINode *Phi = B.CreatePHI(B.getInt32Ty(), 2, Names[D]);
    Phi->addIncoming(Shifted[D], RowsEnd);
    Phi->addIncoming(Linearized[D], LinearEnd);
    BlockIdx[D] = Phi;
  }
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
