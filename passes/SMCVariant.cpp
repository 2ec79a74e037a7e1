//===- SMCVariant.cpp - Build the SM-centric variant K__smc ---------------===//
//
// K__smc(args..., desc) is K wrapped in a loop over chunks:
//
//   smc.entry:    K's static allocas; worker state; the original grid from
//                 the descriptor; first = __smc_dev_first_chunk(desc, state)
//   smc.dispatch: chunk = phi(first, next); chunk == NONE -> smc.exit
//   smc.chunk:    blockIdx of the chunk; __smc_dev_chunk_begin; -> K's body
//   K's body:     blockIdx/gridDim reads (also those of inlined callees)
//                 replaced; every `ret` -> smc.next (a return ends the chunk)
//   smc.next:     next = __smc_dev_next_chunk(desc, state) -> smc.dispatch
//   smc.exit:     ret
//
// With drained exits (a thread may end its chunk while others of the CTA
// still reach barriers), K's body first goes through funnelBarriers
// (DrainedExits.cpp): threads that have ended the chunk keep arriving at
// the barriers the others still reach.
//
// The worker protocol (filling-retreating, per-SM queues, stealing, the
// barrier between chunks that keeps shared memory safe) is in
// runtime/device/SmcWorker.cu and is inlined here.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes=smc-variant -S in.ll
//===----------------------------------------------------------------------===//
#include "ABI.h"
#include "DeviceLibrary.h"
#include "Diagnostics.h"
#include "DrainedExits.h"
#include "GridIndex.h"
#include "Legality.h"
#include "TransformPasses.h"
#include "VariantDriver.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <functional>
#include <optional>

using namespace llvm;

