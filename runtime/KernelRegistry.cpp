//===- KernelRegistry.cpp - Kernels, their variants and occupancy ---------===//
//
// What the runtime knows of a kernel on a device, found once: its
// CUfunction, mangled and source names, the <kernel>__smc_info record the
// plugin left in its module, its __smc and __slice variants (looked up by
// name in the same module), and the occupancy of the original and the
// __smc variant per block size and shared memory.  Any problem is kept as
// text, so the launch can fall back to the original and say why, once.
//===----------------------------------------------------------------------===//
#include "KernelName.h"
#include "RuntimeState.h"

#include <climits>
#include <cstdio>

namespace smc {
namespace {

// Dynamic shared memory above this needs the kernel's max dynamic shared
// size attribute raised.
constexpr size_t kDefaultSharedLimit = 48 * 1024;

// Reads <kernel>__smc_info and looks up the variants it promises.
void findVariants(KernelEntry &k, const driver::Api &api) {
  CUmodule module = nullptr;
  CUresult r = api.funcGetModule(&module, k.original);
  if (r != CUDA_SUCCESS) {
    k.infoProblem = "cannot find the kernel's module: " + driver::resultText(r);
    return;
  }
  CUdeviceptr infoAddress = 0;
  size_t infoBytes = 0;
  std::string infoName = k.mangled + SMC_SUFFIX_INFO;
  r = api.moduleGetGlobal(&infoAddress, &infoBytes, module, infoName.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) {
    k.infoProblem = "no " + infoName +
                    " record (the kernel was not compiled with the SMC "
                    "plugin, or the plugin did not select it)";
    return;
  }
  if (r != CUDA_SUCCESS) {
    k.infoProblem = "cannot read " + infoName + ": " + driver::resultText(r);
    return;
  }
  if (infoBytes < sizeof(SmcKernelInfo)) {
    k.infoProblem = infoName + " has " + std::to_string(infoBytes) +
                    " bytes, not " + std::to_string(sizeof(SmcKernelInfo));
    return;
  }
  cudaError_t err = cudaMemcpyAsync(
      &k.info, reinterpret_cast<void *>(infoAddress), sizeof(SmcKernelInfo),
      cudaMemcpyDeviceToHost, k.device->stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(k.device->stream);
  if (err != cudaSuccess) {
    k.infoProblem =
        "cannot read " + infoName + ": " + failed("cudaMemcpyAsync", err);
    return;
  }
  if (k.info.abi_version != SMC_ABI_VERSION) {
    k.infoProblem = "SMC ABI version mismatch: the kernel was built for "
                    "version " +
                    std::to_string(k.info.abi_version) +
                    ", this runtime is version " +
                    std::to_string(SMC_ABI_VERSION);
    return;
  }
  auto lookUp = [&](uint32_t flag, const char *suffix, CUfunction &fn,
                    std::string &problem) {
    if (!(k.info.flags & flag))
      return;
    std::string name = k.mangled + suffix;
    CUresult res = api.moduleGetFunction(&fn, module, name.c_str());
    if (res != CUDA_SUCCESS) {
      fn = nullptr;
      problem = "cannot find " + name +
                " in the kernel's module: " + driver::resultText(res);
    }
  };
  lookUp(SMC_INFO_HAS_SMC, SMC_SUFFIX_SMC, k.smc, k.smcProblem);
  lookUp(SMC_INFO_HAS_SLICE, SMC_SUFFIX_SLICE, k.slice, k.sliceProblem);
}

} // namespace

KernelEntry *kernelEntry(const void *symbol, DeviceState &dev,
                         const driver::Api &api) {
  Globals &g = globals();
  std::unique_ptr<KernelEntry> &slot = g.kernels[{symbol, dev.ordinal}];
  if (slot)
    return slot.get();

  cudaFunction_t function = nullptr;
  cudaError_t err = cudaGetFuncBySymbol(&function, symbol);
  if (err != cudaSuccess || !function) {
    if (err != cudaSuccess)
      cudaGetLastError();
    g.kernels.erase({symbol, dev.ordinal});
    return nullptr;
  }
  auto k = std::make_unique<KernelEntry>();
  k->symbol = symbol;
  k->device = &dev;
  k->original = reinterpret_cast<CUfunction>(function);
  const char *name = nullptr;
  CUresult r = api.funcGetName(&name, k->original);
  if (r != CUDA_SUCCESS || !name) {
    char address[32];
    std::snprintf(address, sizeof address, "%p", symbol);
    k->mangled = k->source = std::string("<kernel ") + address + ">";
    k->infoProblem = "cannot get the kernel's name: " + driver::resultText(r);
  } else {
    k->mangled = name;
    k->source = kernelSourceName(k->mangled);
    findVariants(*k, api);
    if (k->smc)
      g.smcVariants[k->smc] = k.get();
  }
  slot = std::move(k);
  return slot.get();
}

bool matchAttributes(const KernelEntry &k, CUfunction variant, size_t sharedMem,
                     const driver::Api &api, std::string &error) {
  cudaFuncAttributes attrs;
  cudaError_t err = cudaFuncGetAttributes(&attrs, k.symbol);
  if (err != cudaSuccess) {
    error = failed("cudaFuncGetAttributes", err);
    return false;
  }
  if (sharedMem > kDefaultSharedLimit) {
    CUresult r = api.funcSetAttribute(
        variant, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        attrs.maxDynamicSharedSizeBytes);
    if (r != CUDA_SUCCESS) {
      error = "cannot give the variant " +
              std::to_string(attrs.maxDynamicSharedSizeBytes) +
              " bytes of dynamic shared memory: " + driver::resultText(r);
      return false;
    }
  }
  if (attrs.preferredShmemCarveout >= 0) {
    CUresult r = api.funcSetAttribute(
        variant, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
        attrs.preferredShmemCarveout);
    if (r != CUDA_SUCCESS) {
      error = "cannot set the variant's shared memory carveout: " +
              driver::resultText(r);
      return false;
    }
  }
  return true;
}

bool occupancy(KernelEntry &k, dim3 block, size_t sharedMem,
               const driver::Api &api, Occupancy &out) {
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads == 0 || threads > INT_MAX)
    return false;
  auto key = std::make_pair(threads, sharedMem);
  auto it = k.occupancy.find(key);
  if (it != k.occupancy.end()) {
    out = it->second;
    return true;
  }
  Occupancy occ;
  if (api.occupancy(&occ.original, k.original, int(threads), sharedMem) !=
          CUDA_SUCCESS ||
      api.occupancy(&occ.variant, k.smc, int(threads), sharedMem) !=
          CUDA_SUCCESS)
    return false;
  k.occupancy[key] = occ;
  out = occ;
  return true;
}

} // namespace smc
