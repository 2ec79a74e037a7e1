//===- RemapAnalysis.cpp - Can a kernel's jobs be remapped, and by what key
//===//
//
// See RemapAnalysis.h.  Three walks over the function: one for what couples
// threads (shared memory, barriers, warp intrinsics, inline assembly), one
// forward from the thread-index reads to the thread-indexed loads, and per
// such load one forward from its value to the branches and loads it
// decides.  A candidate's "before" region (blocksBefore) is every block on
// a path from the entry to the load that does not pass the load's block
// first.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes='print<smc-remap>' \
//            -disable-output in.ll
//===----------------------------------------------------------------------===//
#include "RemapAnalysis.h"
#include "GridIndex.h"
#include "KernelSelection.h"
#include "Legality.h"
#include "SimplifiedCopy.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

using namespace llvm;

namespace smc {

static std::string at(const Instruction *I) {
  std::string Loc = sourceLocation(I);
  return Loc.empty() ? "" : " at " + Loc;
}

std::string RemapCandidate::describe() const {
  std::string Text = smcRemapKeyText(Kind);
  Text += ": load" + at(Key) + " decides the ";
  Text += isa<LoadInst>(Use) ? "address of the load" : "branch";
  Text += at(Use);
  if (!Refused.empty())
    Text += " (refused: " + Refused + ")";
  return Text;
}

std::string KernelRemap::describe() const {
  std::string Text;
  if (remappable())
    Text = "remap key " + key().describe();
  else
    Text = std::string("no remap: ") + smcRefusalText(Refusal) + " (" + Detail +
           ")";
  std::string Shown = remappable() ? key().describe() : "";
  for (int I = 0, N = int(Candidates.size()); I < N; ++I) {
    std::string C = Candidates[I].describe();
    if (I == Chosen || Shown.find(C) != std::string::npos)
      continue; // the same text (loads of one line) once
    Text += "; candidate " + C;
    Shown += "\n" + C;
  }
  return Text;
}

// NVVM intrinsics through which threads of a warp or CTA work together, or
// that read where a thread sits in its warp or on its SM (by name, so that
// new variants of each family are caught).
static bool couplesThreads(StringRef Name) {
  if (!Name.consume_front("llvm.nvvm."))
    return false;
  static const char *const Families[] = {"barrier",
                                         "bar.",
                                         "shfl",
                                         "vote",
                                         "match",
                                         "redux",
                                         "activemask",
                                         "read.ptx.sreg.laneid",
                                         "read.ptx.sreg.lanemask",
                                         "read.ptx.sreg.warpid",
                                         "read.ptx.sreg.nwarpid",
                                         "mbarrier",
                                         "cp.async",
                                         "wgmma",
                                         "wmma",
                                         "mma",
                                         "ldmatrix",
                                         "stmatrix",
                                         "elect",
                                         "cluster",
                                         "read.ptx.sreg.cluster",
                                         "setmaxnreg",
                                         "fence.proxy"};
  return any_of(Families, [&](const char *F) { return Name.starts_with(F); });
}

// PTX in inline assembly that couples threads, reads where a thread sits
// (which the variant would not rewrite), or touches shared memory; other
// assembly (libdevice's arithmetic, e.g. mad.lo.cc in cosf) is fine.
static const char *couplingAsm(StringRef Asm) {
  static const char *const Words[] = {
      "bar",      "shfl",       "vote",   "match",    "laneid",    "warpid",
      "lanemask", "activemask", "redux",  "elect",    "%tid",      "%ctaid",
      "%ntid",    "%nctaid",    "shared", "cp.async", "mma",       "ldmatrix",
      "stmatrix", "cluster",    "membar", "fence",    "setmaxnreg"};
  for (const char *W : Words)
    if (Asm.contains(W))
      return W;
  return nullptr;
}

static bool isSharedPointer(const Type *T) {
  return T->isPointerTy() &&
         T->getPointerAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED;
}

// Does V point into shared memory, or is it a constant built from such a
// pointer (clang reaches every __shared__ variable through a constant
// addrspacecast to a generic pointer)?
static bool refersToShared(const Value *V) {
  if (isSharedPointer(V->getType()))
    return true;
  if (const auto *CE = dyn_cast<ConstantExpr>(V))
    return any_of(CE->operands(),
                  [](const Use &Op) { return refersToShared(Op.get()); });
  return false;
}

// Reads of where a thread sits that a variant rewrites only in the kernel
// itself: threadIdx, blockIdx, blockDim.
static bool readsThreadPosition(const Function &F) {
  return F.getName().starts_with("llvm.nvvm.read.ptx.sreg.tid.") ||
         F.getName().starts_with("llvm.nvvm.read.ptx.sreg.ctaid.") ||
         F.getName().starts_with("llvm.nvvm.read.ptx.sreg.ntid.");
}

// How threadCoupling's text starts for a read of the thread's position in a
// callee the variant could not inline.
static const char NotInlined[] = "a call left after inlining reaches ";

// What couples the threads of F, or "": in F itself, or in a function F
// still calls, where thread-position reads count too, since the variant
// rewrites only F's.
static std::string threadCoupling(Function &F) {
  SmallPtrSet<const Function *, 8> Seen{&F};
  SmallVector<Function *, 8> Work{&F};
  while (!Work.empty()) {
    Function *G = Work.pop_back_val();
    bool Callee = G != &F;
    for (Instruction &I : instructions(*G)) {
      if (refersToShared(&I) || any_of(I.operands(), [](const Use &Op) {
            return refersToShared(Op.get());
          }))
        return "shared memory" + at(&I);
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (const auto *Asm = dyn_cast<InlineAsm>(Call->getCalledOperand())) {
        if (const char *Word = couplingAsm(Asm->getAsmString()))
          return std::string("inline assembly with '") + Word + "'" + at(&I);
        continue;
      }
      Function *Target = Call->getCalledFunction();
      if (!Target)
        return "an indirect call" + at(&I);
      if (couplesThreads(Target->getName()))
        return "call of " + Target->getName().str() + at(&I);
      if (Callee && readsThreadPosition(*Target))
        return NotInlined + G->getName().str() +
               ", which reads threadIdx, blockIdx or blockDim" + at(&I);
      if (!Target->isDeclaration() && Seen.insert(Target).second)
        Work.push_back(Target);
    }
  }
  return "";
}

static bool readsThreadIndex(const Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    return true;
  default:
    return false;
  }
}

