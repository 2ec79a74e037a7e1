//===- KernelName.h - Source names of mangled kernel names ------*- C++ -*-===//
//
// Turns a kernel's mangled name into the name a user writes in -smc-kernels
// and SMC_POLICY: the qualified name with template arguments, without
// parameter list and return type (_ZN2ns5scaleIfEEvPT_i -> ns::scale<float>).
// One implementation, compiled into both the plugin and smc_core, so that
// the compiler and the runtime spell every kernel the same way.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_KERNELNAME_H
#define SMC_RUNTIME_BASE_KERNELNAME_H

#include <string>
#include <string_view>

namespace smc {

/// The source name of a kernel from its (Itanium) mangled name, as LLVM's
/// demangler spells the function name: "vecAdd", "ns::scale<float>",
/// "(anonymous namespace)::k".  Names that are not mangled (extern "C"
/// kernels) and names the demangler rejects come back unchanged.
std::string kernelSourceName(std::string_view MangledName);

/// The spelling kernel names are compared in: whitespace removed except one
/// space between two identifier characters ("unsigned int"), so that
/// "V<V<int> >", "V<V<int>>" and "V< V<int> >" compare equal.
std::string normalizeKernelName(std::string_view Name);

} // namespace smc

#endif // SMC_RUNTIME_BASE_KERNELNAME_H
