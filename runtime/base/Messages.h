//===- Messages.h - What the runtime tells the user, once -------*- C++ -*-===//
//
// The runtime never fails a program's launch for a reason of its own: it
// runs the original kernel and says why, once (docs/DESIGN.md, "Fallback").
// tell() prints "smc: <line>" to stderr the first time it sees a line.
// What the runtime records (statistics, traces, profiles) it writes at exit.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_MESSAGES_H
#define SMC_RUNTIME_BASE_MESSAGES_H

#include <string>

namespace smc {

// Prints "smc: <Line>" to stderr, once per distinct line.
void tell(const std::string &Line);

// When `Path` names a file (not empty): keeps it in `Kept` and has `Write`
// run at exit, where it writes the file from host data alone (no CUDA call
// runs at exit).  Whether it does.
bool writeAtExit(const std::string &Path, std::string &Kept, void (*Write)());

} // namespace smc

#endif // SMC_RUNTIME_BASE_MESSAGES_H
