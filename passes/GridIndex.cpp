//===- GridIndex.cpp - Shared grid-index utilities of the variant builders ===//
//
// Recognises %ctaid / %nctaid reads (llvm.nvvm.read.ptx.sreg.{ctaid,nctaid}.*),
// inlines device functions that read them (LLVM's InlineFunction), clones
// kernels with the descriptor parameter (CloneFunctionInto) and rewrites the
// reads.
//===----------------------------------------------------------------------===//
#include "GridIndex.h"
#include "ABI.h"
#include "Diagnostics.h"

#include "llvm/Analysis/InlineCost.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace smc {

std::optional<GridReg> gridRegOf(const CallBase &Call) {
  // The registers a grid index comes from: %ctaid.{x,y,z}, %nctaid.{x,y,z}.
  static constexpr Intrinsic::ID BlockIdx[] = {
      Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
      Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
      Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
  static constexpr Intrinsic::ID GridDim[] = {
      Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
      Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
      Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
  Intrinsic::ID ID = Call.getIntrinsicID();
  for (unsigned Dim = 0; Dim < 3; ++Dim) {
    if (ID == BlockIdx[Dim])
      return GridReg{false, Dim};
    if (ID == GridDim[Dim])
      return GridReg{true, Dim};
  }
  return std::nullopt;
}

GridReaders::GridReaders(const Module &M) {
  SmallVector<const Function *, 32> Work;
  auto Add = [&](const Function *F) {
    if (Readers.insert(F).second)
      Work.push_back(F);
  };
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I); Call && gridRegOf(*Call))
        Add(&F);
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const User *U : F->users())
      if (auto *Call = dyn_cast<CallBase>(U);
          Call && Call->getCalledFunction() == F)
        Add(Call->getFunction());
  }
}

Error inlineGridReaders(Function &F) {
  GridReaders Readers(*F.getParent());
  bool Changed = true;
  while (Changed) {
    Changed = false;
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (!Callee->isDeclaration() && Readers.contains(Callee))
            Calls.push_back(Call);
    for (CallBase *Call : Calls) {
      InlineFunctionInfo IFI;
      Function *CalledFn = Call->getCalledFunction();
      std::string Callee = CalledFn->getName().str();
      // InlineFunction does not check this itself (a variadic callee would
      // leave va_start in a function that has no variadic arguments).
      if (!isInlineViable(*CalledFn).isSuccess() ||
          !InlineFunction(*Call, IFI).isSuccess())
        return make_error<RefusalError>(SMC_REFUSAL_NOT_INLINABLE,
                                        "call of " + Callee);
      Changed = true;
    }
  }
  return Error::success();
}

