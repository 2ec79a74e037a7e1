//===- Forever.h - Process-wide state that is never destroyed ---*- C++ -*-===//
//
// The runtime's process-wide state outlives every static destructor:
// programs launch kernels, and the runtime writes files, from static
// destructors and atexit handlers.  forever<T>() is that state's one
// instance, made on first use (thread-safe) and never destroyed.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_FOREVER_H
#define SMC_RUNTIME_BASE_FOREVER_H

namespace smc {

template <typename T> T &forever() {
  static T *Instance = new T;
  return *Instance;
}

} // namespace smc

#endif // SMC_RUNTIME_BASE_FOREVER_H
