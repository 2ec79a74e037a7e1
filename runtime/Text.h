//===- Text.h - Whitespace helpers for names and policy text ----*- C++ -*-===//
//
// The one definition of whitespace that kernel names (KernelName.cpp, also
// compiled into the plugin) and policy text (PolicyText.cpp) are read with:
// the C locale's six space characters, independent of the process locale.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_TEXT_H
#define SMC_RUNTIME_TEXT_H

#include <string>
#include <string_view>

namespace smc {

inline bool isSpace(char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' ||
         C == '\v';
}

/// `S` without leading and trailing whitespace.
inline std::string trim(std::string_view S) {
  size_t B = 0, E = S.size();
  while (B < E && isSpace(S[B]))
    ++B;
  while (E > B && isSpace(S[E - 1]))
    --E;
  return std::string(S.substr(B, E - B));
}

} // namespace smc

#endif // SMC_RUNTIME_TEXT_H
