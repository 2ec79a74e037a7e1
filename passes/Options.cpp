//===- Options.cpp - Command-line options of the SMC plugin ---------------===//
//
// -smc-transforms=<list>  variants to build: smc, slice, remap
//                         (comma-separated);
//                         none selected means the plugin changes nothing.
// -smc-kernels=<regex>    kernels to transform, matched against the whole
//                         mangled or source name (default: all kernels).
// -smc-drained-exits      persistent workers also for kernels whose threads
//                         may return before a barrier others still reach
//                         (DrainedExits.cpp), instead of one chunk per worker.
// -smc-trace              the __smc variants' workers write SMC_TRACE records
//                         (which chunk ran on which SM, when); without it
//                         they carry no trace code.
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

static cl::list<std::string> TransformsOpt(
    "smc-transforms", cl::CommaSeparated,
    cl::desc("SMC variants to build for each selected kernel: smc "
             "(SM-centric), slice (index-rectified slices), remap "
             "(thread-data remapping); none: no change"),
    cl::value_desc("smc,slice,remap"));

static cl::opt<std::string> KernelsOpt(
    "smc-kernels", cl::init(""),
    cl::desc("Regex selecting the kernels SMC transforms, matched against "
             "the whole mangled or source name (default: all)"),
    cl::value_desc("regex"));

static cl::opt<bool> DrainedExitsOpt(
    "smc-drained-exits", cl::init(false),
    cl::desc("Build persistent-worker __smc variants also for kernels whose "
             "threads may return before a barrier other threads still reach "
             "(threads that have ended a chunk keep arriving at the "
             "barriers); default: one chunk per worker for them"));

static cl::opt<bool> TraceOpt(
    "smc-trace", cl::init(false),
    cl::desc("Build __smc variants whose workers record, when SMC_TRACE is "
             "set at run time, which chunk ran on which SM and when; "
             "default: no trace code in the variants"));

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
                             " (known: smc, slice, remap)");
  return Set;
}

Error checkKernelFilter() {
  std::string RegexError;
  if (Regex("^(" + KernelsOpt + ")$").isValid(RegexError))
    return Error::success();
  return createStringError("malformed -smc-kernels regex '" + KernelsOpt +
                           "': " + RegexError);
}

bool drainedExitsRequested() { return DrainedExitsOpt; }

bool traceRequested() { return TraceOpt; }

bool kernelSelected(StringRef MangledName, StringRef SourceName) {
  if (KernelsOpt.empty())
    return true;
  Regex R("^(" + KernelsOpt + ")$");
  return R.match(MangledName) || R.match(SourceName);
}

} // namespace smc
