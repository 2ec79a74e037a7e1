//===- Diagnostics.cpp - How the SMC plugin reports errors and refusals ---===//
//
// Errors go to the LLVMContext's diagnostic handler (clang prints them as
// "error: SMC: ..." and fails the compile; opt likewise).
//===----------------------------------------------------------------------===//
#include "Diagnostics.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smc {

char RefusalError::ID;

void RefusalError::log(raw_ostream &OS) const {
  OS << smcRefusalText(Code) << " (" << Detail << ")";
}

void reportError(LLVMContext &Ctx, const Twine &Message) {
  Ctx.diagnose(DiagnosticInfoGeneric(Twine("SMC: ") + Message, DS_Error));
}

void reportError(LLVMContext &Ctx, Error E) {
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &Info) {
    reportError(Ctx, Info.message());
  });
}

} // namespace smc
