//===- RemapVariant.cpp - Build K__remap and its inspector K__remap_keys --===//
//
// Thread-data remapping by reference redirection (G-Streamline, "Locality
// Enhancement and Dynamic Optimizations on Multi-Core and GPU", chapters
// 2-3), made automatic: the dissertation's programmer wrote the remap
// calls and the condition function; here the plugin finds the key
// (RemapAnalysis.h) and builds both kernels from a simplified clone of K:
//
//   K__remap(args..., desc)       t = ctaid.x * ntid.x + tid.x
//                                 job = t < remap_count ? remap_table[t] : t
//                                 blockIdx.x = job / ntid.x,
//                                 threadIdx.x = job % ntid.x in the whole
//                                 body; everything else as in K
//   K__remap_keys(args..., desc)  K up to the key load, then
//                                 remap_keys[t] = key(value) for t <
//                                 remap_count, and return; every branch
//                                 away from the load returns at once
//
// The runtime (runtime/remap/) runs the inspector, sorts the jobs by key on
// the GPU into remap_table, and launches K__remap with the original grid
// (1-D grid and block only).  Any permutation is a legal remap, because the
// analysis admits only kernels whose threads never work together: a stale
// or partial table costs speed, never correctness.  The key is the loaded
// value made an unsigned 32-bit number whose order is the value's order
// (signed integers and floats with their sign bit flipped, negative floats
// all bits; 64-bit values clamped or rounded to 32 bits, pointers by their
// address / 4: approximations that only group less well).
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes=smc-remap -S in.ll
//===----------------------------------------------------------------------===//
#include "ABI.h"
#include "Diagnostics.h"
#include "GridIndex.h"
#include "KernelInfo.h"
#include "Legality.h"
#include "RemapAnalysis.h"
#include "TransformPasses.h"
#include "VariantDriver.h"
#include "runtime/base/KernelName.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE SMC_NAME

using namespace llvm;

