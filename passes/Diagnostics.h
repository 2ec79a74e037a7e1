//===- Diagnostics.h - How the SMC plugin reports errors and refusals -----===//
//
// The one place where the plugin's name in remarks, debug output and
// statistics ("smc": -Rpass=smc, -debug-only=smc) and the prefix of its
// error messages ("SMC: ") are spelled, and the error type a variant builder
// returns when it refuses a kernel.  Errors are compiler diagnostics, never
// aborts.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_DIAGNOSTICS_H
#define SMC_PASSES_DIAGNOSTICS_H

#include "smc/abi.h"

#include "llvm/Support/Error.h"
#include <string>

/// The name of SMC's remarks, of its -debug-only= type and of its statistics
/// group.  Every .cpp defines DEBUG_TYPE as this.
#define SMC_NAME "smc"

namespace llvm {
class LLVMContext;
class Twine;
} // namespace llvm

namespace smc {

/// The remark pass name: OptimizationRemark(RemarkName, ...).
inline constexpr const char *RemarkName = SMC_NAME;

/// Reports \p Message as a compiler error ("error: SMC: <message>").
void reportError(llvm::LLVMContext &Ctx, const llvm::Twine &Message);

/// Reports every error in \p E as a compiler error and consumes it.
void reportError(llvm::LLVMContext &Ctx, llvm::Error E);

/// Why a variant was not built: the reason code of abi.h and what exactly,
/// e.g. {SMC_REFUSAL_NOT_INLINABLE, "call of helper"}.
class RefusalError : public llvm::ErrorInfo<RefusalError> {
public:
  static char ID;
  RefusalError(SmcRefusal Code, std::string Detail)
      : Code(Code), Detail(std::move(Detail)) {}
  SmcRefusal code() const { return Code; }
  const std::string &detail() const { return Detail; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  SmcRefusal Code;
  std::string Detail;
};

} // namespace smc

#endif
