//===- Driver.h - The CUDA driver functions the runtime uses ----*- C++ -*-===//
//
// The runtime links only the CUDA runtime (cudart_static): every driver API
// function it needs is looked up once through
// cudaGetDriverEntryPointByVersion, so nothing links against libcuda.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_DRIVER_H
#define SMC_RUNTIME_BASE_DRIVER_H

#include <cudaTypedefs.h>

#include <string>

namespace smc {
namespace driver {

// Driver functions, by the ABI version of their PFN_ typedef.  Members are
// not named like the functions because cuda.h #defines some of those names.
struct Api {
  PFN_cuFuncGetModule_v11000 FuncGetModule;
  PFN_cuFuncGetName_v12030 FuncGetName;
  PFN_cuModuleGetFunction_v2000 ModuleGetFunction;
  PFN_cuModuleGetGlobal_v3020 ModuleGetGlobal;
  // The legacy-default-stream version: a null stream is the legacy stream,
  // CU_STREAM_PER_THREAD the calling thread's per-thread stream.
  PFN_cuLaunchKernel_v4000 LaunchKernel;
  PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050 Occupancy;
  PFN_cuFuncSetAttribute_v9000 FuncSetAttribute;
  PFN_cuFuncGetAttribute_v2020 FuncGetAttribute;
  PFN_cuFuncGetParamInfo_v12040 FuncGetParamInfo;
  PFN_cuGraphKernelNodeGetParams_v12000 GraphKernelNodeGetParams;
  PFN_cuGraphKernelNodeSetParams_v12000 GraphKernelNodeSetParams;
  PFN_cuGetErrorName_v6000 GetErrorName;
  PFN_cuStreamBatchMemOp_v11070 StreamBatchMemOp;
};

// The driver functions, resolved on the first call (thread-safe).  Returns
// null if any of them cannot be had; `error`, if given, then says which and
// why.  Calls the CUDA runtime, so it initializes it.
const Api *api(std::string *Error = nullptr);

// "CUDA_ERROR_INVALID_VALUE (1)" style text for a driver result.
std::string resultText(CUresult Result);

// Looks up the driver function Symbol at the ABI Version of its PFN_
// typedef (legacy default-stream semantics: a null stream is the legacy
// stream).  False with Error naming the function and why.  Also used by the
// co-run benchmark (bench/corun/GreenContexts.cpp) for functions the
// runtime does not need.
bool lookUpAddress(const char *Symbol, unsigned Version, void *&Address,
                   std::string &Error);
template <typename Fn>
bool lookUp(const char *Symbol, unsigned Version, Fn &Function,
            std::string &Error) {
  void *Address = nullptr;
  if (!lookUpAddress(Symbol, Version, Address, Error))
    return false;
  Function = reinterpret_cast<Fn>(Address);
  return true;
}

} // namespace driver
} // namespace smc

#endif // SMC_RUNTIME_BASE_DRIVER_H
