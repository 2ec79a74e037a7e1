//===- GreenContexts.cpp - Two-way SM splits with CUDA green contexts -----===//
//
// See GreenContexts.h.  Driver functions come from the runtime's driver
// lookup (runtime/Driver.h), at the ABI versions of their PFN_ typedefs.
//===----------------------------------------------------------------------===//
#include "GreenContexts.h"

#include "Driver.h"

#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>

namespace smc::corun {

struct GreenContexts::Driver {
  PFN_cuDeviceGet_v2000 DeviceGet = nullptr;
  PFN_cuDeviceGetDevResource_v12040 DeviceResource = nullptr;
  PFN_cuDevSmResourceSplitByCount_v12040 SplitByCount = nullptr;
  PFN_cuDevResourceGenerateDesc_v12040 GenerateDesc = nullptr;
  PFN_cuGreenCtxCreate_v12040 CreateContext = nullptr;
  PFN_cuGreenCtxStreamCreate_v12050 CreateStream = nullptr;
  PFN_cuCtxFromGreenCtx_v12040 ContextOf = nullptr;
  PFN_cuCtxPushCurrent_v4000 PushContext = nullptr;
  PFN_cuCtxPopCurrent_v4000 PopContext = nullptr;
  PFN_cuEventCreate_v2000 CreateEvent = nullptr;
  CUdevice Device = 0;
  CUdevResource Sms{}; // the whole device's SMs

  bool lookUpAll(std::string &Error) {
    using smc::driver::lookUp;
    return lookUp("cuDeviceGet", 2000, DeviceGet, Error) &&
           lookUp("cuDeviceGetDevResource", 12040, DeviceResource, Error) &&
           lookUp("cuDevSmResourceSplitByCount", 12040, SplitByCount, Error) &&
           lookUp("cuDevResourceGenerateDesc", 12040, GenerateDesc, Error) &&
           lookUp("cuGreenCtxCreate", 12040, CreateContext, Error) &&
           lookUp("cuGreenCtxStreamCreate", 12050, CreateStream, Error) &&
           lookUp("cuCtxFromGreenCtx", 12040, ContextOf, Error) &&
           lookUp("cuCtxPushCurrent", 4000, PushContext, Error) &&
           lookUp("cuCtxPopCurrent", 4000, PopContext, Error) &&
           lookUp("cuEventCreate", 2000, CreateEvent, Error);
  }
};

namespace {

// "" if Result is success, else "<What>: <driver error>".
std::string failure(CUresult Result, const char *What) {
  if (Result == CUDA_SUCCESS)
    return "";
  return std::string(What) + ": " + smc::driver::resultText(Result);
}

} // namespace

GreenContexts::GreenContexts() = default;
GreenContexts::~GreenContexts() = default;

bool GreenContexts::init(int DeviceOrdinal) {
  Available = false;
  Api.reset();
  auto D = std::make_unique<Driver>();
  std::string Error;
  if (!D->lookUpAll(Error)) {
    Reason = "green contexts need CUDA 12.5 or newer: " + Error;
    return false;
  }
  Error = failure(D->DeviceGet(&D->Device, DeviceOrdinal), "cuDeviceGet");
  if (Error.empty())
    Error =
        failure(D->DeviceResource(D->Device, &D->Sms, CU_DEV_RESOURCE_TYPE_SM),
                "cuDeviceGetDevResource(SM)");
  if (!Error.empty()) {
    Reason = Error;
    return false;
  }
  DeviceSms = D->Sms.sm.smCount;
  MinPartition = D->Sms.sm.minSmPartitionSize;
  Alignment = D->Sms.sm.smCoscheduledAlignment;
  if (DeviceSms < 2 * std::max(1u, MinPartition)) {
    Reason = "the device's " + std::to_string(DeviceSms) +
             " SMs do not make two partitions of at least " +
             std::to_string(MinPartition);
    return false;
  }
  Api = std::move(D);
  Available = true;
  Reason.clear();
  return true;
}

const GreenContexts::Split *GreenContexts::split(unsigned Sms,
                                                 std::string &Error) {
  auto Found = Splits.find(Sms);
  if (Found != Splits.end())
    return &Found->second;
  if (!Available) {
    Error = Reason;
    return nullptr;
  }
  const Driver &D = *Api;
  CUdevResource Input = D.Sms;
  CUdevResource Parts[2] = {};
  unsigned Groups = 1;
  Error = failure(D.SplitByCount(&Parts[0], &Groups, &Input, &Parts[1], 0, Sms),
                  "cuDevSmResourceSplitByCount");
  if (Error.empty() && (Groups != 1 || Parts[1].sm.smCount == 0))
    Error = "cuDevSmResourceSplitByCount: " + std::to_string(Sms) +
            " SMs leave no second partition";
  if (!Error.empty())
    return nullptr;

  Split S;
  S.RequestedSms = Sms;
  S.FirstSms = Parts[0].sm.smCount;
  S.SecondSms = Parts[1].sm.smCount;
  cudaStream_t *Streams[2] = {&S.First, &S.Second};
  cudaEvent_t *Begins[2] = {&S.FirstBegin, &S.SecondBegin};
  cudaEvent_t *Ends[2] = {&S.FirstEnd, &S.SecondEnd};
  for (int I = 0; I < 2 && Error.empty(); ++I) {
    CUdevResourceDesc Desc = nullptr;
    CUgreenCtx Green = nullptr;
    CUcontext Context = nullptr, Popped = nullptr;
    Error = failure(D.GenerateDesc(&Desc, &Parts[I], 1),
                    "cuDevResourceGenerateDesc");
    if (Error.empty())
      Error = failure(
          D.CreateContext(&Green, Desc, D.Device, CU_GREEN_CTX_DEFAULT_STREAM),
          "cuGreenCtxCreate");
    if (Error.empty())
      Error =
          failure(D.CreateStream(Streams[I], Green, CU_STREAM_NON_BLOCKING, 0),
                  "cuGreenCtxStreamCreate");
    // Events live in the stream's (green) context.
    if (Error.empty())
      Error = failure(D.ContextOf(&Context, Green), "cuCtxFromGreenCtx");
    if (Error.empty())
      Error = failure(D.PushContext(Context), "cuCtxPushCurrent");
    if (!Error.empty())
      break;
    Error =
        failure(D.CreateEvent(Begins[I], CU_EVENT_DEFAULT), "cuEventCreate");
    if (Error.empty())
      Error =
          failure(D.CreateEvent(Ends[I], CU_EVENT_DEFAULT), "cuEventCreate");
    D.PopContext(&Popped);
  }
  // What was made before a failure is left to the end of the process.
  if (!Error.empty())
    return nullptr;
  return &(Splits[Sms] = S);
}

} // namespace smc::corun
