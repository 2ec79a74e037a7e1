//===- Recording.cpp - Launches recorded into an smc::Batch ---------------===//
//
// Between Batch::begin() and end() the dispatcher (dispatch/Dispatcher.cpp)
// hands this thread's launches to recordIntoBatch(), which keeps a copy of
// each (kernel, shape, stream, argument values), and the memset and copy
// entries record device-side memsets and copies in their place.  A recorded
// launch replays through the runtime's launch entry.
//===----------------------------------------------------------------------===//
#include "batch/Recording.h"

#include "base/Cuda.h"
#include "base/Messages.h"
#include "batch/RecordedLaunches.h"
#include "core/Devices.h"
#include "core/HostEntries.h"
#include "core/Kernels.h"

namespace smc {

cudaError_t RecordedLaunch::replay(cudaStream_t On) const {
  switch (Kind) {
  case OpKind::Memset:
    return cudaMemsetAsync(Dst, Value, Bytes, On);
  case OpKind::Copy:
    return cudaMemcpyAsync(Dst, Src, Bytes, cudaMemcpyDeviceToDevice, On);
  case OpKind::Launch:
    break;
  }
  return __smc_launch_kernel(Func, Shape.Grid, Shape.Block,
                             const_cast<void **>(Args.data()), Shape.SharedMem,
                             On);
}

LaunchRequest RecordedLaunch::request(cudaStream_t On) const {
  LaunchRequest Req;
  Req.Func = Func;
  Req.Shape = Shape;
  Req.Args = const_cast<void **>(Args.data());
  Req.Stream = On;
  return Req;
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

namespace {

thread_local Batch::Impl *TlRecording = nullptr;

// The values of a launch's arguments: as many as the original kernel has
// parameters (the driver says how many, and their sizes).
bool copyLaunchArgs(const KernelEntry &K, const driver::Api &Api,
                    const LaunchRequest &Req, RecordedLaunch &Out,
                    std::string &Error) {
  std::vector<size_t> Sizes;
  for (unsigned I = 0;; ++I) {
    size_t Offset = 0, Size = 0;
    CUresult R = Api.FuncGetParamInfo(K.Original, I, &Offset, &Size);
    if (R == CUDA_ERROR_INVALID_VALUE)
      break; // past the last parameter
    if (R != CUDA_SUCCESS) {
      Error = "cannot read its parameters (" + driver::resultText(R) + ")";
      return false;
    }
    Sizes.push_back(Size);
  }
  if (!Sizes.empty() && !Req.Args) {
    Error = "its launch passes no arguments";
    return false;
  }
  Out.Values = copyArgs(Req.Args, Sizes);
  for (std::vector<char> &V : Out.Values)
    Out.Args.push_back(V.data());
  return true;
}

} // namespace

bool batchRecording() { return TlRecording != nullptr; }

cudaError_t recordIntoBatch(const LaunchRequest &Req) {
  Batch::Impl &B = *TlRecording;
  RecordedLaunch L;
  L.Func = Req.Func;
  L.Shape = Req.Shape;
  L.Stream = Req.effectiveStream();
  std::string Error;
  if (cudaError_t Err = cudaGetDevice(&L.Device)) {
    tell("smc::Batch: cannot record a launch: " + failed("cudaGetDevice", Err));
    return Err;
  }
  const driver::Api *Api = driver::api(&Error);
  if (!Api) {
    tell("smc::Batch: cannot record launches without the CUDA driver API (" +
         Error + ")");
    return cudaErrorNotSupported;
  }
  Guard Lock(registryMutex());
  RelaxedCaptureMode Relaxed;
  DeviceState *Dev = deviceState(L.Device);
  L.State = Dev;
  L.Kernel = Dev ? kernelEntry(Req.Func, *Dev, *Api) : nullptr;
  if (!L.Kernel) {
    tell("smc::Batch: a launch of a function the runtime does not know as a "
         "kernel was not recorded");
    return cudaErrorInvalidDeviceFunction;
  }
  if (!copyLaunchArgs(*L.Kernel, *Api, Req, L, Error)) {
    tellKernel(*L.Kernel, "smc::Batch: not recorded: " + Error);
    return cudaErrorInvalidValue;
  }
  B.Launches.push_back(std::move(L));
  return cudaSuccess;
}

namespace {

// Records a memset (Bytes bytes of Value at Dst) or a device-to-device
// copy (Bytes bytes from Src to Dst) on Stream (null: the thread's default
// stream, per-thread with Ptsz) into this thread's batch.
cudaError_t recordOp(OpKind Kind, void *Dst, const void *Src, size_t Bytes,
                     int Value, cudaStream_t Stream, bool Ptsz) {
  RecordedLaunch L;
  L.Kind = Kind;
  L.Dst = Dst;
  L.Src = Src;
  L.Bytes = Bytes;
  L.Value = Value;
  L.Stream = Stream ? Stream : Ptsz ? cudaStreamPerThread : cudaStreamLegacy;
  if (cudaError_t Err = cudaGetDevice(&L.Device)) {
    tell("smc::Batch: cannot record a memset or copy: " +
         failed("cudaGetDevice", Err));
    return Err;
  }
  L.State = lockedDeviceState(L.Device);
  if (!L.State)
    return cudaErrorNoDevice;
  TlRecording->Launches.push_back(std::move(L));
  return cudaSuccess;
}

cudaError_t memsetEntry(void *Dst, int Value, size_t Bytes, cudaStream_t Stream,
                        bool Ptsz) {
  if (!batchRecording())
    return Ptsz ? cudaMemsetAsync_ptsz(Dst, Value, Bytes, Stream)
                : cudaMemsetAsync(Dst, Value, Bytes, Stream);
  return recordOp(OpKind::Memset, Dst, nullptr, Bytes, Value, Stream, Ptsz);
}

// Whether Ptr is memory the device can address (device or managed).
bool onDevice(const void *Ptr) {
  cudaPointerAttributes Attributes;
  if (cudaPointerGetAttributes(&Attributes, Ptr) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return Attributes.type == cudaMemoryTypeDevice ||
         Attributes.type == cudaMemoryTypeManaged;
}

cudaError_t memcpyEntry(void *Dst, const void *Src, size_t Bytes,
                        cudaMemcpyKind Kind, cudaStream_t Stream, bool Ptsz) {
  if (!batchRecording())
    return Ptsz ? cudaMemcpyAsync_ptsz(Dst, Src, Bytes, Kind, Stream)
                : cudaMemcpyAsync(Dst, Src, Bytes, Kind, Stream);
  // A copy to the host would read results before the recorded kernels
  // run, and a copy from the host would read the host buffer only at
  // run(): neither is what the program asked for.
  bool DeviceToDevice =
      Kind == cudaMemcpyDeviceToDevice ||
      (Kind == cudaMemcpyDefault && onDevice(Dst) && onDevice(Src));
  if (!DeviceToDevice) {
    tell("smc::Batch: a copy to or from host memory while recording was "
         "refused (cudaErrorNotPermitted): it would run before the "
         "recorded kernels, or after the host changed its buffer; make it "
         "before begin() or after run() (a library call that reads a result "
         "back, such as thrust::reduce, cannot be recorded)");
    return cudaErrorNotPermitted;
  }
  return recordOp(OpKind::Copy, Dst, Src, Bytes, 0, Stream, Ptsz);
}

} // namespace

Batch::Batch() : impl(std::make_unique<Impl>()) {}

Batch::~Batch() {
  if (TlRecording == impl.get())
    TlRecording = nullptr;
}

bool Batch::begin(std::string *Error) {
  if (TlRecording) {
    if (Error)
      *Error = "smc::Batch::begin: this thread records into a batch already";
    return false;
  }
  TlRecording = impl.get();
  impl->Recording = true;
  return true;
}

void Batch::end() {
  if (TlRecording == impl.get())
    TlRecording = nullptr;
  impl->Recording = false;
}

unsigned Batch::size() const { return unsigned(impl->Launches.size()); }

} // namespace smc

extern "C" cudaError_t __smc_memset_async(void *DevPtr, int Value, size_t Count,
                                          cudaStream_t Stream) {
  return smc::memsetEntry(DevPtr, Value, Count, Stream, /*Ptsz=*/false);
}

extern "C" cudaError_t __smc_memset_async_ptsz(void *DevPtr, int Value,
                                               size_t Count,
                                               cudaStream_t Stream) {
  return smc::memsetEntry(DevPtr, Value, Count, Stream, /*Ptsz=*/true);
}

extern "C" cudaError_t __smc_memcpy_async(void *Dst, const void *Src,
                                          size_t Count, cudaMemcpyKind Kind,
                                          cudaStream_t Stream) {
  return smc::memcpyEntry(Dst, Src, Count, Kind, Stream, /*Ptsz=*/false);
}

extern "C" cudaError_t __smc_memcpy_async_ptsz(void *Dst, const void *Src,
                                               size_t Count,
                                               cudaMemcpyKind Kind,
                                               cudaStream_t Stream) {
  return smc::memcpyEntry(Dst, Src, Count, Kind, Stream, /*Ptsz=*/true);
}
