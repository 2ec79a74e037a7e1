//===- KernelInfo.cpp - The <kernel>__smc_info record in the device module ===//
//
// An addrspace(1) constant array of i32, one per field of SMC_INFO_FIELDS,
// named <kernel>__smc_info, with the kernel's linkage (weak_odr for
// templates), kept by llvm.compiler.used.  Each outcome (a variant built or
// refused, the locality class) updates its own fields.
//===----------------------------------------------------------------------===//
#include "KernelInfo.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <algorithm>
#include <iterator>

using namespace llvm;

namespace smc {

// K's info record, made with defaults if there is none yet, and its fields.
static GlobalVariable *infoRecord(Function &K,
                                  uint32_t (&Fields)[InfoFieldCount]) {
  Module &M = *K.getParent();
  Type *I32 = Type::getInt32Ty(M.getContext());
  ArrayType *Ty = ArrayType::get(I32, InfoFieldCount);
  std::string Name = (K.getName() + SMC_SUFFIX_INFO).str();

  std::fill(std::begin(Fields), std::end(Fields), 0);
  Fields[Info_abi_version] = SMC_ABI_VERSION;
  Fields[Info_num_params] = K.arg_size();
  Fields[Info_smc_refusal] = SMC_REFUSAL_NOT_REQUESTED;
  Fields[Info_slice_refusal] = SMC_REFUSAL_NOT_REQUESTED;
  Fields[Info_remap_refusal] = SMC_REFUSAL_NOT_REQUESTED;
  Fields[Info_locality] = SMC_LOCALITY_UNKNOWN;
  GlobalVariable *GV = M.getGlobalVariable(Name);
  if (GV) {
    auto *Init = cast<ConstantDataArray>(GV->getInitializer());
    for (unsigned I = 0; I < InfoFieldCount; ++I)
      Fields[I] = Init->getElementAsInteger(I);
    return GV;
  }
  GlobalValue::LinkageTypes Linkage =
      K.hasLinkOnceODRLinkage() || K.hasWeakODRLinkage()
          ? GlobalValue::WeakODRLinkage
          : K.getLinkage();
  GV = new GlobalVariable(M, Ty, /*isConstant=*/true, Linkage, nullptr, Name,
                          nullptr, GlobalValue::NotThreadLocal,
                          NVPTXAS::ADDRESS_SPACE_GLOBAL);
  GV->setAlignment(Align(4));
  appendToCompilerUsed(M, {GV});
  return GV;
}

static void setFields(GlobalVariable *GV,
                      const uint32_t (&Fields)[InfoFieldCount]) {
  GV->setInitializer(
      ConstantDataArray::get(GV->getContext(), ArrayRef(Fields)));
}

void recordVariant(Function &K, VariantKind Kind, SmcRefusal Refusal,
                   uint32_t ModeFlags) {
  uint32_t Fields[InfoFieldCount];
  GlobalVariable *GV = infoRecord(K, Fields);
  const VariantKindInfo &Info = variantInfo(Kind);
  uint32_t &Flags = Fields[Info_flags];
  Flags &= ~(Info.HasFlag | Info.ModeFlags);
  if (Refusal == SMC_REFUSAL_NONE)
    Flags |= Info.HasFlag | (ModeFlags & Info.ModeFlags);
  Fields[Info.RefusalField] = Refusal;
  setFields(GV, Fields);
}

void recordLocality(Function &K, SmcLocality Locality) {
  uint32_t Fields[InfoFieldCount];
  GlobalVariable *GV = infoRecord(K, Fields);
  Fields[Info_locality] = Locality;
  setFields(GV, Fields);
}

void recordRemapKey(Function &K, SmcRemapKey Key) {
  uint32_t Fields[InfoFieldCount];
  GlobalVariable *GV = infoRecord(K, Fields);
  Fields[Info_remap_key] = Key;
  setFields(GV, Fields);
}

} // namespace smc
