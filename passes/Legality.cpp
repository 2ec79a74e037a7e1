//===- Legality.cpp - Can a kernel be given SMC variants, and how ---------===//
//
// Refusals (both variants): grid-wide synchronization, dynamic parallelism,
// thread block clusters, inline assembly reading %ctaid/%nctaid/%smid,
// grid-wide barriers built by hand, and call graphs the pass cannot see
// whole (functions without a body, indirect calls, recursion).  For a
// legal kernel, the hardware limits each variant must stay within: the
// parameter space with the descriptor (both), static shared memory with the
// worker's slot (__smc).
//
// One-chunk mode (__smc): a branch that CTA-uniformity cannot prove uniform
// sends some threads to the kernel's exit while others can still reach a
// barrier (the common `if (i >= n) return; ... __syncthreads()`), or the
// kernel executes PTX `exit`.  Persistent workers would keep the exited
// threads alive and hang or corrupt the barrier, so such a kernel runs one
// chunk per worker, exactly as the original CTA.
//
// Ordered mode (__smc): a loop that waits on memory another CTA writes (a
// volatile, atomic or inline-assembly load, CUB's decoupled look-back with
// __nanosleep back-off, in the kernel or a callee) relies on the hardware
// starting CTAs in blockIdx order.  Such a kernel's chunks are claimed in
// blockIdx order from one grid-wide sequence (runtime/device/SmcWorker.cu
// says why that keeps the original's progress guarantee).
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes='print<smc-legality>' \
//            -disable-output in.ll
//===----------------------------------------------------------------------===//
#include "Legality.h"
#include "ABI.h"
#include "CTAUniformity.h"
#include "Diagnostics.h"
#include "GridIndex.h"
#include "KernelSelection.h"
#include "Options.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE SMC_NAME

using namespace llvm;

