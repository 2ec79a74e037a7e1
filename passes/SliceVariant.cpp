//===- SliceVariant.cpp - Build the slice variant K__slice -----------------===//
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
                                   std::string &Message,
                                   std::string &Summary) {
  Function *V = cloneWithDescriptor(K, SMC_SUFFIX_SLICE);
  std::string Failed;
  if (!inlineGridReaders(*V, Failed)) {
    V->eraseFromParent();
    Refusal = SMC_REFUSAL_NOT_INLINABLE;
    Message = "call of " + Failed;
    return nullptr;
  }
  GridReads Reads = collectGridReads(*V);
  unsigned NumReads = Reads.count();

  LLVMContext &Ctx = V->getContext();
  Argument *Desc = V->getArg(V->arg_size() - 1);
  BasicBlock *Body = &V->getEntryBlock();
  auto *Entry = BasicBlock::Create(Ctx, "smc.slice.entry", V, Body);
  moveStaticAllocas(*Body, *Entry);
  IRBuilder<> B(Entry);
  if (DISubprogram *SP = V->getSubprogram())
    B.SetCurrentDebugLocation(DILocation::get(Ctx, SP->getLine(), 0, SP));
  std::array<Value *, 3> Grid = {
      loadDescField(B, Desc, Desc_grid_x, "smc.gridDim.x"),
      loadDescField(B, Desc, Desc_grid_y, "smc.gridDim.y"),
      loadDescField(B, Desc, Desc_grid_z, "smc.gridDim.z")};
  Value *Offset = loadDescField(B, Desc, Desc_slice_offset, "smc.slice.offset");
  Value *SliceCTA = B.CreateIntrinsic(
      B.getInt32Ty(), Intrinsic::nvvm_read_ptx_sreg_ctaid_x, {}, nullptr,
      "smc.slice.cta");
  Value *ChunkId = B.CreateAdd(Offset, SliceCTA, "smc.chunk.id");
  std::array<Value *, 3> BlockIdx =
      chunkCoordinates(B, ChunkId, Grid[0], Grid[1]);
  B.CreateBr(Body);

  replaceGridReads(Reads, BlockIdx, Grid);
  Summary = "index rectification; " + std::to_string(NumReads) +
            " blockIdx/gridDim reads replaced";
  return V;
}

PreservedAnalyses SliceVariantPass::run(Module &M,
                                        ModuleAnalysisManager &MAM) {
  return runVariantBuilder(
      M, MAM, /*Slice=*/true,
      [&](Function &K, const KernelLegality &, SmcRefusal &Refusal,
          std::string &Message, std::string &Summary) {
        return buildSliceVariant(K, Refusal, Message, Summary);
      });
}

} // namespace smc
