//===- Messages.cpp - What the runtime tells the user, once ---------------===//
//
// The set of lines told so far, never destroyed: messages from static
// destructors still find it.
//===----------------------------------------------------------------------===//
#include "base/Messages.h"

#include "base/Forever.h"
#include "base/Locks.h"

#include <cstdio>
#include <set>

namespace smc {
namespace {

struct Told {
  OrderedMutex Mutex{LockLevel::Messages}; // guards Lines
  std::set<std::string> Lines;
};

} // namespace

void tell(const std::string &Line) {
  Told &T = forever<Told>();
  Guard Lock(T.Mutex);
  if (T.Lines.insert(Line).second)
    std::fprintf(stderr, "smc: %s\n", Line.c_str());
}

} // namespace smc
