//===- KernelInfo.cpp - The <kernel>__smc_info record in the device module ===//
//
// An addrspace(1) constant [5 x i32] named <kernel>__smc_info, with the
// kernel's linkage (weak_odr for templates), kept by llvm.compiler.used.
//===----------------------------------------------------------------------===//
#include "KernelInfo.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace smc {

void recordVariant(Function &K, VariantKind Kind, SmcRefusal Refusal,
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
                            NVPTXAS::ADDRESS_SPACE_GLOBAL);
    GV->setAlignment(Align(4));
    appendToCompilerUsed(M, {GV});
  }

  const VariantKindInfo &Info = variantInfo(Kind);
  uint32_t &Flags = Fields[Info_flags];
  Flags &= ~(Info.HasFlag | Info.ModeFlags);
  if (Refusal == SMC_REFUSAL_NONE)
    Flags |= Info.HasFlag | (ModeFlags & Info.ModeFlags);
  Fields[Info.RefusalField] = Refusal;
  GV->setInitializer(ConstantDataArray::get(Ctx, ArrayRef(Fields)));
}

} // namespace smc