namespace smc {

const DILocation *outermostLocation(const Instruction *I) {
  const DILocation *L = I ? I->getDebugLoc().get() : nullptr;
  while (L && L->getInlinedAt())
    L = L->getInlinedAt();
  return L;
}

// "<detail> at file:line", or the detail alone without debug info.
static std::string describe(const std::string &Detail,
                            const Instruction *Where) {
  std::string Loc = sourceLocation(Where);
  return Loc.empty() ? Detail : Detail + " at " + Loc;
}

std::string ModeReason::describe() const {
  return smc::describe(Detail, Where);
}

SmcRefusal KernelLegality::refusal(VariantKind Kind) const {
  if (!legal())
    return Refusal;
  return Limit[static_cast<unsigned>(Kind)].empty() ? SMC_REFUSAL_NONE
                                                    : SMC_REFUSAL_RESOURCES;
}

std::string KernelLegality::refusalDetail(VariantKind Kind) const {
  if (!legal())
    return describe(Detail, Where);
  return Limit[static_cast<unsigned>(Kind)];
}

std::string sourceLocation(const Instruction *I) {
  if (!I || !I->getDebugLoc())
    return "";
  const DILocation *L = outermostLocation(I);
  std::string S;
  raw_string_ostream OS(S);
  if (auto *Scope = dyn_cast_or_null<DIScope>(L->getScope()))
    OS << Scope->getFilename() << ":";
  OS << L->getLine();
  return S;
}

namespace {

// An intrinsic family whose IDs are consecutive (IDs are sorted by name).
struct IntrinsicRange {
  Intrinsic::ID First, Last;
  bool contains(Intrinsic::ID ID) const { return ID >= First && ID <= Last; }
};

// CTA barriers: llvm.nvvm.barrier.cta.{sync,arrive,red}.* (what
// __syncthreads() and its variants become; IR with the older
// llvm.nvvm.barrier0 names is upgraded to these when it is read).
constexpr IntrinsicRange CtaBarriers{
    Intrinsic::nvvm_barrier_cta_arrive_aligned_count,
    Intrinsic::nvvm_barrier_cta_sync_count};
// Reads of %envreg0..31 (envreg0, envreg1, envreg10, ... envreg9 by name).
constexpr IntrinsicRange EnvRegReads{Intrinsic::nvvm_read_ptx_sreg_envreg0,
                                     Intrinsic::nvvm_read_ptx_sreg_envreg9};
static_assert(CtaBarriers.Last - CtaBarriers.First == 17 &&
                  EnvRegReads.Last - EnvRegReads.First == 31,
              "an NVVM intrinsic family Legality matches by ID range changed");

bool isBarrier(Intrinsic::ID ID) { return CtaBarriers.contains(ID); }

bool isBarrier(const CallBase &Call) {
  return isBarrier(Call.getIntrinsicID());
}

bool isEnvRegRead(Intrinsic::ID ID) { return EnvRegReads.contains(ID); }

// Cluster use: the NVVM intrinsics named for clusters (special registers,
// cluster barriers, distributed shared memory, cluster-scope memory
// operations, cluster launch control; some 90 of them) and mapa.  Not
// isspacep.shared.cluster: an address-space test that CUDA's headers
// (memcpy_async at -O0) make on any pointer.  The family is classified once
// from the intrinsic table; calls are then matched by ID.
bool isClusterIntrinsic(Intrinsic::ID ID) {
  static const DenseSet<unsigned> Cluster = [] {
    DenseSet<unsigned> IDs;
    for (unsigned I = Intrinsic::not_intrinsic + 1;
         I < Intrinsic::num_intrinsics; ++I) {
      StringRef Name = Intrinsic::getBaseName(I);
      if (Name.starts_with("llvm.nvvm.") &&
          !Name.starts_with("llvm.nvvm.isspacep.") &&
          (Name.contains("cluster") || Name.starts_with("llvm.nvvm.mapa")))
        IDs.insert(I);
    }
    return IDs;
  }();
  return Cluster.contains(ID);
}

// Device functions that may be declared without a body and read no grid
// register: libdevice, printf, malloc, assert.
bool isKnownExternal(StringRef Name) {
  return Name.starts_with("__nv_") || Name == "vprintf" || Name == "malloc" ||
         Name == "free" || Name == "__assertfail" || Name == "__nvvm_reflect";
}

bool isDeviceLaunch(StringRef Name) {
  return Name.starts_with("cudaLaunchDevice") ||
         Name.starts_with("cudaGetParameterBuffer") ||
         Name.starts_with("cudaDeviceSynchronize");
}

bool isGridSync(StringRef Name) {
  return Name.contains("sync_grids") || Name.contains("grid_sync") ||
         Name.starts_with("cudaCGSynchronizeGrid") ||
         Name.starts_with("cudaCGGetIntrinsicHandle");
}

// Hardware limits a variant must stay within (PTX ISA, sm_70 and later):
// 32764 bytes of kernel parameters, 48 KiB of static shared memory.  The
// descriptor adds to the first; __smc's worker state (SMC_DEVICE_SHARED) to
// the second.
std::string hardwareLimit(const Function &K, VariantKind Kind) {
  const DataLayout &DL = K.getParent()->getDataLayout();
  uint64_t Params = DL.getTypeAllocSize(descriptorType(K.getContext()));
  for (const Argument &A : K.args())
    Params += DL.getTypeAllocSize(A.hasByValAttr() ? A.getParamByValType()
                                                   : A.getType());
  if (Params > 32764)
    return std::to_string(Params) +
           " bytes of parameters with the descriptor, over the 32764 allowed";
  if (Kind != VariantKind::SMCentric)
    return "";
  // Static shared memory the kernel and its callees use.
  uint64_t Shared = SMC_DEVICE_SHARED_BYTES; // the worker's own
  SmallPtrSet<const GlobalVariable *, 8> Seen;
  SmallVector<const Function *, 8> Work{&K};
  SmallPtrSet<const Function *, 8> Visited{&K};
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(*F))
      for (const Value *Op : I.operands()) {
        const Value *Base = Op->stripPointerCasts();
        if (auto *CE = dyn_cast<ConstantExpr>(Op))
          Base = CE->getOperand(0)->stripPointerCasts();
        if (auto *GV = dyn_cast<GlobalVariable>(Base)) {
          if (GV->getAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED &&
              Seen.insert(GV).second)
            Shared += DL.getTypeAllocSize(GV->getValueType());
        } else if (auto *Callee = dyn_cast<Function>(Base)) {
          if (!Callee->isDeclaration() && Visited.insert(Callee).second)
            Work.push_back(Callee);
        }
      }
  }
  if (Shared > 48 * 1024)
    return std::to_string(Shared) + " bytes of static shared memory with the "
                                    "worker's own, over the 49152 allowed";
  return "";
}

