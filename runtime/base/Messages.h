//===- Messages.h - What the runtime tells the user, once -------*- C++ -*-===//
//
// The runtime never fails a program's launch for a reason of its own: it
// runs the original kernel and says why, once (docs/DESIGN.md, "Fallback").
// tell() prints "smc: <line>" to stderr the first time it sees a line.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_MESSAGES_H
#define SMC_RUNTIME_BASE_MESSAGES_H

#include <string>

namespace smc {

// Prints "smc: <Line>" to stderr, once per distinct line.
void tell(const std::string &Line);

} // namespace smc

#endif // SMC_RUNTIME_BASE_MESSAGES_H
