//===- Options.cpp - Command-line options of the SMC plugin ---------------===//
//
// -smc-transforms=<list>  variants to build: smc, slice (comma-separated);
//                         none selected means the plugin changes nothing.
// -smc-kernels=<regex>    kernels to transform, matched against the whole
//                         mangled or source name (default: all kernels).
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "llvm/ADT/STLExtras.h"
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

Expected<TransformSet> requestedTransforms() {
  TransformSet Set;
  std::string Unknown;
  for (const std::string &Name : TransformsOpt) {
    StringRef T = StringRef(Name).trim();
    const VariantKind *Kind = find_if(AllVariantKinds, [&](VariantKind K) {
      return T == variantInfo(K).Option;
    });
    if (Kind != std::end(AllVariantKinds))
      Set.add(*Kind);
    else if (!T.empty())
      Unknown += (Unknown.empty() ? "" : ", ") + ("'" + T + "'").str();
  }
  if (!Unknown.empty())
    return createStringError("unknown -smc-transforms value " + Unknown +
                             " (known: smc, slice)");
  return Set;
}

Error checkKernelFilter() {
  std::string RegexError;
  if (Regex("^(" + KernelsOpt + ")$").isValid(RegexError))
    return Error::success();
  return createStringError("malformed -smc-kernels regex '" + KernelsOpt +
                           "': " + RegexError);
}

bool kernelSelected(StringRef MangledName, StringRef SourceName) {
  if (KernelsOpt.empty())
    return true;
  Regex R("^(" + KernelsOpt + ")$");
  return R.match(MangledName) || R.match(SourceName);
}

} // namespace smc
