//===- RuntimeState.cpp - Shared state, messages and CUDA helpers ---------===//
//
// The runtime's one Globals object, its once-per-text messages, SMC_DISABLE,
// and the small CUDA helpers every part uses.  See RuntimeState.h.
//===----------------------------------------------------------------------===//
#include "core/RuntimeState.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace smc {

Globals &globals() {
  static Globals *Instance = new Globals;
  return *Instance;
}

std::atomic<bool> ForwardAll{false};

void tell(const std::string &Line) {
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.MessageMutex);
  if (G.Told.insert(Line).second)
    std::fprintf(stderr, "smc: %s\n", Line.c_str());
}

void tellKernel(const KernelEntry &K, const std::string &What) {
  tell("kernel '" + K.Source + "': " + What);
}

static bool envFlag(const char *Name) {
  const char *Value = std::getenv(Name);
  return Value && *Value && std::strcmp(Value, "0") != 0;
}

bool smcDisabled() {
  static const bool Disabled = envFlag("SMC_DISABLE");
  return Disabled;
}

std::string failed(const char *What, cudaError_t Err) {
  cudaGetLastError();
  return std::string(What) + " failed: " + cudaGetErrorName(Err);
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

} // namespace smc
