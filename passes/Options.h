//===- Options.h - Command-line options of the SMC plugin
//------------------===//
//
// The plugin's options (-smc-transforms, -smc-kernels), defined once in
// Options.cpp and read by the passes through these functions.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_OPTIONS_H
#define SMC_PASSES_OPTIONS_H

#include "llvm/ADT/StringRef.h"

namespace smc {

/// Which variants -smc-transforms asks for.
struct TransformSet {
  bool SMCentric = false;
  bool Slice = false;
  bool any() const { return SMCentric || Slice; }
};

/// The variants requested on the command line.  Unknown names are reported
/// through \p Error (empty when all were understood).
TransformSet requestedTransforms(std::string &Error);

/// Does -smc-kernels select the kernel with this (mangled or source) name?
bool kernelSelected(llvm::StringRef MangledName, llvm::StringRef SourceName);

/// Checks the -smc-kernels regex; false with a message if it is malformed.
bool kernelFilterValid(std::string &Error);

} // namespace smc

#endif
