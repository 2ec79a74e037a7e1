//===- LegalityWaits.cpp - Loops that wait for another CTA ----------------===//
//
// Part of LegalityAnalysis (LegalityChecks.h).  A loop whose exit depends on
// memory another CTA writes (a volatile, atomic or inline-assembly load,
// CUB's decoupled look-back with __nanosleep back-off, in the kernel or a
// callee), and that writes nothing itself, relies on the hardware starting
// CTAs in blockIdx order.  Such a kernel's chunks are claimed in blockIdx
// order from one grid-wide sequence (ordered mode; runtime/device/
// SmcWorker.cu says why that keeps the original's progress guarantee),
// unless the wait has the shape of a grid-wide barrier built by hand, which
// waits for CTAs that come later: that is refused.  What a call does to
// memory other CTAs see is summarized per function, callees included, and
// by the text of inline assembly.
//===----------------------------------------------------------------------===//
#include "LegalityChecks.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/NVPTXAddrSpace.h"

using namespace llvm;

namespace smc::legality {

namespace {

// The memory effect of one PTX statement list, by the opcode of each
// statement: loads outside shared/local/param/const space read what other
// CTAs write (in a wait loop CUB's ld.relaxed/ld.acquire/ld.cg wrappers);
// stores, reductions, bulk copies and mbarrier operations write; an atom
// reads, and writes only if its result is unused (see loopWrites).
// nanosleep, fences, barriers, votes and arithmetic touch no memory.
CrossCTAEffect asmEffect(const InlineAsm &Asm) {
  CrossCTAEffect E;
  for (StringRef Stmt : split(Asm.getAsmString(), ';')) {
    Stmt = Stmt.trim().ltrim("{").trim();
    if (Stmt.starts_with("@")) // predicate guard
      Stmt = Stmt.drop_until(isSpace).trim();
    StringRef Op = Stmt.take_until(isSpace);
    auto Local = [&] {
      return Op.contains(".shared") || Op.contains(".local") ||
             Op.contains(".param") || Op.contains(".const");
    };
    if (Op.starts_with("ld.") || Op.starts_with("ldu."))
      E.Reads |= !Local();
    else if (Op.starts_with("atom.") || Op.starts_with("atomic."))
      E.Reads = E.Atomic = E.Atomic || !Local();
    else if (Op.starts_with("st.") || Op.starts_with("red.") ||
             Op.starts_with("cp.") || Op.starts_with("mbarrier.") ||
             Op.starts_with("multimem.") || Op == "call")
      E.Writes |= !Op.contains(".local");
  }
  return E;
}

bool isLocalPointer(const Value *Ptr) {
  return Ptr->getType()->getPointerAddressSpace() ==
             NVPTXAS::ADDRESS_SPACE_LOCAL ||
         isa<AllocaInst>(pointerBase(Ptr));
}

bool isCrossCTARead(const Instruction &I) {
  unsigned AS;
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    if (!LI->isVolatile() && !LI->isAtomic())
      return false;
    AS = LI->getPointerAddressSpace();
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    AS = RMW->getPointerAddressSpace();
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    AS = CX->getPointerAddressSpace();
  } else {
    return false;
  }
  return AS != NVPTXAS::ADDRESS_SPACE_SHARED &&
         AS != NVPTXAS::ADDRESS_SPACE_LOCAL;
}

// Records a write to *Ptr in E: nothing for the thread's own stack, the
// argument's bit for memory the caller passed in (also through a pointer
// held in that memory, like the result reference a -O0 libcu++ functor
// keeps in `this`), a write otherwise.  Attributing a write to an
// argument that the caller shows to be local can only make a loop look
// like a wait, which costs ordered mode, never safety.
void noteWrite(CrossCTAEffect &E, const Value *Ptr) {
  if (isLocalPointer(Ptr))
    return;
  const Value *Base = pointerBase(Ptr);
  for (unsigned Depth = 0; Depth < 4; ++Depth)
    if (auto *Held = dyn_cast<LoadInst>(Base))
      Base = pointerBase(Held->getPointerOperand());
  if (isa<AllocaInst>(Base))
    return;
  if (auto *Arg = dyn_cast<Argument>(Base))
    if (Arg->getArgNo() < 64) {
      E.WritesArgs |= uint64_t(1) << Arg->getArgNo();
      return;
    }
  E.Writes = true;
}

bool testedInLoop(const Instruction &I, const Loop &L) {
  for (const User *U : I.users())
    if (const auto *UI = dyn_cast<Instruction>(U))
      if (L.contains(UI))
        return true;
  return false;
}

// Walks the values \p Start is computed from, depth first, and returns
// the first instruction \p Visit accepts (Found), or null.  Visit may
// also stop the walk at an instruction (its operands are not computation
// of the value: a call, the address of a load).  A non-volatile reload of
// a local variable (-O0) stands for what is written into the variable:
// stored values, calls that write it through a pointer (pushed as the
// call), memcpy from another local.  With \p Within only instructions of
// that loop are visited.
enum class WalkStep { Found, Stop, Expand };
template <typename VisitFn>
const Instruction *walkSources(const Value *Start, const Loop *Within,
                               VisitFn Visit) {
  SmallVector<const Value *, 32> Stack{Start};
  SmallPtrSet<const Value *, 32> Seen;
  while (!Stack.empty() && Seen.size() < 256) {
    const Value *V = Stack.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (auto *Local = dyn_cast<AllocaInst>(V)) {
      for (const Instruction &I : instructions(*Local->getFunction())) {
        if (Within && !Within->contains(I.getParent()))
          continue;
        auto Into = [&](const Value *Ptr) {
          return getUnderlyingObject(Ptr) == Local;
        };
        if (auto *SI = dyn_cast<StoreInst>(&I)) {
          if (Into(SI->getPointerOperand()))
            Stack.push_back(SI->getValueOperand());
        } else if (auto *Copy = dyn_cast<MemTransferInst>(&I)) {
          if (Into(Copy->getRawDest()))
            Stack.push_back(getUnderlyingObject(Copy->getRawSource()));
        } else if (auto *Call = dyn_cast<CallBase>(&I)) {
          if (any_of(Call->args(), [&](const Use &A) {
                return A->getType()->isPointerTy() && Into(A);
              }))
            Stack.push_back(Call);
        }
      }
      continue;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I || (Within && !Within->contains(I->getParent())))
      continue;
    if (auto *Reload = dyn_cast<LoadInst>(I);
        Reload && !Reload->isVolatile() && !Reload->isAtomic())
      if (auto *Local = dyn_cast<AllocaInst>(
              getUnderlyingObject(Reload->getPointerOperand()))) {
        Stack.push_back(Local);
        continue;
      }
    switch (Visit(*I)) {
    case WalkStep::Found:
      return I;
    case WalkStep::Stop:
      continue;
    case WalkStep::Expand:
      for (const Value *Op : I->operands())
        Stack.push_back(Op);
    }
  }
  return nullptr;
}

// The location a read or write is of, comparable between instructions:
// casts and constant offsets stripped, and at -O0 a pointer reloaded from
// a local variable stands for that variable.
const Value *addressKey(const Value *Ptr) {
  Ptr = Ptr->stripPointerCasts();
  if (auto *Reload = dyn_cast<LoadInst>(Ptr))
    if (isa<AllocaInst>(Reload->getPointerOperand()->stripPointerCasts()))
      return Reload->getPointerOperand()->stripPointerCasts();
  return Ptr;
}

// The address a memory access or call (its first pointer argument) uses.
const Value *accessedAddress(const Instruction &I) {
  if (const Value *Ptr = getLoadStorePointerOperand(&I))
    return Ptr;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getPointerOperand();
  if (auto *Call = dyn_cast<CallBase>(&I))
    for (const Value *Arg : Call->args())
      if (Arg->getType()->isPointerTy())
        return Arg;
  return nullptr;
}

// A compare-and-swap or exchange, also as inline assembly or through an
// atomic wrapper function (-O0).
bool isLockAcquire(const Instruction &I) {
  if (isa<AtomicCmpXchgInst>(I))
    return true;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getOperation() == AtomicRMWInst::Xchg;
  auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return false;
  if (auto *Asm = dyn_cast<InlineAsm>(Call->getCalledOperand()))
    return Asm->getAsmString().contains("atom.") &&
           (Asm->getAsmString().contains(".cas") ||
            Asm->getAsmString().contains(".exch"));
  const Function *Callee = Call->getCalledFunction();
  if (!Callee || Callee->isDeclaration())
    return false;
  for (const Instruction &J : instructions(*Callee))
    if ((isa<AtomicCmpXchgInst>(J) || isa<AtomicRMWInst>(J)) &&
        isLockAcquire(J))
      return true;
  return false;
}

} // namespace