Function *cloneWithDescriptor(Function &K, StringRef Suffix) {
  Module &M = *K.getParent();
  LLVMContext &Ctx = M.getContext();
  SmallVector<Type *, 8> Params(K.getFunctionType()->params());
  Params.push_back(PointerType::get(Ctx, NVPTXAS::ADDRESS_SPACE_GENERIC));
  FunctionType *FT = FunctionType::get(K.getReturnType(), Params, K.isVarArg());
  GlobalValue::LinkageTypes Linkage = K.getLinkage();
  if (Linkage == GlobalValue::LinkOnceODRLinkage)
    Linkage = GlobalValue::WeakODRLinkage; // kept although nothing calls it
  Function *V = Function::Create(FT, Linkage, K.getAddressSpace(),
                                 K.getName() + Suffix, &M);
  V->setCallingConv(K.getCallingConv());
  V->setVisibility(K.getVisibility());
  V->setDSOLocal(K.isDSOLocal());

  ValueToValueMapTy VMap;
  auto NewArg = V->arg_begin();
  for (Argument &A : K.args()) {
    NewArg->setName(A.getName());
    VMap[&A] = &*NewArg++;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(V, &K, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  Argument *Desc = V->getArg(V->arg_size() - 1);
  Desc->setName("smc.desc");
  StructType *DescTy = descriptorType(Ctx);
  Desc->addAttr(Attribute::getWithByValType(Ctx, DescTy));
  Desc->addAttr(Attribute::getWithAlignment(Ctx, Align(8)));
  Desc->addAttr(Attribute::NoUndef);
  Desc->addAttr(Attribute::ReadOnly);
  return V;
}

unsigned GridReads::count() const {
  unsigned N = 0;
  for (unsigned D = 0; D < 3; ++D)
    N += BlockIdx[D].size() + GridDim[D].size();
  return N;
}

GridReads collectGridReads(Function &F) {
  GridReads Reads;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (std::optional<GridReg> R = gridRegOf(*Call))
        (R->IsGridDim ? Reads.GridDim : Reads.BlockIdx)[R->Dim].push_back(Call);
  return Reads;
}

void replaceGridReads(GridReads &Reads, const std::array<Value *, 3> &Chunk,
                      const std::array<Value *, 3> &Grid) {
  for (unsigned D = 0; D < 3; ++D) {
    for (CallInst *Call : Reads.BlockIdx[D]) {
      Call->replaceAllUsesWith(Chunk[D]);
      Call->eraseFromParent();
    }
    for (CallInst *Call : Reads.GridDim[D]) {
      Call->replaceAllUsesWith(Grid[D]);
      Call->eraseFromParent();
    }
  }
  Reads = GridReads();
}

/// N / d for the divisor whose constants are descriptor fields \p Mul, \p Add,
/// \p Shift: mulhi(N + Add, Mul) >> Shift (runtime/plan/MagicDivision.h says
/// why that is exact for every chunk id).  The loads (of the by-value kernel
/// parameter) sit next to their use rather than in the entry block, so that
/// nothing new is live across the chunk loop.
static Value *divideByMagic(IRBuilderBase &B, Value *Desc, Value *N,
                            DescField Mul, DescField Add, DescField Shift,
                            const Twine &Name, const Twine &FieldName) {
  Value *A = loadDescField(B, Desc, Add, FieldName + ".add");
  Value *M = loadDescField(B, Desc, Mul, FieldName + ".mul");
  Value *S = loadDescField(B, Desc, Shift, FieldName + ".shift");
  // N + Add cannot wrap: chunk ids are at most 2^32 - 2.
  Value *Sum = B.CreateAdd(N, A, Name + ".n", /*HasNUW=*/true);
  Value *Hi = B.CreateIntrinsic(B.getInt32Ty(), Intrinsic::nvvm_mulhi_ui,
                                {Sum, M}, nullptr, Name + ".hi");
  return B.CreateLShr(Hi, S, Name);
}

std::array<Value *, 3> chunkCoordinates(IRBuilderBase &B, Value *Desc,
                                        Value *Chunk, Value *GridX,
                                        Value *GridY, StringRef Name,
                                        Value *FirstRowY, Value *FirstRowZ) {
  // plane = chunk / grid_x and z = plane / grid_y by the runtime's
  // multiply-high constants (add, mul.hi, shift: no run-time division); the
  // remainders x and y as chunk - plane * grid_x and plane - z * grid_y.
  //
  // The first row (chunk < grid_x: x = chunk, y = z = 0) is branched around
  // the decomposition.  That still pays: the branch is a compare and a jump,
  // uniform across the CTA (every thread has the same chunk id), and every
  // chunk of a 1-D grid - the common case - takes it, so 1-D grids never run
  // the decomposition's two dependent add, mul.hi, shift, multiply-subtract
  // chains; a 2-D or 3-D grid pays the compare and jump on top of them.
  BasicBlock *From = B.GetInsertBlock();
  Function *F = From->getParent();
  LLVMContext &Ctx = F->getContext();
  BasicBlock *After = From->getNextNode();
  auto *Divide = BasicBlock::Create(Ctx, "smc.coords.divide", F, After);
  auto *Done = BasicBlock::Create(Ctx, "smc.coords", F, After);
  B.CreateCondBr(B.CreateICmpULT(Chunk, GridX, "smc.first.row"), Done, Divide);

  B.SetInsertPoint(Divide);
  Value *Plane = divideByMagic(B, Desc, Chunk, Desc_div_x_mul, Desc_div_x_add,
                               Desc_div_x_shift, "smc.plane", "smc.div.x");
  // plane * grid_x <= chunk: neither the product nor the difference wraps.
  Value *X = B.CreateNUWSub(
      Chunk, B.CreateNUWMul(Plane, GridX, "smc.plane.start"), "smc.x");
  Value *Z = divideByMagic(B, Desc, Plane, Desc_div_y_mul, Desc_div_y_add,
                           Desc_div_y_shift, "smc.z", "smc.div.y");
  Value *Y =
      B.CreateNUWSub(Plane, B.CreateNUWMul(Z, GridY, "smc.z.start"), "smc.y");
  B.CreateBr(Done);

  B.SetInsertPoint(Done);
  Value *Zero = B.getInt32(0);
  FirstRowY = FirstRowY ? FirstRowY : Zero;
  FirstRowZ = FirstRowZ ? FirstRowZ : Zero;
  auto Merge = [&](Value *FirstRow, Value *Divided, const char *Dim) {
    PHINode *Phi = B.CreatePHI(B.getInt32Ty(), 2, Name + Dim);
    Phi->addIncoming(FirstRow, From);
    Phi->addIncoming(Divided, Divide);
    return Phi;
  };
  return {Merge(Chunk, X, ".x"), Merge(FirstRowY, Y, ".y"),
          Merge(FirstRowZ, Z, ".z")};
}

void moveStaticAllocas(BasicBlock &From, BasicBlock &To) {
  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : From)
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isa<ConstantInt>(AI->getArraySize()))
        Allocas.push_back(AI);
  for (AllocaInst *AI : Allocas)
    AI->moveBefore(To.end());
}

void positionAtEnd(IRBuilderBase &B, BasicBlock *BB) {
  B.SetInsertPoint(BB);
  if (DISubprogram *SP = BB->getParent()->getSubprogram())
    B.SetCurrentDebugLocation(
        DILocation::get(BB->getContext(), SP->getLine(), 0, SP));
}

Expected<VariantStart> startVariant(Function &K, VariantKind Kind) {
  Function *V = cloneWithDescriptor(K, variantInfo(Kind).Suffix);
  if (Error E = inlineGridReaders(*V)) {
    V->eraseFromParent();
    return std::move(E);
  }
  VariantStart S;
  S.V = V;
  S.Desc = V->getArg(V->arg_size() - 1);
  S.Reads = collectGridReads(*V);
  S.NumReads = S.Reads.count();
  S.Body = &V->getEntryBlock();
  S.Entry = BasicBlock::Create(V->getContext(), "smc.entry", V, S.Body);
  moveStaticAllocas(*S.Body, *S.Entry);
  IRBuilder<> B(V->getContext());
  positionAtEnd(B, S.Entry);
  S.Grid = {loadDescField(B, S.Desc, Desc_grid_x, "smc.gridDim.x"),
            loadDescField(B, S.Desc, Desc_grid_y, "smc.gridDim.y"),
            loadDescField(B, S.Desc, Desc_grid_z, "smc.gridDim.z")};
  return S;
}

} // namespace smc