namespace smc {

/// Do the threads of a chunk of K's body (every block of \p V but \p Entry)
/// share anything but global memory: a barrier, shared memory (a use of a
/// __shared__ variable, static or dynamic, or a shared-space pointer), or a
/// call or inline assembly that might use them?  Where not, a worker's warps
/// need no barrier between the chunks of a claimed batch (abi.h,
/// SMC_DEVICE_NEXT_CHUNK).
static bool chunkThreadsCooperate(Function &V, BasicBlock &Entry) {
  auto IsShared = [](const Value *Val) {
    auto *PtrTy = dyn_cast<PointerType>(Val->getType());
    return PtrTy && PtrTy->getAddressSpace() == 3;
  };
  SmallPtrSet<const Constant *, 16> Seen;
  std::function<bool(const Constant *)> MentionsShared =
      [&](const Constant *C) {
        if (!Seen.insert(C).second)
          return false;
        if (IsShared(C))
          return true;
        for (const Use &Op : C->operands())
          if (auto *Inner = dyn_cast<Constant>(Op.get());
              Inner && MentionsShared(Inner))
            return true;
        return false;
      };
  for (BasicBlock &BB : V) {
    if (&BB == &Entry)
      continue;
    for (Instruction &I : BB) {
      if (IsShared(&I))
        return true;
      for (const Use &Op : I.operands())
        if (IsShared(Op.get()) || (isa<Constant>(Op.get()) &&
                                   MentionsShared(cast<Constant>(Op.get()))))
          return true;
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      Function *Callee = Call->getCalledFunction();
      if (!Callee || !Callee->isIntrinsic())
        return true; // inline asm, indirect or ordinary calls
      StringRef Name = Callee->getName();
      if (Name.contains("barrier") || Name.contains(".bar.") ||
          Name.contains("cp.async") || Name.contains("shared"))
        return true;
    }
  }
  return false;
}

static Expected<BuiltVariant> buildSMCVariant(Function &K,
                                              const KernelLegality &L,
                                              const DeviceLibrary &Lib) {
  Expected<VariantStart> Started = startVariant(K, VariantKind::SMCentric);
  if (!Started)
    return Started.takeError();
  VariantStart &S = *Started;
  Function *V = S.V;
  SmallVector<ReturnInst *, 4> Returns;
  SmallVector<CallInst *, 4> Barriers; // drained exits: K's barriers
  bool Drained = L.Drained && !L.OneChunk;
  for (Instruction &I : instructions(*V))
    if (auto *Ret = dyn_cast<ReturnInst>(&I))
      Returns.push_back(Ret);
    else if (auto *Call = dyn_cast<CallInst>(&I);
             Call && Drained && isDrainableBarrier(*Call))
      Barriers.push_back(Call);
  if (Drained)
    funnelBarriers(*V, *S.Entry, *S.Body, Barriers, Returns);
  bool Independent = !chunkThreadsCooperate(*V, *S.Entry);

  LLVMContext &Ctx = V->getContext();
  Argument *Desc = S.Desc;
  BasicBlock *Entry = S.Entry, *Body = S.Body;
  auto *Dispatch = BasicBlock::Create(Ctx, "smc.dispatch", V, Body);
  auto *Chunk = BasicBlock::Create(Ctx, "smc.chunk", V, Body);
  auto *Next = BasicBlock::Create(Ctx, "smc.next", V);
  auto *Exit = BasicBlock::Create(Ctx, "smc.exit", V);

  IRBuilder<> B(Ctx);
  positionAtEnd(B, Entry);
  Type *I32 = B.getInt32Ty();
  Value *State = B.CreateAlloca(ArrayType::get(I32, SMC_WORKER_STATE_WORDS),
                                nullptr, "smc.state");
  const std::array<Value *, 3> &Grid = S.Grid;
  SmallVector<CallInst *, 3> LibCalls;
  LibCalls.push_back(B.CreateCall(Lib.FirstChunk, {Desc, State}, "smc.first"));
  B.CreateBr(Dispatch);

  B.SetInsertPoint(Dispatch);
  PHINode *ChunkId = B.CreatePHI(I32, 2, "smc.chunk.id");
  ChunkId->addIncoming(LibCalls.back(), Entry);
  B.CreateCondBr(B.CreateICmpEQ(ChunkId, B.getInt32(SMC_NO_CHUNK), "smc.done"),
                 Exit, Chunk);

  B.SetInsertPoint(Chunk);
  std::array<Value *, 3> BlockIdx =
      chunkCoordinates(B, Desc, ChunkId, Grid[0], Grid[1]);
  LibCalls.push_back(B.CreateCall(Lib.ChunkBegin, {Desc, State}));
  B.CreateBr(Body);

  for (ReturnInst *Ret : Returns) {
    BranchInst::Create(Next, Ret->getIterator());
    Ret->eraseFromParent();
  }
  B.SetInsertPoint(Next);
  LibCalls.push_back(B.CreateCall(
      Lib.NextChunk, {Desc, State, B.getInt32(Independent)}, "smc.next"));
  ChunkId->addIncoming(LibCalls.back(), Next);
  B.CreateBr(Dispatch);

  B.SetInsertPoint(Exit);
  B.CreateRetVoid();

  replaceGridReads(S.Reads, BlockIdx, Grid);
  for (CallInst *Call : LibCalls) {
    InlineFunctionInfo IFI;
    if (!InlineFunction(*Call, IFI).isSuccess()) {
      V->eraseFromParent();
      return make_error<RefusalError>(SMC_REFUSAL_NOT_INLINABLE,
                                      "the SMC worker library");
    }
  }
  std::string Summary = L.OneChunk
                            ? "one chunk per worker: " + L.OneChunk.describe()
                            : std::string("persistent workers");
  if (Drained)
    Summary += ", drained exits: " + L.Drained.describe();
  // The reason and the line of the wait, so the user sees why the variant
  // ignores the queue orders.
  if (L.Ordered)
    Summary += "; chunks in blockIdx order: " + L.Ordered.describe();
  Summary +=
      "; " + std::to_string(S.NumReads) + " blockIdx/gridDim reads replaced";
  return BuiltVariant{V, std::move(Summary)};
}

PreservedAnalyses SMCVariantPass::run(Module &M, ModuleAnalysisManager &MAM) {
  // Linked on the first kernel that gets a variant.
  std::optional<DeviceLibrary> Lib;
  PreservedAnalyses PA = runVariantBuilder(
      M, MAM, VariantKind::SMCentric,
      [&](Function &K, const KernelLegality &L) -> Expected<BuiltVariant> {
        if (!Lib) {
          Expected<DeviceLibrary> Linked = linkDeviceLibrary(M);
          if (!Linked)
            return Linked.takeError();
          Lib = *Linked;
        }
        return buildSMCVariant(K, L, *Lib);
      });
  dropUnusedDeviceLibrary(M);
  return PA;
}

} // namespace smc
