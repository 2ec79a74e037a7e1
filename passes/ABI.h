//===- ABI.h - The SMC ABI as LLVM types ----------------------------------===//
//
// Builds, from include/smc/abi.h, the LLVM types and names the variant
// builders use: the descriptor struct, the info record, suffixed names.
// The smc-print-abi pass prints the nvptx64 layout for the lit test that
// compares it with the host's ("one ABI" in docs/DESIGN.md).
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_ABI_H
#define SMC_PASSES_ABI_H

#include "smc/abi.h"

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

/// %SmcDescriptor, created once per context.
llvm::StructType *descriptorType(llvm::LLVMContext &Ctx);

/// Loads field \p Field of the descriptor that \p Desc points to.
llvm::Value *loadDescField(llvm::IRBuilderBase &B, llvm::Value *Desc,
                           DescField Field, const llvm::Twine &Name = "");

/// Prints the nvptx64 layout of the descriptor and info record in the same
/// format as test/AbiDump.cpp.
struct PrintABIPass : llvm::PassInfoMixin<PrintABIPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace smc

#endif
