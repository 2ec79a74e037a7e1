//===- KernelName.cpp - Source names of mangled kernel names --------------===//
//
// Demangles with llvm::ItaniumPartialDemangler, which knows the structure of
// the name and returns the function name without signature, so no scanner of
// demangled text is needed.  The plugin resolves the demangler from the
// LLVM that loads it; smc_core carries LLVM's self-contained demangler
// object (runtime/CMakeLists.txt), so a program needs no LLVM library.
//===----------------------------------------------------------------------===//
#include "base/KernelName.h"
#include "base/Text.h"

#include "llvm/Demangle/Demangle.h"

#include <cstdlib>

namespace smc {

std::string kernelSourceName(std::string_view MangledName) {
  std::string Mangled(MangledName); // NUL-terminated; must outlive Demangler
  // The demangler also parses bare types ("i" is int): only _Z names are
  // function names.
  if (Mangled.compare(0, 2, "_Z") != 0)
    return Mangled;
  llvm::ItaniumPartialDemangler Demangler;
  if (Demangler.partialDemangle(Mangled.c_str()))
    return Mangled;
  char *Name = Demangler.getFunctionName(nullptr, nullptr);
  if (!Name)
    return Mangled;
  std::string Source(Name);
  std::free(Name);
  return Source.empty() ? Mangled : Source;
}

// ASCII classes, whatever the program's locale.
static bool isIdentChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
         (C >= '0' && C <= '9') || C == '_' || C == '$';
}

std::string normalizeKernelName(std::string_view Name) {
  std::string Out;
  Out.reserve(Name.size());
  bool PendingSpace = false;
  for (char C : Name) {
    if (isSpace(C)) {
      PendingSpace = true;
      continue;
    }
    if (PendingSpace && !Out.empty() && isIdentChar(Out.back()) &&
        isIdentChar(C))
      Out.push_back(' ');
    PendingSpace = false;
    Out.push_back(C);
  }
  return Out;
}

} // namespace smc
