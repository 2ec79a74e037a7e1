//===- DeviceLibrary.h - The device side of SM-centric execution ----------===//
//
// runtime/device/SmcWorker.cu, compiled to bitcode at build time and
// embedded in the plugin, is linked into a device module on first use.  Its
// entry points are called from the __smc variants and inlined there.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_DEVICELIBRARY_H
#define SMC_PASSES_DEVICELIBRARY_H

#include "llvm/Support/Error.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace smc {

struct DeviceLibrary {
  llvm::Function *FirstChunk = nullptr; // i32 (ptr desc, ptr state)
  llvm::Function *ChunkBegin = nullptr; // void (ptr desc, ptr state)
  llvm::Function *NextChunk = nullptr;  // i32 (ptr desc, ptr state, i32)
};

/// Links the worker library into \p M (once) and returns its entry points,
/// or an error saying why it could not.
llvm::Expected<DeviceLibrary> linkDeviceLibrary(llvm::Module &M);

/// Removes the library's functions once no variant calls them any more.
void dropUnusedDeviceLibrary(llvm::Module &M);

} // namespace smc

#endif