// Effect of a call: inline assembly by its text, intrinsics (memory
// intrinsics write unless into the thread's own stack; the rest, such as
// nanosleep and votes, touch no memory other CTAs see), functions of the
// module by what their bodies (and callees) do, declarations by their
// attributes.
CrossCTAEffect InterCTAWaits::callEffect(const CallBase &Call) {
  if (auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand()))
    return asmEffect(*Asm);
  const Function *Callee = Call.getCalledFunction();
  CrossCTAEffect E;
  if (!Callee) {
    E.Writes = true;
    return E;
  }
  if (auto *Mem = dyn_cast<MemIntrinsic>(&Call)) {
    noteWrite(E, Mem->getRawDest());
    return E;
  }
  if (Callee->isIntrinsic())
    return E;
  if (Callee->isDeclaration()) {
    // printf, assert, libdevice: nothing another CTA could wait for.
    E.Writes = !Call.onlyReadsMemory() && !isKnownExternal(Callee->getName());
    return E;
  }
  // The callee's writes through its arguments, as writes of the caller:
  // to its locals (nothing), through its own arguments, or elsewhere.
  CrossCTAEffect Summary = functionEffect(*Callee);
  E = Summary;
  E.WritesArgs = 0;
  for (unsigned I = 0; I < Call.arg_size() && I < 64; ++I)
    if (Summary.WritesArgs >> I & 1)
      noteWrite(E, Call.getArgOperand(I));
  return E;
}

