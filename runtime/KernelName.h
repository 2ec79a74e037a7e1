//===- KernelName.h - Source names of mangled kernel names ------*- C++ -*-===//
//
// Turns a kernel's mangled name into the name a user writes in a policy:
// the qualified name with template arguments, without parameter list and
// return type (_ZN2ns5scaleIfEEvPT_i -> ns::scale<float>).  Pure C++.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_KERNELNAME_H
#define SMC_RUNTIME_KERNELNAME_H

#include <string>

namespace smc {

// The source name of a kernel from its mangled name: demangled, then
// stripSignature().  Names that are not mangled (extern "C" kernels) and
// names the demangler rejects come back unchanged.
std::string kernelSourceName(const std::string &mangledName);

// Drops the top-level trailing parameter list of a demangled function name
// and, where one is left (templates), the leading return type at the last
// top-level space.  Parentheses, brackets, braces and template brackets nest;
// operator names (operator(), operator<, operator new) are not taken apart.
//   "void ns::scale<float>(float*, int)" -> "ns::scale<float>"
//   "(anonymous namespace)::k(int)"      -> "(anonymous namespace)::k"
std::string stripSignature(const std::string &demangled);

// The spelling kernel names are compared in: whitespace removed except one
// space between two identifier characters ("unsigned int"), so that
// "V<V<int> >", "V<V<int>>" and "V< V<int> >" compare equal.
std::string normalizeKernelName(const std::string &name);

} // namespace smc

#endif // SMC_RUNTIME_KERNELNAME_H
