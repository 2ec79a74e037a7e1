//===- Files.cpp - The files the runtime reads and writes -----------------===//
//
// See Files.h.
//===----------------------------------------------------------------------===//
#include "base/Files.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace smc {

bool readTextFile(const std::string &Path, std::string &Text) {
  std::ifstream File(Path);
  if (!File)
    return false;
  std::stringstream Buffer;
  Buffer << File.rdbuf();
  Text = Buffer.str();
  return true;
}

bool writeAtExit(const std::string &Path, std::string &Kept, void (*Write)()) {
  if (Path.empty())
    return false;
  Kept = Path;
  std::atexit(Write);
  return true;
}

} // namespace smc
