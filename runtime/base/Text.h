//===- Text.h - Text helpers for names, policies and options ----*- C++ -*-===//
//
// The one definition of whitespace that kernel names (KernelName.cpp, also
// compiled into the plugin) and policy text (PolicyText.cpp) are read with:
// the C locale's six space characters, independent of the process locale.
// Also the splitting and number reading of policy text, which the co-run
// benchmark's command line (bench/corun/CoRunPlan.cpp) shares, the joining
// of names into one, and the number format of the schedulers' reasons.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_TEXT_H
#define SMC_RUNTIME_BASE_TEXT_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

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

/// `V` with three decimals ("1.234"), as reasons and messages print ratios.
inline std::string fixed3(double V) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof(Buffer), "%.3f", V);
  return Buffer;
}

/// `Parts` with `Sep` between each two ("a + b + c").
inline std::string join(const std::vector<std::string> &Parts,
                        std::string_view Sep) {
  std::string Text;
  for (size_t I = 0; I < Parts.size(); ++I)
    Text += (I ? std::string(Sep) : std::string()) + Parts[I];
  return Text;
}

/// `S` split at every `Sep`; empty pieces are kept.
inline std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Parts;
  size_t Begin = 0;
  for (;;) {
    size_t End = S.find(Sep, Begin);
    if (End == std::string::npos) {
      Parts.push_back(S.substr(Begin));
      return Parts;
    }
    Parts.push_back(S.substr(Begin, End - Begin));
    Begin = End + 1;
  }
}

/// Parses a decimal number made of digits only; false if empty, not all
/// digits or above `Max`.
inline bool parseNumber(const std::string &S, uint64_t Max, uint64_t &Value) {
  if (S.empty())
    return false;
  Value = 0;
  for (char C : S) {
    if (C < '0' || C > '9')
      return false;
    Value = Value * 10 + static_cast<uint64_t>(C - '0');
    if (Value > Max)
      return false;
  }
  return true;
}

} // namespace smc

#endif // SMC_RUNTIME_BASE_TEXT_H
