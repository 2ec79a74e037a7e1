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

// The ABI version every lookup asks for: the newest ABI of each function
// the typedefs in Driver.h describe (cuFuncGetName appeared in 12.3).
constexpr unsigned kDriverAbiVersion = 12030;

struct Resolved {
  Api functions{};
  bool ok = false;
  std::string error;
};

template <typename Fn>
bool lookUp(const char *symbol, Fn &fn, std::string &error) {
  void *address = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  // Legacy stream semantics for functions that take a stream: the caller
  // passes CU_STREAM_PER_THREAD explicitly when it means that stream.
  cudaError_t err = cudaGetDriverEntryPointByVersion(
      symbol, &address, kDriverAbiVersion, cudaEnableLegacyStream, &status);
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
  r.ok = lookUp("cuFuncGetModule", a.funcGetModule, r.error) &&
         lookUp("cuFuncGetName", a.funcGetName, r.error) &&
         lookUp("cuModuleGetFunction", a.moduleGetFunction, r.error) &&
         lookUp("cuModuleGetGlobal", a.moduleGetGlobal, r.error) &&
         lookUp("cuLaunchKernel", a.launchKernel, r.error) &&
         lookUp("cuOccupancyMaxActiveBlocksPerMultiprocessor", a.occupancy,
                r.error) &&
         lookUp("cuFuncGetAttribute", a.funcGetAttribute, r.error) &&
         lookUp("cuFuncSetAttribute", a.funcSetAttribute, r.error) &&
         lookUp("cuGetErrorName", a.getErrorName, r.error);
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
