//===- GreenContexts.cpp - N-way SM splits with CUDA green contexts -------===//
//
// See GreenContexts.h.  Driver functions come from the runtime's driver
// lookup (runtime/base/Driver.h), at the ABI versions of their PFN_ typedefs.
//===----------------------------------------------------------------------===//
#include "GreenContexts.h"

#include "base/Driver.h"

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
  PFN_cuGreenCtxGetDevResource_v12040 ContextResource = nullptr;
  PFN_cuGreenCtxDestroy_v12040 DestroyContext = nullptr;
  PFN_cuGreenCtxStreamCreate_v12050 CreateStream = nullptr;
  PFN_cuStreamDestroy_v4000 DestroyStream = nullptr;
  PFN_cuCtxFromGreenCtx_v12040 ContextOf = nullptr;
  PFN_cuCtxPushCurrent_v4000 PushContext = nullptr;
  PFN_cuCtxPopCurrent_v4000 PopContext = nullptr;
  PFN_cuEventCreate_v2000 CreateEvent = nullptr;
  PFN_cuEventDestroy_v4000 DestroyEvent = nullptr;
  CUdevice Device = 0;
  CUdevResource Sms{}; // the whole device's SMs

  bool lookUpAll(std::string &Error) {
    using smc::driver::lookUp;
    return lookUp("cuDeviceGet", 2000, DeviceGet, Error) &&
           lookUp("cuDeviceGetDevResource", 12040, DeviceResource, Error) &&
           lookUp("cuDevSmResourceSplitByCount", 12040, SplitByCount, Error) &&
           lookUp("cuDevResourceGenerateDesc", 12040, GenerateDesc, Error) &&
           lookUp("cuGreenCtxCreate", 12040, CreateContext, Error) &&
           lookUp("cuGreenCtxGetDevResource", 12040, ContextResource, Error) &&
           lookUp("cuGreenCtxDestroy", 12040, DestroyContext, Error) &&
           lookUp("cuGreenCtxStreamCreate", 12050, CreateStream, Error) &&
           lookUp("cuStreamDestroy", 4000, DestroyStream, Error) &&
           lookUp("cuCtxFromGreenCtx", 12040, ContextOf, Error) &&
           lookUp("cuCtxPushCurrent", 4000, PushContext, Error) &&
           lookUp("cuCtxPopCurrent", 4000, PopContext, Error) &&
           lookUp("cuEventCreate", 2000, CreateEvent, Error) &&
           lookUp("cuEventDestroy", 4000, DestroyEvent, Error);
  }
};

