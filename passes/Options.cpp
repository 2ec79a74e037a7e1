//===- Options.cpp - Command-line options of the SMC plugin
//----------------===//
//
// -smc-transforms=<list>  variants to build: smc, slice (comma-separated);
//                         none selected means the plugin changes nothing.
// -smc-kernels=<regex>    kernels to transform, matched against the whole
//                         mangled or source name (default: all kernels).
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

static cl::list<std::string> TransformsOpt(
    "smc-transforms", cl::CommaSeparated,
    cl::desc("SMC variants to build for each selected kernel: smc "
             "(SM-centric), slice (index-rectified slices); none: no change"),
    cl::value_desc("smc,slice"));

static cl::opt<std::string> KernelsOpt(
    "smc-kernels", cl::init(""),
    cl::desc("Regex selecting the kernels SMC transforms, matched against "
             "the whole mangled or source name (default: all)"),
    cl::value_desc("regex"));

namespace smc {

TransformSet requestedTransforms(std::string &Error) {
  TransformSet Set;
  Error.clear();
  for (const std::string &Name : TransformsOpt) {
    StringRef T = StringRef(Name).trim();
    if (T == "smc")
      Set.SMCentric = true;
    else if (T == "slice")
      Set.Slice = true;
    else if (!T.empty())
      Error += (Error.empty() ? "" : ", ") + ("'" + T + "'").str();
  }
  if (!Error.empty())
    Error = "unknown -smc-transforms value " + Error + " (known: smc, slice)";
  return Set;
}

bool kernelFilterValid(std::string &Error) {
  std::string RegexError;
  if (Regex("^(" + KernelsOpt + ")$").isValid(RegexError))
    return true;
  Error = "malformed -smc-kernels regex '" + KernelsOpt + "': " + RegexError;
  return false;
}

bool kernelSelected(StringRef MangledName, StringRef SourceName) {
  if (KernelsOpt.empty())
    return true;
  Regex R("^(" + KernelsOpt + ")$");
  return R.match(MangledName) || R.match(SourceName);
}

} // namespace smc
