//===- Cuda.cpp - Small CUDA helpers every room uses ----------------------===//
//
// See Cuda.h.  Stream keys number host threads in the order they first ask
// for their per-thread stream's key.
//===----------------------------------------------------------------------===//
#include "base/Cuda.h"

#include <atomic>

namespace smc {
namespace {

// Which stream a key names.
enum StreamKind : int {
  LegacyStream = 0,    // id 0
  PerThreadStream = 1, // id = the host thread's number
  NamedStream = 2,     // id = cudaStreamGetId
};

thread_local uint64_t TlThreadNumber;
std::atomic<uint64_t> ThreadCount{0};

} // namespace

std::string failed(const char *What, cudaError_t Err) {
  cudaGetLastError();
  return std::string(What) + " failed: " + cudaGetErrorName(Err);
}

bool copyThrough(cudaStream_t Stream, void *Ptr, const void *Host, size_t Bytes,
                 std::string &Error) {
  cudaError_t Err =
      Host ? cudaMemcpyAsync(Ptr, Host, Bytes, cudaMemcpyHostToDevice, Stream)
           : cudaMemsetAsync(Ptr, 0, Bytes, Stream);
  if (Err == cudaSuccess)
    Err = cudaStreamSynchronize(Stream);
  if (Err != cudaSuccess) {
    Error = failed("copying to the device", Err);
    return false;
  }
  return true;
}

void *newDeviceMemory(cudaStream_t Stream, const void *Host, size_t Bytes,
                      std::string &Error) {
  void *Ptr = nullptr;
  cudaError_t Err = cudaMalloc(&Ptr, Bytes);
  if (Err != cudaSuccess) {
    Error = failed("cudaMalloc", Err);
    return nullptr;
  }
  if (!copyThrough(Stream, Ptr, Host, Bytes, Error))
    return nullptr;
  return Ptr;
}

bool streamIdle(cudaStream_t Stream) {
  cudaError_t Err = cudaStreamQuery(Stream);
  if (Err == cudaSuccess)
    return true;
  cudaGetLastError(); // not ready leaves no error; anything else is cleared
  return false;
}

bool eventPending(cudaEvent_t Event) {
  if (!Event)
    return false;
  cudaError_t Err = cudaEventQuery(Event);
  if (Err == cudaErrorNotReady)
    return true;
  if (Err != cudaSuccess)
    cudaGetLastError();
  return false;
}

bool streamKey(cudaStream_t Stream, StreamKey &Key) {
  if (Stream == cudaStreamLegacy) {
    Key = {LegacyStream, 0};
    return true;
  }
  if (Stream == cudaStreamPerThread) {
    if (TlThreadNumber == 0)
      TlThreadNumber = ThreadCount.fetch_add(1) + 1;
    Key = {PerThreadStream, TlThreadNumber};
    return true;
  }
  unsigned long long StreamId = 0;
  if (cudaStreamGetId(Stream, &StreamId) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  Key = {NamedStream, StreamId};
  return true;
}

RelaxedCaptureMode::RelaxedCaptureMode() {
  Saved = cudaStreamCaptureModeRelaxed;
  Active = cudaThreadExchangeStreamCaptureMode(&Saved) == cudaSuccess;
  if (!Active)
    cudaGetLastError();
}

RelaxedCaptureMode::~RelaxedCaptureMode() {
  if (Active)
    cudaThreadExchangeStreamCaptureMode(&Saved);
}

OnDevice::OnDevice(int Ordinal) {
  if (cudaGetDevice(&Saved) != cudaSuccess) {
    cudaGetLastError();
    Saved = -1;
  }
  Switched = Saved != Ordinal && cudaSetDevice(Ordinal) == cudaSuccess;
}

OnDevice::~OnDevice() {
  if (Switched)
    cudaSetDevice(Saved);
}

} // namespace smc
