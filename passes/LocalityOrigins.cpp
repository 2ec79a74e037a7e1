//===- LocalityOrigins.cpp - Where the values of a kernel come from -------===//
//
// Part of LocalityAnalysis (LocalityChecker.h): which special register a
// call reads, which memory a pointer points into, and what a value depends
// on (blockIdx.d, threadIdx, a loop, data loaded from a varying address,
// anything else that differs between threads) - the origin that decides
// whether a value is the same for the whole grid.
//===----------------------------------------------------------------------===//
#include "LocalityChecker.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/NVPTXAddrSpace.h"

using namespace llvm;

namespace smc::locality {

SpecialRegister specialRegister(const Value *V) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee)
    return {};
  using SR = SpecialRegister;
  switch (Callee->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    return {SR::CtaId, 0};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    return {SR::CtaId, 1};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    return {SR::CtaId, 2};
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    return {SR::ThreadId, 0};
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
    return {SR::ThreadId, 1};
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
    return {SR::ThreadId, 2};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    return {SR::BlockDim, 0};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    return {SR::BlockDim, 1};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    return {SR::BlockDim, 2};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    return {SR::GridUniform, 0};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    return {SR::GridUniform, 1};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return {SR::GridUniform, 2};
  case Intrinsic::nvvm_read_ptx_sreg_warpsize:
    return {SR::GridUniform, 0};
  default:
    // %laneid, %warpid, %smid, clocks, ...: may differ between threads.
    if (Callee->getName().starts_with("llvm.nvvm.read.ptx.sreg."))
      return {SR::PerThread, 0};
    return {};
  }
}

Space spaceOf(const Value *Ptr) {
  switch (Ptr->getType()->getPointerAddressSpace()) {
  case NVPTXAS::ADDRESS_SPACE_GLOBAL:
    return Space::Global;
  case NVPTXAS::ADDRESS_SPACE_SHARED:
    return Space::Shared;
  case NVPTXAS::ADDRESS_SPACE_LOCAL:
    return Space::Local;
  case NVPTXAS::ADDRESS_SPACE_CONST:
    return Space::Constant;
  case NVPTXAS::ADDRESS_SPACE_PARAM:
    return Space::Param;
  case NVPTXAS::ADDRESS_SPACE_GENERIC:
    break;
  default:
    return Space::Unknown;
  }
  const Value *Object = getUnderlyingObject(Ptr);
  if (Object != Ptr && Object->getType()->isPointerTy() &&
      Object->getType()->getPointerAddressSpace() !=
          NVPTXAS::ADDRESS_SPACE_GENERIC)
    return spaceOf(Object);
  if (const auto *A = dyn_cast<Argument>(Object))
    return A->hasByValAttr() ? Space::Param : Space::Global;
  if (isa<AllocaInst>(Object))
    return Space::Local;
  if (isa<GlobalVariable>(Object))
    return Space::Global;
  return Space::Unknown;
}

SmallVector<const Value *, 2> accessedPointers(const Instruction &I) {
  if (const Value *Ptr = getLoadStorePointerOperand(&I))
    return {Ptr};
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return {RMW->getPointerOperand()};
  if (const auto *CAS = dyn_cast<AtomicCmpXchgInst>(&I))
    return {CAS->getPointerOperand()};
  if (const auto *Copy = dyn_cast<MemTransferInst>(&I))
    return {Copy->getRawDest(), Copy->getRawSource()};
  if (const auto *Set = dyn_cast<MemSetInst>(&I))
    return {Set->getRawDest()};
  return {};
}

bool mayBeGlobal(const Value *Ptr) {
  Space S = spaceOf(Ptr);
  return S == Space::Global || S == Space::Unknown;
}

unsigned KernelChecker::origin(const Value *V, unsigned Depth) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return 0;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return FromOther;
  auto It = Origins.find(I);
  if (It != Origins.end())
    return It->second; // known, or in progress on a cycle (through phis)
  if (Depth > 64)
    return FromOther;
  Origins[I] = 0;
  unsigned O = computeOrigin(I, Depth + 1);
  Origins[I] = O;
  return O;
}

unsigned KernelChecker::computeOrigin(const Instruction *I, unsigned Depth) {
  SpecialRegister R = specialRegister(I);
  switch (R.Kind) {
  case SpecialRegister::CtaId:
    return FromCta << R.Dim;
  case SpecialRegister::ThreadId:
    return FromThread;
  case SpecialRegister::BlockDim:
  case SpecialRegister::GridUniform:
    return 0;
  case SpecialRegister::PerThread:
    return FromThread;
  case SpecialRegister::None:
    break;
  }
  auto OperandsOrigin = [&](const User *U) {
    unsigned O = 0;
    for (const Value *Op : U->operands())
      O |= origin(Op, Depth);
    return O;
  };
  if (const auto *Load = dyn_cast<LoadInst>(I)) {
    unsigned Address = origin(Load->getPointerOperand(), Depth);
    Space S = spaceOf(Load->getPointerOperand());
    bool GridWide = mayBeGlobal(Load->getPointerOperand()) ||
                    S == Space::Constant || S == Space::Param;
    // One address of memory all CTAs see: a value like a kernel argument.
    if (!(Address & Varies) && GridWide && !Load->isVolatile() &&
        !Load->isAtomic())
      return 0;
    return FromLoadedData | Address;
  }
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return FromLoadedData | FromOther;
  if (const auto *Phi = dyn_cast<PHINode>(I)) {
    unsigned O = LI.isLoopHeader(Phi->getParent()) ? FromLoop : 0;
    for (const Value *In : Phi->incoming_values())
      O |= origin(In, Depth);
    return O;
  }
  if (const auto *Call = dyn_cast<CallBase>(I)) {
    unsigned O = 0;
    for (const Value *Arg : Call->args())
      O |= origin(Arg, Depth);
    // Pure intrinsics (min, max, abs, ...) are functions of their
    // arguments; anything else may give each thread something else.
    if (!(Call->getCalledFunction() &&
          Call->getCalledFunction()->isIntrinsic() &&
          Call->doesNotAccessMemory()))
      O |= FromOther;
    return O;
  }
  return OperandsOrigin(I);
}

} // namespace smc::locality
