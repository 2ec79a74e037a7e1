//===- RuntimeState.cpp - Shared state, messages and CUDA helpers ---------===//
//
// The runtime's one Globals object, its once-per-text messages, SMC_DISABLE,
// and the small CUDA helpers every part uses.  See RuntimeState.h.
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace smc {

Globals &globals() {
  static Globals *instance = new Globals;
  return *instance;
}

std::atomic<bool> forwardAll{false};

void tell(const std::string &line) {
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.messageMutex);
  if (g.told.insert(line).second)
    std::fprintf(stderr, "smc: %s\n", line.c_str());
}

void tellKernel(const KernelEntry &k, const std::string &what) {
  tell("kernel '" + k.source + "': " + what);
}

static bool envFlag(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && std::strcmp(value, "0") != 0;
}

bool smcDisabled() {
  static const bool disabled = envFlag("SMC_DISABLE");
  return disabled;
}

std::string failed(const char *what, cudaError_t err) {
  cudaGetLastError();
  return std::string(what) + " failed: " + cudaGetErrorName(err);
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
