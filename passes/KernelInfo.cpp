//===- KernelInfo.cpp - The <kernel>__smc_info record in the device module
//-===//
//
// An addrspace(1) constant [5 x i32] named <kernel>__smc_info, with the
// kernel's linkage (weak_odr for templates), kept by llvm.compiler.used.
//===----------------------------------------------------------------------===//
#include "KernelInfo.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace smc {

namespace {
enum InfoIndex : unsigned {
#define SMC_INFO_INDEX(name) Info_##name,
  SMC_INFO_FIELDS(SMC_INFO_INDEX)
#undef SMC_INFO_INDEX
      InfoFieldCount
};
} // namespace

void recordVariant(Function &K, bool Slice, SmcRefusal Refusal,
                   uint32_t ModeFlags) {
  Module &M = *K.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  ArrayType *Ty = ArrayType::get(I32, InfoFieldCount);
  std::string Name = (K.getName() + SMC_SUFFIX_INFO).str();

  uint32_t Fields[InfoFieldCount] = {};
  Fields[Info_abi_version] = SMC_ABI_VERSION;
  Fields[Info_num_params] = K.arg_size();
  Fields[Info_smc_refusal] = SMC_REFUSAL_NOT_REQUESTED;
  Fields[Info_slice_refusal] = SMC_REFUSAL_NOT_REQUESTED;
  GlobalVariable *GV = M.getGlobalVariable(Name);
  if (GV) {
    auto *Init = cast<ConstantDataArray>(GV->getInitializer());
    for (unsigned I = 0; I < InfoFieldCount; ++I)
      Fields[I] = Init->getElementAsInteger(I);
  } else {
    GlobalValue::LinkageTypes Linkage =
        K.hasLinkOnceODRLinkage() || K.hasWeakODRLinkage()
            ? GlobalValue::WeakODRLinkage
            : K.getLinkage();
    GV = new GlobalVariable(M, Ty, /*isConstant=*/true, Linkage, nullptr, Name,
                            nullptr, GlobalValue::NotThreadLocal,
                            /*AddressSpace=*/1);
    GV->setAlignment(Align(4));
    appendToCompilerUsed(M, {GV});
  }

  uint32_t Bit = Slice ? SMC_INFO_HAS_SLICE : SMC_INFO_HAS_SMC;
  uint32_t &Flags = Fields[Info_flags];
  Flags &= ~Bit;
  if (Refusal == SMC_REFUSAL_NONE)
    Flags |= Bit;
  if (!Slice) {
    const uint32_t Modes = SMC_INFO_ONE_CHUNK | SMC_INFO_ORDERED;
    Flags &= ~Modes;
    if (Refusal == SMC_REFUSAL_NONE)
      Flags |= ModeFlags & Modes;
  }
  Fields[Slice ? Info_slice_refusal : Info_smc_refusal] = Refusal;
  GV->setInitializer(ConstantDataArray::get(Ctx, ArrayRef(Fields)));
}

} // namespace smc
