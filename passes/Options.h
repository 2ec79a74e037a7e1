//===- Options.h - Command-line options of the SMC plugin -------*- C++ -*-===//
//
// The plugin's options (-smc-transforms, -smc-kernels, -smc-drained-exits),
// defined once in Options.cpp and read by the passes through these functions.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_OPTIONS_H
#define SMC_PASSES_OPTIONS_H

#include "ABI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace smc {

/// Which variants -smc-transforms asks for.
class TransformSet {
public:
  bool has(VariantKind Kind) const {
    return Bits >> static_cast<unsigned>(Kind) & 1;
  }
  void add(VariantKind Kind) { Bits |= 1u << static_cast<unsigned>(Kind); }
  bool any() const { return Bits != 0; }

private:
  unsigned Bits = 0;
};

/// The variants requested on the command line, or an error naming the
/// values that are not variant names.
llvm::Expected<TransformSet> requestedTransforms();

/// Checks the -smc-kernels regex: an error if it is malformed.
llvm::Error checkKernelFilter();

/// Does -smc-kernels select the kernel with this (mangled or source) name?
bool kernelSelected(llvm::StringRef MangledName, llvm::StringRef SourceName);

/// Does -smc-drained-exits ask for persistent workers for kernels with a
/// divergent exit before a barrier?
bool drainedExitsRequested();

/// Does -smc-trace ask for __smc variants that write SMC_TRACE records?
bool traceRequested();

} // namespace smc

#endif
