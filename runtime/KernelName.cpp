//===- KernelName.cpp - Source names of mangled kernel names --------------===//
//
// Demangles with abi::__cxa_demangle and strips the signature with a small
// scanner that tracks nesting and steps over operator names.
//===----------------------------------------------------------------------===//
#include "KernelName.h"

#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <vector>

namespace smc {
namespace {

bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$';
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n'; }

// If an operator name starts at `i` ("operator" as a whole word), returns
// the index just after its symbol part ("operator<<" -> after "<<",
// "operator new" -> after the space, so "new" scans as an identifier);
// otherwise returns i.
size_t skipOperatorName(const std::string &s, size_t i) {
  static const char kWord[] = "operator";
  const size_t wordLen = sizeof(kWord) - 1;
  if (s.compare(i, wordLen, kWord) != 0)
    return i;
  if (i > 0 && isIdentChar(s[i - 1]))
    return i;
  size_t j = i + wordLen;
  if (j < s.size() && isIdentChar(s[j]))
    return i; // an identifier such as "operators"
  while (j < s.size() && isSpace(s[j]))
    ++j;
  // Longest operator token first.
  static const char *const kTokens[] = {
      "->*", "<<=", ">>=", "<=>", "()", "[]",   "->", "<<", ">>", "<=",
      ">=",  "==",  "!=",  "&&",  "||", "++",   "--", "+=", "-=", "*=",
      "/=",  "%=",  "&=",  "|=",  "^=", "\"\"", ",",  "+",  "-",  "*",
      "/",   "%",   "^",   "&",   "|",  "~",    "!",  "=",  "<",  ">"};
  for (const char *token : kTokens) {
    size_t len = std::strlen(token);
    if (s.compare(j, len, token) == 0)
      return j + len;
  }
  return j;
}

// What a scan of a demangled name finds at nesting depth zero.
struct TopLevel {
  // The '(' of the top-level group whose ')' is the last character.
  size_t trailingParamsOpen = std::string::npos;
  // The last space outside any brackets and operator names.
  size_t lastSpace = std::string::npos;
};

TopLevel scanTopLevel(const std::string &s) {
  TopLevel top;
  std::vector<char> open; // stack of open brackets
  size_t lastOpenParen = std::string::npos;
  for (size_t i = 0; i < s.size();) {
    size_t next = skipOperatorName(s, i);
    if (next != i) {
      i = next;
      continue;
    }
    char c = s[i];
    switch (c) {
    case '(':
      if (open.empty())
        lastOpenParen = i;
      open.push_back(c);
      break;
    case '[':
    case '{':
      open.push_back(c);
      break;
    case '<':
      // Inside parentheses '<' is an operator of an expression
      // ("foo<(1<2)>"), not a template bracket.
      if (open.empty() || open.back() != '(')
        open.push_back(c);
      break;
    case '>':
      if (!open.empty() && open.back() == '<')
        open.pop_back();
      break;
    case ')':
    case ']':
    case '}': {
      char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      // Unclosed template brackets inside a group end with it.
      while (!open.empty() && open.back() == '<')
        open.pop_back();
      if (!open.empty() && open.back() == want)
        open.pop_back();
      if (c == ')' && open.empty() && i + 1 == s.size())
        top.trailingParamsOpen = lastOpenParen;
      break;
    }
    default:
      if (isSpace(c) && open.empty())
        top.lastSpace = i;
      break;
    }
    ++i;
  }
  return top;
}

std::string trimRight(std::string s) {
  while (!s.empty() && isSpace(s.back()))
    s.pop_back();
  return s;
}

} // namespace

std::string stripSignature(const std::string &demangled) {
  std::string name = trimRight(demangled);
  TopLevel top = scanTopLevel(name);
  if (top.trailingParamsOpen != std::string::npos && top.trailingParamsOpen > 0)
    name = trimRight(name.substr(0, top.trailingParamsOpen));
  top = scanTopLevel(name);
  if (top.lastSpace != std::string::npos)
    name = name.substr(top.lastSpace + 1);
  return name;
}

std::string kernelSourceName(const std::string &mangledName) {
  if (mangledName.compare(0, 2, "_Z") != 0)
    return mangledName;
  int status = 0;
  char *demangled =
      abi::__cxa_demangle(mangledName.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !demangled) {
    std::free(demangled);
    return mangledName;
  }
  std::string source = stripSignature(demangled);
  std::free(demangled);
  return source.empty() ? mangledName : source;
}

std::string normalizeKernelName(const std::string &name) {
  std::string out;
  out.reserve(name.size());
  bool pendingSpace = false;
  for (char c : name) {
    if (isSpace(c) || c == '\r' || c == '\f' || c == '\v') {
      pendingSpace = true;
      continue;
    }
    if (pendingSpace && !out.empty() && isIdentChar(out.back()) &&
        isIdentChar(c))
      out.push_back(' ');
    pendingSpace = false;
    out.push_back(c);
  }
  return out;
}

} // namespace smc