// What a function of the module does, callees included; a function still
// being summarized (recursion) counts as writing.
CrossCTAEffect InterCTAWaits::functionEffect(const Function &F) {
  auto [It, New] = Effects.try_emplace(&F, CrossCTAEffect{false, true, false});
  if (!New)
    return It->second;
  CrossCTAEffect E;
  for (const Instruction &I : instructions(F)) {
    if (auto *SI = dyn_cast<StoreInst>(&I))
      noteWrite(E, SI->getPointerOperand());
    else if (isCrossCTARead(I)) {
      E.Reads = true;
      E.Atomic |= !isa<LoadInst>(I);
      E.Writes |= !isa<LoadInst>(I) && I.use_empty();
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      CrossCTAEffect C = callEffect(*Call);
      E.WritesArgs |= C.WritesArgs;
      E.Reads |= C.Reads;
      E.Atomic |= C.Atomic;
      E.Writes |= C.Writes || (C.Atomic && Call->use_empty());
    }
  }
  Effects[&F] = E;
  return E;
}

// A loop whose exit depends on a read of memory other CTAs write, and that
// writes nothing itself, waits for another CTA.  Waits are made safe by
// ordered mode (chunks claimed in blockIdx order, so every CTA a chunk can
// wait for was claimed before it by a running worker) unless they have the
// shape of a grid-wide barrier built by hand, which waits for CTAs that
// come later: those are refused.
void InterCTAWaits::check(Function &F, LoopInfo &LI, KernelLegality &R) {
  for (Loop *Top : LI)
    for (Loop *L : depth_first(Top)) {
      if (loopWrites(*L))
        continue;
      SmallVector<BasicBlock *, 4> Exiting;
      L->getExitingBlocks(Exiting);
      for (BasicBlock *BB : Exiting) {
        auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
        if (!Br || !Br->isConditional())
          continue;
        const Instruction *Read = findSharedRead(Br->getCondition(), *L);
        if (!Read)
          continue;
        if (std::string Why =
                gridBarrierShape(F, *L, Br->getCondition(), *Read);
            !Why.empty()) {
          refuse(R, SMC_REFUSAL_GRID_BARRIER, Why, Read);
          return;
        }
        R.Ordered.need("loop waits on a value another CTA writes", Read);
        break;
      }
    }
}

