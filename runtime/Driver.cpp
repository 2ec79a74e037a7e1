//===- Driver.cpp - The CUDA driver functions the runtime uses ------------===//
//
// Looks every driver function up once with cudaGetDriverEntryPointByVersion
// and keeps the result (or the reason it failed) for the whole process.
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <cuda_runtime_api.h>

namespace smc {
namespace driver {
namespace {

struct Resolved {
  Api functions{};
  bool ok = false;
  std::string error;
};

// Looks up `symbol` at the ABI `version` of the PFN_ typedef `fn` has.
template <typename Fn>
bool lookUp(const char *symbol, unsigned version, Fn &fn, std::string &error) {
  void *address = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  // Legacy stream semantics for functions that take a stream: the caller
  // passes CU_STREAM_PER_THREAD explicitly when it means that stream.
  cudaError_t err = cudaGetDriverEntryPointByVersion(
      symbol, &address, version, cudaEnableLegacyStream, &status);
  if (err != cudaSuccess || status != cudaDriverEntryPointSuccess || !address) {
    if (err != cudaSuccess)
      cudaGetLastError(); // do not leave our failure as the last error
    error = std::string("cannot get driver function ") + symbol + ": " +
            (err != cudaSuccess ? cudaGetErrorName(err)
             : status == cudaDriverEntryPointVersionNotSufficent
                 ? "the driver is too old"
                 : "symbol not found");
    return false;
  }
  fn = reinterpret_cast<Fn>(address);
  return true;
}

Resolved resolve() {
  Resolved r;
  Api &a = r.functions;
  r.ok = lookUp("cuFuncGetModule", 11000, a.funcGetModule, r.error) &&
         lookUp("cuFuncGetName", 12030, a.funcGetName, r.error) &&
         lookUp("cuModuleGetFunction", 2000, a.moduleGetFunction, r.error) &&
         lookUp("cuModuleGetGlobal", 3020, a.moduleGetGlobal, r.error) &&
         lookUp("cuLaunchKernel", 4000, a.launchKernel, r.error) &&
         lookUp("cuOccupancyMaxActiveBlocksPerMultiprocessor", 6050,
                a.occupancy, r.error) &&
         lookUp("cuFuncSetAttribute", 9000, a.funcSetAttribute, r.error) &&
         lookUp("cuFuncGetParamInfo", 12040, a.funcGetParamInfo, r.error) &&
         lookUp("cuGraphKernelNodeGetParams", 12000, a.graphKernelNodeGetParams,
                r.error) &&
         lookUp("cuGraphKernelNodeSetParams", 12000, a.graphKernelNodeSetParams,
                r.error) &&
         lookUp("cuGetErrorName", 6000, a.getErrorName, r.error);
  return r;
}

} // namespace

const Api *api(std::string *error) {
  static const Resolved resolved = resolve();
  if (!resolved.ok) {
    if (error)
      *error = resolved.error;
    return nullptr;
  }
  return &resolved.functions;
}

std::string resultText(CUresult result) {
  const char *name = nullptr;
  const Api *a = api();
  if (!a || a->getErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "CUDA_ERROR";
  return std::string(name) + " (" + std::to_string(int(result)) + ")";
}

} // namespace driver
} // namespace smc
