//===- KernelInfo.h - The <kernel>__smc_info record in the device module --===//
//
// For each kernel it considers, the plugin leaves a record the runtime reads
// with cuModuleGetGlobal: which variants exist, whether __smc must run one
// chunk per worker, the original parameter count, why a variant is missing
// and which neighbouring CTAs share data (SmcKernelInfo in abi.h).
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_KERNELINFO_H
#define SMC_PASSES_KERNELINFO_H

#include "ABI.h"

namespace llvm {
class Function;
}

namespace smc {

/// Records in K's info record that its variant of kind \p Kind was built
/// (\p Refusal none) or refused, and the mode flags it must run with (those
/// of \p ModeFlags the kind has: SMC_INFO_ONE_CHUNK, SMC_INFO_ORDERED).
void recordVariant(llvm::Function &K, VariantKind Kind, SmcRefusal Refusal,
                   uint32_t ModeFlags = 0);

/// Records K's CTA locality class in its info record.  A record made
/// before (or without) this holds SMC_LOCALITY_UNKNOWN.
void recordLocality(llvm::Function &K, SmcLocality Locality);

/// Records what the key of K's __remap variant is (SmcRemapKey).
void recordRemapKey(llvm::Function &K, SmcRemapKey Key);

} // namespace smc

#endif
