//===- SliceVariant.cpp - Build the slice variant K__slice ----------------===//
//
// Index rectification (the paper "Kernelet: High-Throughput GPU Kernel
// Executions with Dynamic Slicing and Scheduling"): K__slice(args..., desc)
// runs a range of the original chunks, and every blockIdx/gridDim read (also
// in inlined callees) reads as in the full launch.  Returns stay returns.
// The runtime launches a slice in one of two shapes
// (runtime/plan/QueuePlan.h), and the variant computes blockIdx the same way
// for both:
//
//   c = slice_offset + ctaid.x
//   blockIdx = (c, ctaid.y + slice_first_y, ctaid.z + slice_first_z)  if c <
//              grid_x (the first row: every slice of a 1-D grid, and whole
//              rows, whose slice_offset is 0)
//            = c decomposed with the original grid                   else
//              (1-D slices of a 2-D/3-D grid, whose ctaid.y/z and
//              slice_first_y/z are 0)
//
//   - a 1-D grid of `count` CTAs for the chunks [slice_offset, slice_offset +
//     count) (slice_first_y/z are 0): CTA b runs chunk slice_offset + b,
//     decomposed with the original grid from the descriptor (multiply-high,
//     no division, and only past the first row: chunkCoordinates);
//   - whole rows of a 2-D or 3-D grid as a grid of that shape (slice_offset
//     is 0): CTA (x, y, z) is blockIdx (x, y + slice_first_y, z +
//     slice_first_z).  For hotspot's 2-D grid in one slice the 1-D form
//     executed 14% more warp instructions than the original (Nsight
//     Compute, H100) and took 1.088x its time.
// No test of the launch's shape: a 1-D grid pays one add and the first-row
// compare over its original.  With a shape test (nctaid.y + nctaid.z != 2)
// in front, stencil's CTAs of about 1 us took 1.056x the original's time
// in one slice (H100).
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
  // One formula for both launch shapes (see the file's header).  Past the
  // first row only 1-D slices of 2-D/3-D grids decompose, and their ctaid.y
  // and .z and slice_first_y/z are 0: the rows' adds are left out there.
  Value *Offset =
      loadDescField(B, S.Desc, Desc_slice_offset, "smc.slice.offset");
  Value *ChunkId = B.CreateAdd(
      Offset, Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, "smc.slice.cta"),
      "smc.chunk.id");
  Value *RowY = B.CreateAdd(
      Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_y, "smc.rows.y"),
      loadDescField(B, S.Desc, Desc_slice_first_y, "smc.slice.first.y"),
      "smc.rows.by");
  Value *RowZ = B.CreateAdd(
      Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_z, "smc.rows.z"),
      loadDescField(B, S.Desc, Desc_slice_first_z, "smc.slice.first.z"),
      "smc.rows.bz");
  std::array<Value *, 3> BlockIdx = chunkCoordinates(
      B, S.Desc, ChunkId, S.Grid[0], S.Grid[1], "smc.blockIdx", RowY, RowZ);
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