// Does I write memory or have another effect an inspector must not have?
static bool writes(const Instruction &I) {
  if (isa<StoreInst, AtomicRMWInst, AtomicCmpXchgInst, FenceInst>(I))
    return true;
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return false;
  if (Call->isLifetimeStartOrEnd() || isa<AssumeInst>(Call))
    return false;
  return !Call->onlyReadsMemory();
}

// Values computed from Seeds without going through memory (FollowLoads:
// also the values of loads whose address is such a value).
static SmallPtrSet<const Value *, 32> dependents(ArrayRef<const Value *> Seeds,
                                                 bool FollowLoads) {
  SmallPtrSet<const Value *, 32> Set(Seeds.begin(), Seeds.end());
  SmallVector<const Value *, 32> Work(Seeds.begin(), Seeds.end());
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || I->getType()->isVoidTy() || isa<CallBase>(I))
        continue;
      if (const auto *LI = dyn_cast<LoadInst>(I))
        if (!FollowLoads || LI->getPointerOperand() != V)
          continue;
      if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
        continue;
      if (Set.insert(I).second)
        Work.push_back(I);
    }
  }
  return Set;
}

SmallPtrSet<BasicBlock *, 32> blocksBefore(BasicBlock &KeyBlock) {
  Function &F = *KeyBlock.getParent();
  // Reached from the entry without passing KeyBlock ...
  SmallPtrSet<BasicBlock *, 32> Forward{&KeyBlock, &F.getEntryBlock()};
  SmallVector<BasicBlock *, 32> Work{&F.getEntryBlock()};
  while (!Work.empty())
    for (BasicBlock *S : successors(Work.pop_back_val()))
      if (Forward.insert(S).second)
        Work.push_back(S);
  // ... and reaching KeyBlock without passing it.
  SmallPtrSet<BasicBlock *, 32> Before{&KeyBlock};
  Work.assign(pred_begin(&KeyBlock), pred_end(&KeyBlock));
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (Forward.count(BB) && Before.insert(BB).second)
      Work.append(pred_begin(BB), pred_end(BB));
  }
  return Before;
}

// The first write on a path from the entry to Load that does not pass
// Load's block first, or null.
static const Instruction *writeBefore(LoadInst &Load) {
  BasicBlock *KeyBlock = Load.getParent();
  for (const Instruction &I : *KeyBlock) {
    if (&I == &Load)
      break;
    if (writes(I))
      return &I;
  }
  // In function order, so that the remark names the same write every time.
  SmallPtrSet<BasicBlock *, 32> Before = blocksBefore(*KeyBlock);
  for (BasicBlock &BB : *KeyBlock->getParent())
    if (&BB != KeyBlock && Before.count(&BB))
      for (const Instruction &I : BB)
        if (writes(I))
          return &I;
  return nullptr;
}

