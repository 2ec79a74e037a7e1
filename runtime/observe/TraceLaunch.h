//===- TraceLaunch.h - SMC_TRACE on the launch path -------------*- C++ -*-===//
//
// With SMC_TRACE=<file>, the SM-centric launches of kernels compiled with
// -mllvm -smc-trace (SMC_INFO_TRACED) are traced; the others are told once
// that they are not (core/Execute.cpp).  Each device gets a trace block
// when its state is made: a header in device memory (capacity, the atomic
// record count, the records' address) and SMC_TRACE_RECORDS records
// (default 2^20, 32 bytes each) of page-locked host memory mapped for the
// device.  Every SM-centric launch not being captured gets the next launch
// number and the block in its descriptor; its workers write their records
// straight into host memory (runtime/device/SmcWorker.cu, traceRecord), so
// launches are not serialized, unlike SMC_STATS.  At exit the host reads
// the records (no CUDA call) and writes the chunk spans (Trace.h).
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_OBSERVE_TRACELAUNCH_H
#define SMC_RUNTIME_OBSERVE_TRACELAUNCH_H

#include "smc/abi.h"

#include <cuda_runtime_api.h>

#include <string>

namespace smc {
namespace trace {

// Whether SMC_TRACE names a file (policy/Config.h); the first call that
// finds it does arranges for the file to be written at exit.
bool enabled();

// Makes device `Ordinal`'s trace block through `Stream` (the runtime's own
// stream there); told once on failure, and the device is then not traced.
void makeDeviceBlock(int Ordinal, cudaStream_t Stream);
// Forgets device `Ordinal`'s block (cudaDeviceReset); its records so far
// are still written at exit.
void forgetDevice(int Ordinal);

// Gives a launch of `Kernel` on device `Ordinal` the next launch number and
// the device's trace block in `Desc`; false (Desc unchanged) when the
// device has no block.
bool traceLaunch(int Ordinal, const std::string &Kernel, SmcDescriptor &Desc);

} // namespace trace
} // namespace smc

#endif // SMC_RUNTIME_OBSERVE_TRACELAUNCH_H
