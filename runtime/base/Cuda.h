//===- Cuda.h - Small CUDA helpers every room uses --------------*- C++ -*-===//
//
// The runtime's own CUDA calls must never leave an error behind for the
// program's next cudaGetLastError, never break a stream capture in
// progress, and never wait for the program's kernels where they need not.
// These helpers keep those rules in one place.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_CUDA_H
#define SMC_RUNTIME_BASE_CUDA_H

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <utility>

namespace smc {

// "<What> failed: cudaErrorX", clearing the error so that a failed call of
// the runtime's never becomes the program's last error.
std::string failed(const char *What, cudaError_t Err);

// Whether `Stream` has no work left (cudaStreamQuery); an error counts as
// busy and is cleared (the launch itself will report it).
bool streamIdle(cudaStream_t Stream);

// Whether the work recorded before `Event` may still run: false for a null
// event, one never recorded, one completed, or an error (which is cleared).
// A query that finds the event not ready leaves no error behind.
bool eventPending(cudaEvent_t Event);

// Copies `Bytes` from `Host` (or zeroes them if it is null) to device
// memory at `Ptr` through `Stream` (one of the runtime's own non-blocking
// streams), and waits for the copy only: it completes while kernels run.
// False with `Error` set on failure.
bool copyThrough(cudaStream_t Stream, void *Ptr, const void *Host, size_t Bytes,
                 std::string &Error);

// New device memory of `Bytes` filled as copyThrough() does; null with
// `Error` set on failure.  The runtime never frees it: launches in flight
// and captured graphs may still use it (and cudaFree could synchronize with
// a capturing stream).
void *newDeviceMemory(cudaStream_t Stream, const void *Host, size_t Bytes,
                      std::string &Error);

// Which stream, as the runtime tells streams apart: (kind, id): the legacy
// stream, a host thread's per-thread stream, or a named stream by
// cudaStreamGetId.
using StreamKey = std::pair<int, uint64_t>;

// Which stream `Stream` (not null: cudaStreamLegacy or cudaStreamPerThread
// for the default streams) is.  False if it cannot be identified.
bool streamKey(cudaStream_t Stream, StreamKey &Key);

// Makes the runtime's own CUDA calls legal while some stream of the process
// is capturing (cudaStreamCaptureModeRelaxed for this thread), restoring
// the thread's mode afterwards.
class RelaxedCaptureMode {
public:
  RelaxedCaptureMode();
  ~RelaxedCaptureMode();
  RelaxedCaptureMode(const RelaxedCaptureMode &) = delete;
  RelaxedCaptureMode &operator=(const RelaxedCaptureMode &) = delete;

private:
  cudaStreamCaptureMode Saved;
  bool Active;
};

// Makes `Ordinal` the current device for the runtime's calls, then restores
// the caller's device.
class OnDevice {
public:
  explicit OnDevice(int Ordinal);
  ~OnDevice();
  OnDevice(const OnDevice &) = delete;
  OnDevice &operator=(const OnDevice &) = delete;

private:
  int Saved = -1;
  bool Switched = false;
};

} // namespace smc

#endif // SMC_RUNTIME_BASE_CUDA_H
