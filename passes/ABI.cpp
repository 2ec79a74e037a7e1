//===- ABI.cpp - The SMC ABI as LLVM types --------------------------------===//
//
// The descriptor struct type is built field by field from SMC_DESC_FIELDS in
// include/smc/abi.h, so the pass and the runtime share one definition; the
// table of variant kinds names, for each, what abi.h defines for it.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes=smc-print-abi \
//            -disable-output in.ll
//===----------------------------------------------------------------------===//
#include "ABI.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smc {

static const VariantKindInfo VariantKinds[] = {
    // VariantKind::SMCentric
    {"smc", SMC_SUFFIX_SMC, SMC_INFO_HAS_SMC,
     SMC_INFO_ONE_CHUNK | SMC_INFO_ORDERED | SMC_INFO_TRACED, Info_smc_refusal},
    // VariantKind::Slice
    {"slice", SMC_SUFFIX_SLICE, SMC_INFO_HAS_SLICE, 0, Info_slice_refusal},
    // VariantKind::Remap (and its inspector, K__remap_keys)
    {"remap", SMC_SUFFIX_REMAP, SMC_INFO_HAS_REMAP, 0, Info_remap_refusal},
};
static_assert(std::size(VariantKinds) == std::size(AllVariantKinds));

const VariantKindInfo &variantInfo(VariantKind Kind) {
  return VariantKinds[static_cast<unsigned>(Kind)];
}

bool isVariantName(StringRef Name) {
  return Name.ends_with(SMC_SUFFIX_REMAP_KEYS) ||
         any_of(VariantKinds, [&](const VariantKindInfo &Info) {
           return Name.ends_with(Info.Suffix);
         });
}

StructType *descriptorType(LLVMContext &Ctx) {
  if (StructType *T = StructType::getTypeByName(Ctx, "SmcDescriptor"))
    return T;
  Type *U32 = Type::getInt32Ty(Ctx);
  Type *Ptr = PointerType::get(Ctx, NVPTXAS::ADDRESS_SPACE_GENERIC);
  SmallVector<Type *, DescFieldCount> Fields;
#define SMC_DESC_U32(name) Fields.push_back(U32);
#define SMC_DESC_PTR(name) Fields.push_back(Ptr);
  SMC_DESC_FIELDS(SMC_DESC_U32, SMC_DESC_PTR)
#undef SMC_DESC_U32
#undef SMC_DESC_PTR
  return StructType::create(Ctx, Fields, "SmcDescriptor");
}

Value *loadDescField(IRBuilderBase &B, Value *Desc, DescField Field,
                     const Twine &Name) {
  StructType *T = descriptorType(B.getContext());
  Value *Addr = B.CreateStructGEP(T, Desc, Field, Name + ".addr");
  return B.CreateLoad(T->getElementType(Field), Addr, Name);
}

PreservedAnalyses PrintABIPass::run(Module &M, ModuleAnalysisManager &) {
  // The layout the device side sees: nvptx64's, whatever module is given.
  DataLayout DL("e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64");
  StructType *T = descriptorType(M.getContext());
  const StructLayout *SL = DL.getStructLayout(T);
  static const char *const DescNames[] = {
#define SMC_DESC_NAME(name) #name,
      SMC_DESC_FIELDS(SMC_DESC_NAME, SMC_DESC_NAME)
#undef SMC_DESC_NAME
  };
  raw_ostream &OS = outs();
  for (unsigned I = 0; I < DescFieldCount; ++I)
    OS << "desc " << DescNames[I] << " " << SL->getElementOffset(I) << " "
       << DL.getTypeAllocSize(T->getElementType(I)) << "\n";
  OS << "desc-size " << DL.getTypeAllocSize(T) << "\n";
  // The info record is an array of uint32_t, one per field.
  static const char *const InfoNames[] = {
#define SMC_INFO_NAME(name) #name,
      SMC_INFO_FIELDS(SMC_INFO_NAME)
#undef SMC_INFO_NAME
  };
  unsigned Offset = 0;
  for (const char *Name : InfoNames) {
    OS << "info " << Name << " " << Offset << " 4\n";
    Offset += 4;
  }
  OS << "info-size " << Offset << "\n";
  OS << "abi-version " << SMC_ABI_VERSION << "\n";
  return PreservedAnalyses::all();
}

} // namespace smc
