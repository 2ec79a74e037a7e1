//===- KernelInfo.h - The <kernel>__smc_info record in the device module --===//
//
// For each kernel it considers, the plugin leaves a record the runtime reads
// with cuModuleGetGlobal: which variants exist, whether __smc must run one
// chunk per worker, the original parameter count, and why a variant is
// missing (SmcKernelInfo in abi.h).
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_KERNELINFO_H
#define SMC_PASSES_KERNELINFO_H

#include "smc/abi.h"

namespace llvm {
class Function;
}

namespace smc {

/// Records in K's info record that its __smc (\p Slice false) or __slice
/// variant was built (\p Refusal none) or refused, and for __smc the mode
/// flags it must run with (SMC_INFO_ONE_CHUNK, SMC_INFO_ORDERED).
void recordVariant(llvm::Function &K, bool Slice, SmcRefusal Refusal,
                   uint32_t ModeFlags = 0);

} // namespace smc

#endif