// What one split made, in the order it is destroyed: events, then streams,
// then the green contexts of the parts and the holders of remainders.
struct GreenContexts::Made {
  std::vector<CUgreenCtx> Contexts; // one per part that got one
  std::vector<CUgreenCtx> Holders;  // remainders split again
  std::vector<CUstream> Streams;
  // Events with the part whose context they were created in.
  std::vector<std::pair<size_t, CUevent>> Events;
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
GreenContexts::~GreenContexts() { release(); }

bool GreenContexts::init(int DeviceOrdinal) {
  Available = false;
  release();
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

const GreenContexts::Split *
GreenContexts::split(const std::vector<unsigned> &Sms, std::string &Error) {
  auto Found = Splits.find(Sms);
  if (Found != Splits.end())
    return &Found->second;
  if (!Available) {
    Error = Reason;
    return nullptr;
  }
  auto Before = Refused.find(Sms);
  if (Before != Refused.end()) {
    Error = Before->second;
    return nullptr;
  }
  if (Sms.empty()) {
    Error = "a split needs the SM count of its first part";
    return nullptr;
  }
  const Driver &D = *Api;
  // Whatever is made is owned (and released) even if a later step fails.
  Owned.emplace_back();
  Made &M = Owned.back();
  // A green context on Part's SMs.
  auto Context = [&](CUdevResource Part, CUgreenCtx &Green) {
    CUdevResourceDesc Desc = nullptr;
    std::string E =
        failure(D.GenerateDesc(&Desc, &Part, 1), "cuDevResourceGenerateDesc");
    if (E.empty())
      E = failure(
          D.CreateContext(&Green, Desc, D.Device, CU_GREEN_CTX_DEFAULT_STREAM),
          "cuGreenCtxCreate");
    return E;
  };

  // The parts: Sms.size() split off one after the other, then the rest.
  std::vector<CUdevResource> Parts;
  CUdevResource Input = D.Sms;
  Error.clear();
  for (size_t I = 0; I < Sms.size() && Error.empty(); ++I) {
    CUdevResource Part{}, Rest{};
    unsigned Groups = 1;
    Error = failure(D.SplitByCount(&Part, &Groups, &Input, &Rest, 0, Sms[I]),
                    "cuDevSmResourceSplitByCount");
    if (Error.empty() && (Groups != 1 || Rest.sm.smCount == 0))
      Error = "cuDevSmResourceSplitByCount: " + std::to_string(Sms[I]) +
              " of " + std::to_string(Input.sm.smCount) +
              " SMs leave no partition for the rest";
    if (!Error.empty())
      break;
    Parts.push_back(Part);
    if (I + 1 == Sms.size()) {
      Parts.push_back(Rest);
      break;
    }
    // Split the rest again through a green context made on it.
    CUgreenCtx Holder = nullptr;
    Error = Context(Rest, Holder);
    if (Error.empty()) {
      M.Holders.push_back(Holder);
      Error =
          failure(D.ContextResource(Holder, &Input, CU_DEV_RESOURCE_TYPE_SM),
                  "cuGreenCtxGetDevResource(SM)");
    }
  }
  if (!Error.empty()) {
    Refused[Sms] = Error;
    return nullptr;
  }

  Split S;
  S.RequestedSms = Sms;
  for (size_t I = 0; I < Parts.size() && Error.empty(); ++I) {
    CUgreenCtx Green = nullptr;
    CUcontext Ctx = nullptr, Popped = nullptr;
    CUstream Stream = nullptr;
    Error = Context(Parts[I], Green);
    if (!Error.empty())
      break;
    M.Contexts.push_back(Green);
    Error = failure(D.CreateStream(&Stream, Green, CU_STREAM_NON_BLOCKING, 0),
                    "cuGreenCtxStreamCreate");
    if (!Error.empty())
      break;
    M.Streams.push_back(Stream);
    // Events live in the stream's (green) context.
    Error = failure(D.ContextOf(&Ctx, Green), "cuCtxFromGreenCtx");
    if (Error.empty())
      Error = failure(D.PushContext(Ctx), "cuCtxPushCurrent");
    if (!Error.empty())
      break;
    CUevent Begin = nullptr, End = nullptr;
    Error = failure(D.CreateEvent(&Begin, CU_EVENT_DEFAULT), "cuEventCreate");
    if (Error.empty())
      M.Events.push_back({M.Contexts.size() - 1, Begin});
    if (Error.empty())
      Error = failure(D.CreateEvent(&End, CU_EVENT_DEFAULT), "cuEventCreate");
    if (Error.empty())
      M.Events.push_back({M.Contexts.size() - 1, End});
    D.PopContext(&Popped);
    S.GrantedSms.push_back(Parts[I].sm.smCount);
    S.Streams.push_back(reinterpret_cast<cudaStream_t>(Stream));
    S.Begins.push_back(reinterpret_cast<cudaEvent_t>(Begin));
    S.Ends.push_back(reinterpret_cast<cudaEvent_t>(End));
  }
  if (!Error.empty()) {
    Refused[Sms] = Error;
    return nullptr;
  }
  return &(Splits[Sms] = S);
}

unsigned GreenContexts::release() {
  unsigned Failed = 0;
  if (!Api) {
    Owned.clear();
    Splits.clear();
    Refused.clear();
    return 0;
  }
  const Driver &D = *Api;
  for (Made &M : Owned) {
    for (auto [Part, Event] : M.Events) {
      CUcontext Ctx = nullptr, Popped = nullptr;
      bool Pushed = D.ContextOf(&Ctx, M.Contexts[Part]) == CUDA_SUCCESS &&
                    D.PushContext(Ctx) == CUDA_SUCCESS;
      Failed += D.DestroyEvent(Event) != CUDA_SUCCESS;
      if (Pushed)
        D.PopContext(&Popped);
    }
    for (CUstream Stream : M.Streams)
      Failed += D.DestroyStream(Stream) != CUDA_SUCCESS;
    for (CUgreenCtx Green : M.Contexts)
      Failed += D.DestroyContext(Green) != CUDA_SUCCESS;
    for (CUgreenCtx Holder : M.Holders)
      Failed += D.DestroyContext(Holder) != CUDA_SUCCESS;
  }
  Owned.clear();
  Splits.clear();
  Refused.clear();
  return Failed;
}

} // namespace smc::corun
