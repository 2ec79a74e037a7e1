//===- driver_calls.cpp - What the launch path's CUDA queries cost --------===//
//
// A probe (no plugin, no runtime) of the host time of each CUDA runtime call
// the launch path of policy auto makes besides the launch itself
// (runtime/corun/AutoLaunch.cpp, runtime/dispatch/Dispatcher.cpp), so that its
// cost over cudaLaunchKernel (docs/results/launch-path.md) can be put down to
// calls: cudaGetDevice, cudaStreamIsCapturing, cudaStreamGetId,
// cudaStreamGetPriority, cudaStreamQuery and cudaEventQuery of a busy and of an
// idle stream, and cudaEventRecord.  A stream is kept busy by large
// cudaMemsetAsync calls queued ahead.  Prints the median of 11 timings of 2000
// calls each, in us per call.
//
//   smc_driver_calls
//===----------------------------------------------------------------------===//
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

#define CHECK(X)                                                               \
  do {                                                                         \
    cudaError_t E = (X);                                                       \
    if (E != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s: %s\n", #X, cudaGetErrorString(E));             \
      return 1;                                                                \
    }                                                                          \
  } while (0)

double usPerCall(const std::function<void()> &Call) {
  constexpr int Calls = 2000;
  std::vector<double> Us;
  for (int Rep = 0; Rep < 11; ++Rep) {
    auto Begin = std::chrono::steady_clock::now();
    for (int I = 0; I < Calls; ++I)
      Call();
    std::chrono::duration<double, std::micro> Took =
        std::chrono::steady_clock::now() - Begin;
    Us.push_back(Took.count() / Calls);
  }
  std::nth_element(Us.begin(), Us.begin() + 5, Us.end());
  return Us[5];
}

} // namespace

int main() {
  cudaDeviceProp Prop;
  CHECK(cudaGetDeviceProperties(&Prop, 0));
  std::printf("device: %s\n", Prop.name);
  int Least = 0, Greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&Least, &Greatest));
  cudaStream_t Busy, Idle;
  CHECK(cudaStreamCreateWithPriority(&Busy, cudaStreamNonBlocking, Least));
  CHECK(cudaStreamCreateWithPriority(&Idle, cudaStreamNonBlocking, Least));
  cudaEvent_t BusyEvent, IdleEvent, Recorded;
  CHECK(cudaEventCreateWithFlags(&BusyEvent, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&IdleEvent, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&Recorded, cudaEventDisableTiming));
  size_t Bytes = size_t(1) << 30;
  void *Buffer = nullptr;
  CHECK(cudaMalloc(&Buffer, Bytes));
  CHECK(cudaEventRecord(IdleEvent, Idle));
  CHECK(cudaStreamSynchronize(Idle));
  // Keeps Busy busy for longer than every timing below (about 0.4 ms per
  // GiB memset on an H100).
  auto KeepBusy = [&] {
    for (int I = 0; I < 1000; ++I)
      cudaMemsetAsync(Buffer, I, Bytes, Busy);
    cudaEventRecord(BusyEvent, Busy);
  };
  KeepBusy();

  int Device = 0;
  cudaStreamCaptureStatus Capture;
  unsigned long long Id = 0;
  int Priority = 0;
  struct Row {
    const char *Name;
    std::function<void()> Call;
  };
  std::vector<Row> Rows = {
      {"cudaGetDevice", [&] { cudaGetDevice(&Device); }},
      {"cudaStreamIsCapturing", [&] { cudaStreamIsCapturing(Busy, &Capture); }},
      {"cudaStreamGetId", [&] { cudaStreamGetId(Busy, &Id); }},
      {"cudaStreamGetPriority",
       [&] { cudaStreamGetPriority(Busy, &Priority); }},
      {"cudaStreamQuery (busy stream)", [&] { cudaStreamQuery(Busy); }},
      {"cudaStreamQuery (idle stream)", [&] { cudaStreamQuery(Idle); }},
      {"cudaEventQuery (busy stream's event)",
       [&] { cudaEventQuery(BusyEvent); }},
      {"cudaEventQuery (idle stream's event)",
       [&] { cudaEventQuery(IdleEvent); }},
      {"cudaEventRecord (idle stream)",
       [&] { cudaEventRecord(Recorded, Idle); }},
  };
  for (const Row &R : Rows)
    std::printf("%-40s %6.3f us\n", R.Name, usPerCall(R.Call));
  if (cudaEventQuery(BusyEvent) != cudaErrorNotReady)
    std::printf("note: the busy stream ran dry during the timings\n");
  cudaGetLastError();
  CHECK(cudaDeviceSynchronize());
  return 0;
}
