//===- LaunchRewrite.cpp - Host launches go through the SMC runtime -------===//
//
// cudaLaunchKernel(_ptsz) become calls of the SMC runtime's launch entries,
// and cudaDeviceReset, cudaGraphInstantiate* and cudaGraphExecUpdate calls
// of its entries for those (SMC_HOST_ENTRIES in smc/abi.h says which and
// why).  Works on calls and invokes wherever they are: in __device_stub__
// functions and, after the stub was inlined at -O1 and above, in user
// functions.  Each rewritten call is reported as a remark.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes=smc-launch-rewrite -S \
//            host.ll
//===----------------------------------------------------------------------===//
#include "Diagnostics.h"
#include "TransformPasses.h"
#include "runtime/base/KernelName.h"
#include "smc/abi.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace smc {

// "__device_stub__vecAdd" of the stub symbol a launch names, as "vecAdd".
static std::string launchedKernel(const CallBase &Call) {
  const Value *Symbol = Call.getArgOperand(0)->stripPointerCasts();
  if (!isa<Function>(Symbol))
    return "a kernel chosen at run time";
  std::string Name = kernelSourceName(Symbol->getName());
  StringRef Stub = "__device_stub__";
  size_t At = Name.find(Stub.str());
  if (At != std::string::npos)
    Name.erase(At, Stub.size());
  return "kernel '" + Name + "'";
}

PreservedAnalyses LaunchRewritePass::run(Module &M, ModuleAnalysisManager &) {
  // CUDA runtime calls the SMC runtime takes over, with the same signature.
#define SMC_ENTRY_PAIR(Cuda, Entry) {#Cuda, #Entry},
  static const std::pair<const char *, const char *> Entries[] = {
      SMC_HOST_ENTRIES(SMC_ENTRY_PAIR)};
#undef SMC_ENTRY_PAIR
  bool Changed = false;
  for (const auto &Entry : Entries) {
    const char *From = Entry.first, *To = Entry.second;
    Function *Original = M.getFunction(From);
    if (!Original)
      continue;
    FunctionCallee Target =
        M.getOrInsertFunction(To, Original->getFunctionType());
    bool IsLaunch = StringRef(From).starts_with("cudaLaunchKernel");
    for (User *U : make_early_inc_range(Original->users())) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledOperand() != Original)
        continue;
      Call->setCalledFunction(Target);
      Changed = true;
      OptimizationRemarkEmitter ORE(Call->getFunction());
      ORE.emit([&] {
        OptimizationRemark R(RemarkName,
                             IsLaunch ? "LaunchRewritten" : "Rewritten", Call);
        if (IsLaunch)
          R << "launch of " << launchedKernel(*Call);
        else
          R << From;
        return R << " in "
                 << ore::NV("Caller",
                            kernelSourceName(Call->getFunction()->getName()))
                 << " goes through the SMC runtime";
      });
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace smc