class KernelChecker {
public:
  KernelChecker(Function &K, const GridReaders &Readers,
                FunctionAnalysisManager &FAM)
      : Kernel(K), Readers(Readers), FAM(FAM) {}

  KernelLegality check() {
    for (StringRef Attr :
         {"nvvm.cluster_dim", "nvvm.maxclusterrank", "nvvm.blocksareclusters"})
      if (Kernel.hasFnAttribute(Attr))
        refuse(SMC_REFUSAL_CLUSTER, ("kernel attribute " + Attr).str(),
               nullptr);
    visit(Kernel);
    if (!Result.legal())
      return Result;
    checkEarlyExit();
    for (VariantKind Kind : AllVariantKinds)
      Result.Limit[static_cast<unsigned>(Kind)] = hardwareLimit(Kernel, Kind);
    return Result;
  }

private:
  Function &Kernel;
  const GridReaders &Readers;
  FunctionAnalysisManager &FAM;
  KernelLegality Result;
  SmallPtrSet<const Function *, 16> Done, OnPath;
  DenseMap<const Function *, bool> HasBarrier;

  void refuse(SmcRefusal Why, std::string Detail, const Instruction *Where) {
    if (!Result.legal())
      return; // report the first reason found
    Result.Refusal = Why;
    Result.Detail = std::move(Detail);
    Result.Where = Where;
  }

