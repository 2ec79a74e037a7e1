//===- ABI.h - The SMC ABI as LLVM types ----------------------------------===//
//
// Builds, from include/smc/abi.h, the LLVM types and names the variant
// builders use: the descriptor struct, the info record, suffixed names.
// The smc-print-abi pass prints the nvptx64 layout for the lit test that
// compares it with the host's ("one ABI" in docs/DESIGN.md).
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_ABI_H
#define SMC_PASSES_ABI_H

#include "PassMixins.h"
#include "smc/abi.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class StructType;
class LLVMContext;
class IRBuilderBase;
class Value;
} // namespace llvm

namespace smc {

/// Index of each descriptor field in the struct type.
enum DescField : unsigned {
#define SMC_DESC_INDEX(name) Desc_##name,
  SMC_DESC_FIELDS(SMC_DESC_INDEX, SMC_DESC_INDEX)
#undef SMC_DESC_INDEX
      DescFieldCount
};

/// Index of each field of the info record (an array of uint32_t).
enum InfoField : unsigned {
#define SMC_INFO_INDEX(name) Info_##name,
  SMC_INFO_FIELDS(SMC_INFO_INDEX)
#undef SMC_INFO_INDEX
      InfoFieldCount
};

/// The variants SMC builds of a kernel.
enum class VariantKind : unsigned { SMCentric, Slice, Remap };
inline constexpr VariantKind AllVariantKinds[] = {
    VariantKind::SMCentric, VariantKind::Slice, VariantKind::Remap};

/// What the ABI says about one kind of variant.
struct VariantKindInfo {
  const char *Option;     // its name in -smc-transforms
  const char *Suffix;     // appended to the kernel's name
  SmcInfoFlag HasFlag;    // info-record flag: the variant exists
  uint32_t ModeFlags;     // info-record flags of the modes it runs in
  InfoField RefusalField; // info-record field: why it is missing
};

/// The row of \p Kind in the one table of variant kinds.
const VariantKindInfo &variantInfo(VariantKind Kind);

/// Is \p Name the name of a variant SMC built (K__smc, K__slice, K__remap,
/// K__remap_keys)?
bool isVariantName(llvm::StringRef Name);

/// %SmcDescriptor, created once per context.
llvm::StructType *descriptorType(llvm::LLVMContext &Ctx);

/// Loads field \p Field of the descriptor that \p Desc points to.
llvm::Value *loadDescField(llvm::IRBuilderBase &B, llvm::Value *Desc,
                           DescField Field, const llvm::Twine &Name = "");

/// Prints the nvptx64 layout of the descriptor and info record in the same
/// format as test/AbiDump.cpp.
struct PrintABIPass : RequiredPass<PrintABIPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace smc

#endif
