//===- Driver.cpp - The CUDA driver functions the runtime uses ------------===//
//
// Looks every driver function up once with cudaGetDriverEntryPointByVersion
// and keeps the result (or the reason it failed) for the whole process.
//===----------------------------------------------------------------------===//
#include "base/Driver.h"

#include <cuda_runtime_api.h>

namespace smc {
namespace driver {
namespace {

struct Resolved {
  Api Functions{};
  bool Ok = false;
  std::string Error;
};

Resolved resolve() {
  Resolved R;
  Api &A = R.Functions;
  R.Ok = lookUp("cuFuncGetModule", 11000, A.FuncGetModule, R.Error) &&
         lookUp("cuFuncGetName", 12030, A.FuncGetName, R.Error) &&
         lookUp("cuModuleGetFunction", 2000, A.ModuleGetFunction, R.Error) &&
         lookUp("cuModuleGetGlobal", 3020, A.ModuleGetGlobal, R.Error) &&
         lookUp("cuLaunchKernel", 4000, A.LaunchKernel, R.Error) &&
         lookUp("cuOccupancyMaxActiveBlocksPerMultiprocessor", 6050,
                A.Occupancy, R.Error) &&
         lookUp("cuFuncSetAttribute", 9000, A.FuncSetAttribute, R.Error) &&
         lookUp("cuFuncGetAttribute", 2020, A.FuncGetAttribute, R.Error) &&
         lookUp("cuFuncGetParamInfo", 12040, A.FuncGetParamInfo, R.Error) &&
         lookUp("cuGraphKernelNodeGetParams", 12000, A.GraphKernelNodeGetParams,
                R.Error) &&
         lookUp("cuGraphKernelNodeSetParams", 12000, A.GraphKernelNodeSetParams,
                R.Error) &&
         lookUp("cuGetErrorName", 6000, A.GetErrorName, R.Error) &&
         lookUp("cuStreamBatchMemOp", 11070, A.StreamBatchMemOp, R.Error);
  return R;
}

} // namespace

bool lookUpAddress(const char *Symbol, unsigned Version, void *&Address,
                   std::string &Error) {
  Address = nullptr;
  cudaDriverEntryPointQueryResult Status = cudaDriverEntryPointSymbolNotFound;
  // Legacy stream semantics for functions that take a stream: the caller
  // passes CU_STREAM_PER_THREAD explicitly when it means that stream.
  cudaError_t Err = cudaGetDriverEntryPointByVersion(
      Symbol, &Address, Version, cudaEnableLegacyStream, &Status);
  if (Err != cudaSuccess || Status != cudaDriverEntryPointSuccess || !Address) {
    if (Err != cudaSuccess)
      cudaGetLastError(); // do not leave our failure as the last error
    Error = std::string("cannot get driver function ") + Symbol + ": " +
            (Err != cudaSuccess ? cudaGetErrorName(Err)
             : Status == cudaDriverEntryPointVersionNotSufficent
                 ? "the driver is too old"
                 : "symbol not found");
    return false;
  }
  return true;
}

const Api *api(std::string *Error) {
  static const Resolved Lookup = resolve();
  if (!Lookup.Ok) {
    if (Error)
      *Error = Lookup.Error;
    return nullptr;
  }
  return &Lookup.Functions;
}

std::string resultText(CUresult Result) {
  const char *Name = nullptr;
  const Api *A = api();
  if (!A || A->GetErrorName(Result, &Name) != CUDA_SUCCESS || !Name)
    Name = "CUDA_ERROR";
  return std::string(Name) + " (" + std::to_string(int(Result)) + ")";
}

} // namespace driver
} // namespace smc