// Does the loop store, or call something that may write memory, other
// than the atomics its exit condition reads?
bool InterCTAWaits::loopWrites(const Loop &L) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        // Stores to a thread's own stack (allocas at -O0) are not work
        // other CTAs could be waiting for.
        if (isLocalPointer(SI->getPointerOperand()))
          continue;
        return true;
      }
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        CrossCTAEffect E = callEffect(*Call);
        if (E.Writes || E.WritesArgs || (E.Reads && !testedInLoop(I, L)))
          return true;
      }
      // An atomic whose result nobody in the loop tests is work (e.g.
      // atomicAdd of a sum), not waiting.
      if ((isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) &&
          !testedInLoop(I, L))
        return true;
    }
  return false;
}

// The read of memory other CTAs write that the loop's exit condition
// depends on, or null.
const Instruction *InterCTAWaits::findSharedRead(Value *Cond, const Loop &L) {
  return walkSources(Cond, &L, [&](const Instruction &I) {
    if (isCrossCTARead(I))
      return WalkStep::Found;
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (callEffect(*Call).Reads)
        return WalkStep::Found;
    return WalkStep::Expand;
  });
}

// Why a wait looks like a grid-wide barrier built by hand, or "".  Such a
// barrier waits for every CTA of the grid, later ones too, which no
// claiming order makes safe: its exit condition involves gridDim, or it
// waits on a location the kernel itself writes outside the loop (an
// arrival counter, a generation flag).  Look-back waits read other CTAs'
// entries and write their own, at other addresses.
std::string InterCTAWaits::gridBarrierShape(Function &F, const Loop &L,
                                            Value *Cond,
                                            const Instruction &Read) {
  // gridDim in the exit condition, through values and (at -O0) locals.
  // A load is a value, not a computation: the address it reads (a tile
  // index, say) is not part of what the loop compares.
  auto IsGridDim = [&](const Instruction &I) {
    if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
      switch (II->getIntrinsicID()) {
      case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
      case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
      case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
        return WalkStep::Found;
      default:
        return WalkStep::Expand;
      }
    }
    if (&I == &Read || isa<LoadInst>(I) || isCrossCTARead(I) ||
        isa<CallBase>(I))
      return WalkStep::Stop;
    return WalkStep::Expand;
  };
  if (walkSources(Cond, nullptr, IsGridDim))
    return "the loop waits for a count that depends on gridDim";
  // The waited-on location written by the kernel itself.  Not for a lock
  // acquire (the waiting read is a compare-and-swap or exchange that takes
  // the location): a lock is only ever held by a running CTA.
  const Value *Waited = accessedAddress(Read);
  if (!Waited || isLockAcquire(Read))
    return "";
  const Value *Key = addressKey(Waited);
  for (const Instruction &I : instructions(F)) {
    if (L.contains(I.getParent()))
      continue;
    bool Writes =
        isa<StoreInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I);
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      CrossCTAEffect E = callEffect(*Call);
      Writes = E.Writes || E.WritesArgs || E.Atomic;
    }
    if (!Writes)
      continue;
    const Value *Ptr = accessedAddress(I);
    if (Ptr && addressKey(Ptr) == Key)
      return "the loop waits on a location the kernel itself writes (an "
             "arrival counter or flag)";
  }
  return "";
}

} // namespace smc::legality