static bool keyableType(const Type *T) {
  return T->isIntegerTy() || T->isFloatingPointTy() || T->isPointerTy();
}

KernelRemap analyseRemap(Function &F) {
  KernelRemap R;
  std::string Coupled = threadCoupling(F);
  if (!Coupled.empty()) {
    R.Refusal = StringRef(Coupled).starts_with(NotInlined)
                    ? SMC_REFUSAL_NOT_INLINABLE
                    : SMC_REFUSAL_THREADS_COUPLED;
    R.Detail = Coupled;
    return R;
  }
  SmallVector<const Value *, 8> Index;
  for (Instruction &I : instructions(F))
    if (readsThreadIndex(&I))
      Index.push_back(&I);
  SmallPtrSet<const Value *, 32> Indexed = dependents(Index, false);

  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (Instruction &I : instructions(F)) {
    auto *Load = dyn_cast<LoadInst>(&I);
    if (!Load || !Indexed.count(Load->getPointerOperand()) ||
        !keyableType(Load->getType()))
      continue;
    // What its value decides, the best kind first.
    RemapCandidate C;
    C.Key = Load;
    const Value *Seed[] = {Load};
    for (const Value *V : dependents(Seed, true)) {
      const auto *U = dyn_cast<Instruction>(V);
      for (const User *UU : V->users()) {
        auto *UI = dyn_cast<Instruction>(const_cast<User *>(UU));
        if (!UI || !U)
          continue;
        SmcRemapKey Kind = SMC_REMAP_KEY_NONE;
        if (auto *Br = dyn_cast<BranchInst>(UI);
            Br && Br->isConditional() && Br->getCondition() == V) {
          const Loop *L = LI.getLoopFor(Br->getParent());
          Kind = L && L->isLoopExiting(Br->getParent()) ? SMC_REMAP_KEY_LOOP
                                                        : SMC_REMAP_KEY_BRANCH;
        } else if (auto *Sw = dyn_cast<SwitchInst>(UI);
                   Sw && Sw->getCondition() == V) {
          Kind = SMC_REMAP_KEY_BRANCH;
        } else if (auto *Gather = dyn_cast<LoadInst>(UI);
                   Gather && Gather != Load &&
                   Gather->getPointerOperand() == V) {
          Kind = SMC_REMAP_KEY_GATHER;
        }
        if (Kind != SMC_REMAP_KEY_NONE &&
            (C.Kind == SMC_REMAP_KEY_NONE || Kind < C.Kind)) {
          C.Kind = Kind;
          C.Use = UI;
        }
      }
    }
    if (C.Kind == SMC_REMAP_KEY_NONE)
      continue;
    if (const Instruction *W = writeBefore(*Load))
      C.Refused = "a write comes first" + at(W);
    R.Candidates.push_back(std::move(C));
  }
  for (int I = 0, N = int(R.Candidates.size()); I < N; ++I) {
    const RemapCandidate &C = R.Candidates[I];
    if (C.Refused.empty() &&
        (R.Chosen < 0 || C.Kind < R.Candidates[R.Chosen].Kind))
      R.Chosen = I;
  }
  if (R.Chosen < 0) {
    R.Refusal = SMC_REFUSAL_NO_REMAP_KEY;
    R.Detail = R.Candidates.empty()
                   ? "no load at a thread-indexed address decides a branch "
                     "or an address"
                   : "every candidate comes after a write";
  }
  return R;
}

Function *simplifiedRemapClone(Function &K, StringRef Suffix,
                               FunctionAnalysisManager &FAM) {
  Function *C = cloneWithDescriptor(K, Suffix);
  C->removeFnAttr(Attribute::OptimizeNone);
  C->removeFnAttr(Attribute::NoInline);
  inlineDefinedCalls(*C);
  FunctionPassManager Simplify;
  Simplify.addPass(SROAPass(SROAOptions::ModifyCFG));
  Simplify.addPass(EarlyCSEPass(/*UseMemorySSA=*/false));
  Simplify.addPass(InstCombinePass());
  Simplify.addPass(SimplifyCFGPass());
  Simplify.run(*C, FAM);
  FAM.clear(*C, C->getName());
  return C;
}

PreservedAnalyses RemapPrinterPass::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  SmallVector<Function *, 8> Kernels(MAM.getResult<KernelSelection>(M));
  for (Function *K : Kernels) {
    Function *C = simplifiedRemapClone(*K, ".remap.analysis", FAM);
    outs() << "kernel " << K->getName() << ": " << analyseRemap(*C).describe()
           << "\n";
    C->eraseFromParent();
  }
  return PreservedAnalyses::all();
}

} // namespace smc