namespace smc {

namespace {

Value *readSreg(IRBuilderBase &B, Intrinsic::ID Id, const char *Name) {
  return B.CreateIntrinsic(B.getInt32Ty(), Id, {}, nullptr, Name);
}

// The thread's global index t = ctaid.x * ntid.x + tid.x, as the hardware
// numbers it.
Value *hardwareThread(IRBuilderBase &B, Value *&NtidX) {
  NtidX = readSreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x, "remap.ntid");
  Value *Cta = readSreg(B, Intrinsic::nvvm_read_ptx_sreg_ctaid_x, "remap.cta");
  Value *Tid = readSreg(B, Intrinsic::nvvm_read_ptx_sreg_tid_x, "remap.tid");
  return B.CreateAdd(B.CreateMul(Cta, NtidX), Tid, "remap.thread");
}

// The unsigned 32-bit key whose order is V's order (see the file header).
Value *orderedKey(IRBuilderBase &B, Value *V) {
  Type *I32 = B.getInt32Ty();
  Type *T = V->getType();
  if (T->isPointerTy())
    return B.CreateTrunc(B.CreateLShr(B.CreatePtrToInt(V, B.getInt64Ty()), 2),
                         I32, "remap.key");
  if (T->isFloatingPointTy()) {
    if (!T->isFloatTy())
      V = B.CreateFPCast(V, B.getFloatTy());
    Value *Bits = B.CreateBitCast(V, I32);
    Value *Mask = B.CreateOr(B.CreateAShr(Bits, 31), B.getInt32(0x80000000u));
    return B.CreateXor(Bits, Mask, "remap.key");
  }
  unsigned Width = T->getIntegerBitWidth();
  if (Width == 1)
    return B.CreateZExt(V, I32, "remap.key");
  if (Width > 32) {
    Value *Lo = ConstantInt::getSigned(T, INT32_MIN);
    Value *Hi = ConstantInt::getSigned(T, INT32_MAX);
    V = B.CreateSelect(B.CreateICmpSLT(V, Lo), Lo, V);
    V = B.CreateSelect(B.CreateICmpSGT(V, Hi), Hi, V);
  }
  return B.CreateXor(B.CreateSExtOrTrunc(V, I32), B.getInt32(0x80000000u),
                     "remap.key");
}

// Turns Inspector (a copy of the variant's simplified clone) into
// K__remap_keys: the blocks on a path from the entry to Key, then the key's
// store; every other way returns.
void buildInspector(Function &Inspector, LoadInst &Key) {
  LLVMContext &Ctx = Inspector.getContext();
  Argument *Desc = Inspector.getArg(Inspector.arg_size() - 1);
  BasicBlock *KeyBlock = Key.getParent();
  SmallPtrSet<BasicBlock *, 32> Before = blocksBefore(*KeyBlock);

  BasicBlock *Return = BasicBlock::Create(Ctx, "remap.nokey", &Inspector);
  ReturnInst::Create(Ctx, Return);
  for (BasicBlock *BB : Before) {
    if (BB == KeyBlock)
      continue;
    Instruction *Term = BB->getTerminator();
    for (unsigned I = 0, N = Term->getNumSuccessors(); I < N; ++I)
      if (!Before.count(Term->getSuccessor(I)))
        Term->setSuccessor(I, Return);
  }
  // The key's store, right after the load.
  KeyBlock->splitBasicBlock(Key.getNextNode(), "remap.rest");
  KeyBlock->getTerminator()->eraseFromParent();
  IRBuilder<> B(KeyBlock);
  B.SetCurrentDebugLocation(Key.getDebugLoc());
  Value *Ntid = nullptr;
  Value *Thread = hardwareThread(B, Ntid);
  Value *KeyValue = orderedKey(B, &Key);
  Value *Count = loadDescField(B, Desc, Desc_remap_count, "remap.count");
  BasicBlock *Store = BasicBlock::Create(Ctx, "remap.store", &Inspector);
  B.CreateCondBr(B.CreateICmpULT(Thread, Count), Store, Return);
  B.SetInsertPoint(Store);
  Value *Keys = loadDescField(B, Desc, Desc_remap_keys, "remap.keys");
  B.CreateStore(KeyValue,
                B.CreateInBoundsGEP(B.getInt32Ty(), Keys,
                                    B.CreateZExt(Thread, B.getInt64Ty())));
  B.CreateRetVoid();
  removeUnreachableBlocks(Inspector);
}

// Rewrites V's reads of blockIdx.x and threadIdx.x as those of the job the
// remap table gives the thread (and reads blockDim.x once, so that the
// optimizer folds blockIdx.x * blockDim.x + threadIdx.x back to the job).
void redirectJobs(Function &V) {
  LLVMContext &Ctx = V.getContext();
  Argument *Desc = V.getArg(V.arg_size() - 1);
  const Intrinsic::ID Registers[] = {Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                     Intrinsic::nvvm_read_ptx_sreg_tid_x,
                                     Intrinsic::nvvm_read_ptx_sreg_ntid_x};
  SmallVector<CallInst *, 8> Reads[3];
  for (Instruction &I : instructions(V))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      for (unsigned D = 0; D < 3; ++D)
        if (II->getIntrinsicID() == Registers[D])
          Reads[D].push_back(II);
  BasicBlock *Body = &V.getEntryBlock();
  BasicBlock *Entry = BasicBlock::Create(Ctx, "remap.entry", &V, Body);
  moveStaticAllocas(*Body, *Entry);
  IRBuilder<> B(Ctx);
  positionAtEnd(B, Entry);
  Value *Ntid = nullptr;
  Value *Thread = hardwareThread(B, Ntid);
  Value *Count = loadDescField(B, Desc, Desc_remap_count, "remap.count");
  BasicBlock *Lookup = BasicBlock::Create(Ctx, "remap.lookup", &V, Body);
  BasicBlock *Job = BasicBlock::Create(Ctx, "remap.job", &V, Body);
  B.CreateCondBr(B.CreateICmpULT(Thread, Count), Lookup, Job);
  positionAtEnd(B, Lookup);
  Value *Table = loadDescField(B, Desc, Desc_remap_table, "remap.table");
  Value *Slot = B.CreateInBoundsGEP(B.getInt32Ty(), Table,
                                    B.CreateZExt(Thread, B.getInt64Ty()));
  Value *Mapped = B.CreateLoad(B.getInt32Ty(), Slot, "remap.mapped");
  B.CreateBr(Job);
  positionAtEnd(B, Job);
  PHINode *JobId = B.CreatePHI(B.getInt32Ty(), 2, "remap.job.id");
  JobId->addIncoming(Mapped, Lookup);
  JobId->addIncoming(Thread, Entry);
  Value *BlockX = B.CreateUDiv(JobId, Ntid, "remap.blockIdx.x");
  Value *ThreadX =
      B.CreateSub(JobId, B.CreateMul(BlockX, Ntid), "remap.threadIdx.x");
  B.CreateBr(Body);
  Value *Replacements[] = {BlockX, ThreadX, Ntid};
  for (unsigned D = 0; D < 3; ++D)
    for (CallInst *Read : Reads[D]) {
      Read->replaceAllUsesWith(Replacements[D]);
      Read->eraseFromParent();
    }
}

} // namespace

static Expected<BuiltVariant> buildRemapVariant(Function &K,
                                                const KernelLegality &L,
                                                FunctionAnalysisManager &FAM) {
  if (L.Ordered)
    return make_error<RefusalError>(SMC_REFUSAL_THREADS_COUPLED,
                                    "its CTAs wait on each other: " +
                                        L.Ordered.describe());
  Function *V = simplifiedRemapClone(K, SMC_SUFFIX_REMAP, FAM);
  KernelRemap R = analyseRemap(*V);
  OptimizationRemarkEmitter ORE(&K);
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(RemarkName, "Remap", &K)
           << "kernel '" << kernelSourceName(K.getName())
           << "': " << R.describe();
  });
  if (!R.remappable()) {
    V->eraseFromParent();
    return make_error<RefusalError>(R.Refusal, R.Detail);
  }
  // The inspector from the same simplified clone, before V is rewritten.
  ValueToValueMapTy VMap;
  Function *Inspector = CloneFunction(V, VMap);
  Inspector->setName(K.getName() + SMC_SUFFIX_REMAP_KEYS);
  buildInspector(*Inspector, *cast<LoadInst>(VMap[R.key().Key]));
  std::string Key = R.key().describe();
  SmcRemapKey Kind = R.key().Kind;
  redirectJobs(*V);
  FAM.clear(*V, V->getName());
  FAM.clear(*Inspector, Inspector->getName());
  recordRemapKey(K, Kind);
  return BuiltVariant{V, "thread-data remapping by " + Key + "; inspector " +
                             Inspector->getName().str()};
}

PreservedAnalyses RemapVariantPass::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  return runVariantBuilder(M, MAM, VariantKind::Remap,
                           [&](Function &K, const KernelLegality &L) {
                             return buildRemapVariant(K, L, FAM);
                           });
}

} // namespace smc