  // Walks F and everything it calls; records barriers per function.
  void visit(Function &F) {
    if (Done.count(&F))
      return;
    OnPath.insert(&F);
    bool Barrier = false;
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (auto *Asm = dyn_cast<InlineAsm>(Call->getCalledOperand())) {
        Barrier |= isAsmBarrier(*Call);
        checkInlineAsm(*Asm, I);
        continue;
      }
      Function *Callee = Call->getCalledFunction();
      if (!Callee) {
        // Harmless when every possible target is known and none reads the
        // grid registers (their reads could not be inlined); the targets
        // are then checked like direct callees.  A pointer from anywhere
        // else may point into another translation unit (-fgpu-rdc leaves no
        // trace in the device module).
        SmallPtrSet<Function *, 8> Targets;
        if (!knownTargets(Call->getCalledOperand(), Targets, 0)) {
          refuse(SMC_REFUSAL_INDIRECT_CALL,
                 "indirect call whose targets are not known here (a "
                 "function pointer from elsewhere may point into another "
                 "translation unit)",
                 &I);
          continue;
        }
        for (Function *Target : Targets) {
          if (Readers.contains(Target)) {
            refuse(SMC_REFUSAL_INDIRECT_CALL,
                   ("indirect call; its possible target " + Target->getName() +
                    " reads blockIdx/gridDim")
                       .str(),
                   &I);
            break;
          }
          if (!OnPath.count(Target)) {
            visit(*Target);
            Barrier |= HasBarrier.lookup(Target);
          }
        }
        continue;
      }
      StringRef Name = Callee->getName();
      if (Callee->isIntrinsic()) {
        Intrinsic::ID ID = Callee->getIntrinsicID();
        Barrier |= isBarrier(ID);
        if (isEnvRegRead(ID))
          refuse(SMC_REFUSAL_GRID_SYNC, "read of %envreg (grid workspace)", &I);
        else if (isClusterIntrinsic(ID))
          refuse(SMC_REFUSAL_CLUSTER, ("call of " + Name).str(), &I);
        else if (ID == Intrinsic::nvvm_exit)
          Result.OneChunk.need("executes PTX exit", &I);
        continue;
      }
      if (isGridSync(Name)) {
        refuse(SMC_REFUSAL_GRID_SYNC, ("call of " + Name).str(), &I);
        continue;
      }
      if (isDeviceLaunch(Name)) {
        refuse(SMC_REFUSAL_DYNAMIC_PARALLELISM, ("call of " + Name).str(), &I);
        continue;
      }
      if (Callee->isDeclaration()) {
        if (!isKnownExternal(Name))
          refuse(SMC_REFUSAL_UNKNOWN_CALLEE,
                 ("call of " + Name + ", defined in another module").str(), &I);
        continue;
      }
      if (OnPath.count(Callee)) {
        // Harmless unless the cycle reads the grid registers (such reads
        // could not be inlined into the variant).
        if (Readers.contains(Callee))
          refuse(
              SMC_REFUSAL_RECURSION,
              ("recursive call of " + Name + ", which reads blockIdx/gridDim")
                  .str(),
              &I);
        Barrier |= any_of(instructions(*Callee), [](const Instruction &J) {
          auto *C = dyn_cast<CallBase>(&J);
          return C && (isBarrier(*C) || isAsmBarrier(*C));
        });
        continue;
      }
      visit(*Callee);
      Barrier |= HasBarrier.lookup(Callee);
    }
    checkSpinWaits(F);
    OnPath.erase(&F);
    Done.insert(&F);
    HasBarrier[&F] = Barrier;
  }

  // The functions a called pointer may be, when all are known: a function of
  // this module, a select or phi of known ones, an entry of a constant
  // dispatch table (a constant global whose initializer holds only functions
  // of this module and nulls), or a parameter of a function that is only
  // called directly in this module with known ones (libcu++ passes its
  // operators down that way at -O0; a kernel's own parameters come from the
  // host and are never known).  Through -O0 spill slots.
  static bool knownTargets(const Value *V, SmallPtrSetImpl<Function *> &Out,
                           unsigned Depth) {
    if (Depth > 8)
      return false;
    V = V->stripPointerCasts();
    if (auto *Reload = dyn_cast<LoadInst>(V))
      if (isa<AllocaInst>(getUnderlyingObject(Reload->getPointerOperand())))
        V = pointerBase(Reload);
    if (auto *Param = dyn_cast<Argument>(V)) {
      const Function *Owner = Param->getParent();
      if (Owner->hasAddressTaken() ||
          Owner->getCallingConv() == CallingConv::PTX_Kernel)
        return false;
      bool Called = false;
      for (const User *U : Owner->users()) {
        auto *Site = dyn_cast<CallBase>(U);
        if (!Site || Site->getCalledOperand() != Owner ||
            !knownTargets(Site->getArgOperand(Param->getArgNo()), Out,
                          Depth + 1))
          return false;
        Called = true;
      }
      return Called;
    }
    if (auto *F = dyn_cast<Function>(V)) {
      if (F->isDeclaration())
        return false;
      Out.insert(const_cast<Function *>(F));
      return true;
    }
    if (auto *Sel = dyn_cast<SelectInst>(V))
      return knownTargets(Sel->getTrueValue(), Out, Depth + 1) &&
             knownTargets(Sel->getFalseValue(), Out, Depth + 1);
    if (auto *Phi = dyn_cast<PHINode>(V))
      return all_of(Phi->incoming_values(), [&](const Use &In) {
        return knownTargets(In, Out, Depth + 1);
      });
    if (auto *Load = dyn_cast<LoadInst>(V)) {
      auto *Table = dyn_cast<GlobalVariable>(
          getUnderlyingObject(Load->getPointerOperand()));
      if (!Table || !Table->isConstant() || !Table->hasDefinitiveInitializer())
        return false;
      return tableTargets(Table->getInitializer(), Out);
    }
    return false;
  }

  static bool tableTargets(const Constant *C,
                           SmallPtrSetImpl<Function *> &Out) {
    if (C->isNullValue())
      return true;
    if (auto *F = dyn_cast<Function>(C->stripPointerCasts())) {
      if (F->isDeclaration())
        return false;
      Out.insert(const_cast<Function *>(F));
      return true;
    }
    if (isa<ConstantAggregate>(C))
      return all_of(C->operands(), [&](const Use &Op) {
        return tableTargets(cast<Constant>(Op), Out);
      });
    return false;
  }

  // A CTA barrier written in inline assembly (bar.sync, barrier.sync, ...).
  static bool isAsmBarrier(const CallBase &Call) {
    auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
    if (!Asm)
      return false;
    StringRef Text = Asm->getAsmString();
    return Text.contains("bar.sync") || Text.contains("bar.red") ||
           Text.contains("bar.arrive") || Text.contains("barrier.sync") ||
           Text.contains("barrier.red") || Text.contains("barrier.arrive") ||
           Text.contains("barrier.cta");
  }

  static bool isAsmExit(const InlineAsm &Asm) {
    for (StringRef Line : split(Asm.getAsmString(), ';'))
      if (Line.trim() == "exit")
        return true;
    return false;
  }

  void checkInlineAsm(const InlineAsm &Asm, const Instruction &I) {
    if (isAsmExit(Asm))
      Result.OneChunk.need("executes PTX exit", &I);
    StringRef Text = Asm.getAsmString();
    if (Text.contains("%cluster") || Text.contains("%nclusterid") ||
        Text.contains("%is_explicit_cluster"))
      refuse(SMC_REFUSAL_CLUSTER, "inline assembly reads a cluster register",
             &I);
    else if (Text.contains("%ctaid") || Text.contains("%nctaid") ||
             Text.contains("%smid") || Text.contains("%nsmid"))
      refuse(SMC_REFUSAL_INLINE_ASM, ("inline assembly '" + Text + "'").str(),
             &I);
    else if (Text.contains("%envreg"))
      refuse(SMC_REFUSAL_GRID_SYNC, "inline assembly reads %envreg", &I);
  }

  // What an instruction or call does to memory that other CTAs see: reads
  // it in a way another CTA's write can change under a loop (a volatile or
  // atomic load, an atomic, a strong load in inline assembly), or writes it.
  struct CrossCTAEffect {
    bool Reads = false;  // its result can change with other CTAs' writes
    bool Writes = false; // writes memory other CTAs see
    bool Atomic = false; // an atomic read-modify-write (reads and writes)
    // Functions: bit i set if it writes through its i-th pointer argument
    // (at -O0 results come back through pointers to the caller's locals);
    // the call site decides whether that memory is local.
    uint64_t WritesArgs = 0;
  };
  DenseMap<const Function *, CrossCTAEffect> Effects;

  // The memory effect of one PTX statement list, by the opcode of each
  // statement: loads outside shared/local/param/const space read what other
  // CTAs write (in a wait loop CUB's ld.relaxed/ld.acquire/ld.cg wrappers);
  // stores, reductions, bulk copies and mbarrier operations write; an atom
  // reads, and writes only if its result is unused (see loopWrites).
  // nanosleep, fences, barriers, votes and arithmetic touch no memory.
  static CrossCTAEffect asmEffect(const InlineAsm &Asm) {
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

  // The object a pointer points into, looking through -O0 spill slots: a
  // pointer reloaded from a local variable that is stored once stands for
  // the stored pointer (an argument, another local).
  static const Value *pointerBase(const Value *Ptr) {
    const Value *Obj = getUnderlyingObject(Ptr);
    for (unsigned Depth = 0; Depth < 4; ++Depth) {
      auto *Reload = dyn_cast<LoadInst>(Obj);
      if (!Reload || Reload->isVolatile())
        break;
      auto *Slot = dyn_cast<AllocaInst>(
          getUnderlyingObject(Reload->getPointerOperand()));
      if (!Slot)
        break;
      const Value *Stored = nullptr;
      for (const User *U : Slot->users())
        if (auto *SI = dyn_cast<StoreInst>(U);
            SI && SI->getPointerOperand() == Slot) {
          if (Stored && Stored != SI->getValueOperand())
            return Obj;
          Stored = SI->getValueOperand();
        }
      if (!Stored)
        break;
      Obj = getUnderlyingObject(Stored);
    }
    return Obj;
  }

  static bool isLocalPointer(const Value *Ptr) {
    return Ptr->getType()->getPointerAddressSpace() ==
               NVPTXAS::ADDRESS_SPACE_LOCAL ||
           isa<AllocaInst>(pointerBase(Ptr));
  }

  static bool isCrossCTARead(const Instruction &I) {
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

  // Effect of a call: inline assembly by its text, intrinsics (memory
  // intrinsics write unless into the thread's own stack; the rest, such as
  // nanosleep and votes, touch no memory other CTAs see), functions of the
  // module by what their bodies (and callees) do, declarations by their
  // attributes.
  CrossCTAEffect callEffect(const CallBase &Call) {
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

  // Records a write to *Ptr in E: nothing for the thread's own stack, the
  // argument's bit for memory the caller passed in (also through a pointer
  // held in that memory, like the result reference a -O0 libcu++ functor
  // keeps in `this`), a write otherwise.  Attributing a write to an
  // argument that the caller shows to be local can only make a loop look
  // like a wait, which costs ordered mode, never safety.
  static void noteWrite(CrossCTAEffect &E, const Value *Ptr) {
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

  // What a function of the module does, callees included; a function still
  // being summarized (recursion) counts as writing.
  CrossCTAEffect functionEffect(const Function &F) {
    auto [It, New] =
        Effects.try_emplace(&F, CrossCTAEffect{false, true, false});
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
  void checkSpinWaits(Function &F) {
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
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
            refuse(SMC_REFUSAL_GRID_BARRIER, Why, Read);
            return;
          }
          Result.Ordered.need("loop waits on a value another CTA writes", Read);
          break;
        }
      }
  }

  // Does the loop store, or call something that may write memory, other
  // than the atomics its exit condition reads?
  bool loopWrites(const Loop &L) {
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

  static bool testedInLoop(const Instruction &I, const Loop &L) {
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
  static const Instruction *walkSources(const Value *Start, const Loop *Within,
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

  // The read of memory other CTAs write that the loop's exit condition
  // depends on, or null.
  const Instruction *findSharedRead(Value *Cond, const Loop &L) {
    return walkSources(Cond, &L, [&](const Instruction &I) {
      if (isCrossCTARead(I))
        return WalkStep::Found;
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (callEffect(*Call).Reads)
          return WalkStep::Found;
      return WalkStep::Expand;
    });
  }

  // The location a read or write is of, comparable between instructions:
  // casts and constant offsets stripped, and at -O0 a pointer reloaded from
  // a local variable stands for that variable.
  static const Value *addressKey(const Value *Ptr) {
    Ptr = Ptr->stripPointerCasts();
    if (auto *Reload = dyn_cast<LoadInst>(Ptr))
      if (isa<AllocaInst>(Reload->getPointerOperand()->stripPointerCasts()))
        return Reload->getPointerOperand()->stripPointerCasts();
    return Ptr;
  }

  // The address a memory access or call (its first pointer argument) uses.
  static const Value *accessedAddress(const Instruction &I) {
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

  // Why a wait looks like a grid-wide barrier built by hand, or "".  Such a
  // barrier waits for every CTA of the grid, later ones too, which no
  // claiming order makes safe: its exit condition involves gridDim, or it
  // waits on a location the kernel itself writes outside the loop (an
  // arrival counter, a generation flag).  Look-back waits read other CTAs'
  // entries and write their own, at other addresses.
  std::string gridBarrierShape(Function &F, const Loop &L, Value *Cond,
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
      bool Writes = isa<StoreInst>(I) || isa<AtomicRMWInst>(I) ||
                    isa<AtomicCmpXchgInst>(I);
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

  // Barrier sites: barrier intrinsics and calls of functions containing
  // one.  A branch that CTA-uniformity cannot prove uniform, with one
  // successor from which a barrier is reachable and one from which none is
  // (the way to the exit), lets threads leave while others still wait.
  // The __smc variant then runs one chunk per worker or, with
  // -smc-drained-exits and when every barrier site is __syncthreads()
  // itself, drains such threads at the chunk's barriers (DrainedExits.cpp).
  void checkEarlyExit() {
    SmallPtrSet<const BasicBlock *, 16> BarrierBlocks;
    const Instruction *Undrainable = nullptr;
    for (Instruction &I : instructions(Kernel))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (isBarrier(*Call) || isAsmBarrier(*Call) ||
            (Call->getCalledFunction() &&
             HasBarrier.lookup(Call->getCalledFunction()))) {
          BarrierBlocks.insert(I.getParent());
          if (!Undrainable && !isDrainableBarrier(*Call))
            Undrainable = &I;
        }
    if (BarrierBlocks.empty())
      return;
    // Blocks from whose start a barrier is reachable.
    SmallPtrSet<const BasicBlock *, 32> ReachesBarrier;
    SmallVector<const BasicBlock *, 32> Stack(BarrierBlocks.begin(),
                                              BarrierBlocks.end());
    while (!Stack.empty()) {
      const BasicBlock *BB = Stack.pop_back_val();
      if (!ReachesBarrier.insert(BB).second)
        continue;
      for (const BasicBlock *Pred : predecessors(BB))
        Stack.push_back(Pred);
    }
    const CTAUniformity &Uniformity =
        FAM.getResult<CTAUniformityAnalysis>(Kernel);
    for (BasicBlock &BB : Kernel) {
      Instruction *Term = BB.getTerminator();
      if (Term->getNumSuccessors() < 2)
        continue;
      bool ToBarrier = false, ToExit = false;
      for (BasicBlock *Succ : successors(&BB))
        (ReachesBarrier.count(Succ) ? ToBarrier : ToExit) = true;
      if (!ToBarrier || !ToExit)
        continue;
      Value *Cond = nullptr;
      if (auto *Br = dyn_cast<BranchInst>(Term))
        Cond = Br->getCondition();
      else if (auto *Sw = dyn_cast<SwitchInst>(Term))
        Cond = Sw->getCondition();
      if (Cond && Uniformity.isUniform(Cond) &&
          !Uniformity.inDivergentRegion(&BB))
        continue;
      if (!drainedExitsRequested()) {
        Result.OneChunk.need("threads may exit before a barrier other "
                             "threads of the CTA still reach",
                             Term);
        return;
      }
      if (!Undrainable) {
        Result.Drained.need("threads may end a chunk before a barrier other "
                            "threads of the CTA still reach",
                            Term);
        return;
      }
      std::string What = "a barrier the variant cannot drain at";
      if (std::string Line = sourceLocation(Undrainable); !Line.empty())
        What += " " + Line;
      Result.OneChunk.need("threads may exit before a barrier other threads "
                           "of the CTA still reach, and " +
                               What,
                           Term);
      return;
    }
  }
};

} // namespace

LegalityAnalysis::Result LegalityAnalysis::run(Module &M,
                                               ModuleAnalysisManager &MAM) {
  Result R;
  GridReaders Readers(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function *K : MAM.getResult<KernelSelection>(M)) {
    R[K] = KernelChecker(*K, Readers, FAM).check();
    LLVM_DEBUG(dbgs() << SMC_NAME ": legality of " << K->getName() << ": "
                      << smcRefusalText(R[K].Refusal) << "\n");
  }
  return R;
}

bool isDrainableBarrier(const CallBase &Call) {
  Intrinsic::ID ID = Call.getIntrinsicID();
  if (ID != Intrinsic::nvvm_barrier_cta_sync_aligned_all &&
      ID != Intrinsic::nvvm_barrier_cta_sync_all)
    return false;
  auto *Id = dyn_cast<ConstantInt>(Call.getArgOperand(0));
  return Id && Id->isZero();
}

PreservedAnalyses LegalityPrinterPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  for (auto &[K, L] : MAM.getResult<LegalityAnalysis>(M)) {
    outs() << "kernel " << K->getName() << ": ";
    if (!L.legal()) {
      outs() << "refused: " << smcRefusalText(L.Refusal) << " ("
             << L.refusalDetail(VariantKind::SMCentric) << ")\n";
      continue;
    }
    outs() << "legal, " << (L.OneChunk ? "one-chunk" : "loop");
    if (L.OneChunk)
      outs() << " (" << L.OneChunk.Detail << ")";
    else if (L.Drained)
      outs() << ", drained exits (" << L.Drained.Detail << ")";
    if (L.Ordered)
      outs() << ", ordered (" << L.Ordered.describe() << ")";
    for (VariantKind Kind : AllVariantKinds)
      if (SmcRefusal Why = L.refusal(Kind))
        outs() << "; no " << variantInfo(Kind).Suffix
               << " variant: " << smcRefusalText(Why) << " ("
               << L.refusalDetail(Kind) << ")";
    outs() << "\n";
  }
  return PreservedAnalyses::all();
}

} // namespace smc
