//===- DeviceLibrary.cpp - The device side of SM-centric execution --------===//
//
// The bitcode of runtime/device/SmcWorker.cu is embedded with #embed (the
// build passes its path as SMC_WORKER_BITCODE, and that of its build that
// writes SMC_TRACE records, linked under -smc-trace, as
// SMC_WORKER_TRACE_BITCODE) and linked with LLVM's Linker.  Linked functions
// become internal and take the target attributes of the module's kernels.
//===----------------------------------------------------------------------===//
#include "DeviceLibrary.h"
#include "KernelSelection.h"
#include "Options.h"
#include "smc/abi.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
static const unsigned char WorkerBitcode[] = {
#embed SMC_WORKER_BITCODE
};
static const unsigned char TracingWorkerBitcode[] = {
#embed SMC_WORKER_TRACE_BITCODE
};
#pragma clang diagnostic pop

namespace smc {

static const char *const EntryNames[] = {
    SMC_DEVICE_FIRST_CHUNK, SMC_DEVICE_CHUNK_BEGIN, SMC_DEVICE_NEXT_CHUNK};
static const char *const SharedName = SMC_DEVICE_SHARED;
// Marks the functions that came from the library.
static const char *const LibraryAttr = "smc-device-library";

Expected<DeviceLibrary> linkDeviceLibrary(Module &M) {
  if (!M.getFunction(EntryNames[0])) {
    StringRef Bytes =
        traceRequested()
            ? StringRef(reinterpret_cast<const char *>(TracingWorkerBitcode),
                        sizeof(TracingWorkerBitcode))
            : StringRef(reinterpret_cast<const char *>(WorkerBitcode),
                        sizeof(WorkerBitcode));
    Expected<std::unique_ptr<Module>> Parsed = parseBitcodeFile(
        MemoryBufferRef(Bytes, "SmcWorker.bc"), M.getContext());
    if (!Parsed)
      return createStringError("cannot read the embedded SMC worker library: " +
                               toString(Parsed.takeError()));
    std::unique_ptr<Module> Worker = std::move(*Parsed);
    for (Function &F : *Worker)
      if (!F.isDeclaration())
        F.addFnAttr(LibraryAttr);
    Worker->setTargetTriple(M.getTargetTriple());
    Worker->setDataLayout(M.getDataLayout());
    if (Linker::linkModules(M, std::move(Worker)))
      return createStringError(
          "cannot link the SMC worker library into the device module");
    // Same target attributes as the kernels it is inlined into.
    const Function *AnyKernel = nullptr;
    for (const Function &F : M)
      if (isKernel(F)) {
        AnyKernel = &F;
        break;
      }
    for (Function &F : M) {
      if (!F.hasFnAttribute(LibraryAttr))
        continue;
      F.setLinkage(GlobalValue::InternalLinkage);
      for (StringRef Attr : {"target-cpu", "target-features"}) {
        F.removeFnAttr(Attr);
        if (AnyKernel && AnyKernel->hasFnAttribute(Attr))
          F.addFnAttr(AnyKernel->getFnAttribute(Attr));
      }
    }
    if (GlobalVariable *Shared = M.getGlobalVariable(SharedName))
      Shared->setLinkage(GlobalValue::InternalLinkage);
  }
  DeviceLibrary Lib;
  Lib.FirstChunk = M.getFunction(EntryNames[0]);
  Lib.ChunkBegin = M.getFunction(EntryNames[1]);
  Lib.NextChunk = M.getFunction(EntryNames[2]);
  if (!Lib.FirstChunk || !Lib.ChunkBegin || !Lib.NextChunk)
    return createStringError("the SMC worker library lacks an entry point");
  return Lib;
}

void dropUnusedDeviceLibrary(Module &M) {
  bool Erased = true;
  while (Erased) {
    Erased = false;
    for (Function &F : make_early_inc_range(M))
      if (F.hasFnAttribute(LibraryAttr) && F.use_empty()) {
        F.eraseFromParent();
        Erased = true;
      }
  }
  if (GlobalVariable *Shared = M.getGlobalVariable(SharedName, true))
    if (Shared->use_empty())
      Shared->eraseFromParent();
}

} // namespace smc
