//===- launch_path.cpp - Host cost of a launch through the SMC runtime ----===//
//
// Measures, on the host clock, batches of launches of an empty kernel
// through plain cudaLaunchKernel and through the SMC runtime entry
// __smc_launch_kernel (the call the plugin puts in place of every
// cudaLaunchKernel) with the kernel's policy set to original, smc and slice;
// also smc launches that yield SMs to higher-priority streams
// (smc_entry_smc_yielding: smc::PriorityMode::On) and smc launches on a
// stream of the greatest priority while nothing yields
// (smc_entry_smc_urgent); launches of policy auto alone (smc_entry_auto)
// and beside a launch of policy auto held in flight on another stream
// (smc_entry_auto_beside: the co-run decision on every launch).  Each
// iteration times kBatch launches; the stream
// is synchronized outside the timed region.  The counter us_per_launch is
// the mean host time of one launch in microseconds.  Yielding, once on,
// stays on for the process, and would then slow every later SM-centric
// launch of the process (no claims ahead): each of the two priority cases
// is registered only in a process of its own, beside plain cudaLaunchKernel
// (smc_bench --priority-case=yielding|urgent).
//
// This file must be compiled WITHOUT the SMC plugin: the plugin would
// rewrite the plain cudaLaunchKernel calls below into runtime calls.
//===----------------------------------------------------------------------===//
#include "launch_path.h"

#include "smc/smc.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <string>

extern "C" cudaError_t __smc_launch_kernel(const void *Func, dim3 Grid,
                                           dim3 Block, void **Args,
                                           size_t SharedMem,
                                           cudaStream_t Stream);

namespace {

constexpr int kBatch = 512;

using LaunchFn = cudaError_t (*)(const void *, dim3, dim3, void **, size_t,
                                 cudaStream_t);

cudaError_t plainLaunch(const void *Func, dim3 Grid, dim3 Block, void **Args,
                        size_t SharedMem, cudaStream_t Stream) {
  return cudaLaunchKernel(Func, Grid, Block, Args, SharedMem, Stream);
}

// How the launches of a case relate to stream priorities, or to another
// launch in flight (Beside).
enum class Priorities { Default, Yielding, Urgent, Beside };

// Holds a stream until Release is set (a host function in its order).
void CUDART_CB holdStream(void *Release) {
  while (!static_cast<std::atomic<bool> *>(Release)->load()) {
  }
}

// A launch of `Kernel` through `Launch` held in flight on a stream of its
// own until release(): the co-runner smc_entry_auto_beside decides beside.
class HeldLaunch {
public:
  cudaError_t start(LaunchFn Launch, const void *Kernel) {
    cudaError_t Err = cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking);
    if (Err == cudaSuccess)
      Err = cudaLaunchHostFunc(Stream, holdStream, &Released);
    if (Err == cudaSuccess)
      Err = Launch(Kernel, dim3(1), dim3(128), nullptr, 0, Stream);
    return Err;
  }
  void release() {
    Released.store(true);
    if (Stream) {
      cudaStreamSynchronize(Stream);
      cudaStreamDestroy(Stream);
    }
  }

private:
  std::atomic<bool> Released{false};
  cudaStream_t Stream = nullptr;
};

void launchPath(benchmark::State &State, LaunchFn Launch,
                const smc::Policy &Policy, unsigned GridSize, Priorities Kind) {
  const void *Kernel = emptyKernelSymbol();
  smc::setPolicyForSymbol(Kernel, Policy);
  smc::setPriorityMode(Kind == Priorities::Yielding ? smc::PriorityMode::On
                                                    : smc::PriorityMode::Auto);
  int Least = 0, Greatest = 0;
  cudaDeviceGetStreamPriorityRange(&Least, &Greatest);
  cudaStream_t Stream = nullptr;
  if (cudaStreamCreateWithPriority(
          &Stream, cudaStreamNonBlocking,
          Kind == Priorities::Urgent ? Greatest : Least) != cudaSuccess) {
    State.SkipWithError("cudaStreamCreateWithPriority failed");
    return;
  }
  const dim3 Grid(GridSize), Block(128);
  cudaError_t Err = cudaSuccess;
  HeldLaunch Held;
  // The first launch loads the kernel, which must not wait for the held
  // stream: warm up first.
  if (Kind == Priorities::Beside) {
    Err = Launch(Kernel, Grid, Block, nullptr, 0, Stream);
    if (Err == cudaSuccess)
      Err = cudaStreamSynchronize(Stream);
    if (Err == cudaSuccess)
      Err = Held.start(Launch, Kernel);
  }
  // Warm-up: the runtime looks the variants up on the first launch.
  for (int I = 0; I < 16 && Err == cudaSuccess; ++I)
    Err = Launch(Kernel, Grid, Block, nullptr, 0, Stream);
  if (Err == cudaSuccess)
    Err = cudaStreamSynchronize(Stream);

  double TotalUs = 0;
  for (auto _ : State) {
    if (Err != cudaSuccess)
      break;
    auto Start = std::chrono::steady_clock::now();
    for (int I = 0; I < kBatch; ++I)
      if (cudaError_t E = Launch(Kernel, Grid, Block, nullptr, 0, Stream))
        Err = E;
    auto Stop = std::chrono::steady_clock::now();
    double Seconds = std::chrono::duration<double>(Stop - Start).count();
    State.SetIterationTime(Seconds);
    TotalUs += Seconds * 1e6 / kBatch;
    if (Err == cudaSuccess)
      Err = cudaStreamSynchronize(Stream); // Manual time: not counted.
  }
  cudaStreamDestroy(Stream);
  Held.release();
  smc::setPriorityMode(smc::PriorityMode::Auto);
  if (Err != cudaSuccess) {
    State.SkipWithError(
        (std::string("launch failed: ") + cudaGetErrorString(Err)).c_str());
    return;
  }
  State.counters["us_per_launch"] =
      benchmark::Counter(TotalUs, benchmark::Counter::kAvgIterations);
  State.counters["launches_per_iteration"] = kBatch;
}

} // namespace

void registerLaunchPathBenchmarks(unsigned NumSMs, LaunchPathCases Cases) {
  // As many CTAs as a typical small grid: 4 per SM.
  const unsigned Grid = 4 * NumSMs;
  struct Case {
    const char *Name;
    LaunchFn Launch;
    smc::Policy Policy;
    Priorities Kind = Priorities::Default;
  };
  smc::Policy UrgentOriginal = smc::Policy::original();
  UrgentOriginal.urgent = true;
  // A target every launch meets: each launch timed, SMs taken (none here).
  smc::Policy TargetOriginal = smc::Policy::original();
  TargetOriginal.p99Micros = 1e6;
  for (const Case &C :
       {Case{"launch_path/cudaLaunchKernel", plainLaunch,
             smc::Policy::original()},
        Case{"launch_path/smc_entry_original", __smc_launch_kernel,
             smc::Policy::original()},
        Case{"launch_path/smc_entry_smc", __smc_launch_kernel,
             smc::Policy::smCentric()},
        Case{"launch_path/smc_entry_slice", __smc_launch_kernel,
             smc::Policy::slice(0)},
        Case{"launch_path/smc_entry_smc_yielding", __smc_launch_kernel,
             smc::Policy::smCentric(), Priorities::Yielding},
        Case{"launch_path/smc_entry_smc_urgent", __smc_launch_kernel,
             smc::Policy::smCentric(), Priorities::Urgent},
        Case{"launch_path/smc_entry_original_urgent", __smc_launch_kernel,
             UrgentOriginal, Priorities::Urgent},
        Case{"launch_path/smc_entry_original_p99", __smc_launch_kernel,
             TargetOriginal, Priorities::Urgent},
        Case{"launch_path/smc_entry_auto", __smc_launch_kernel,
             smc::Policy::automatic()},
        Case{"launch_path/smc_entry_auto_beside", __smc_launch_kernel,
             smc::Policy::automatic(), Priorities::Beside}}) {
    bool Wanted;
    switch (C.Kind) {
    case Priorities::Yielding:
      Wanted = Cases == LaunchPathCases::Yielding;
      break;
    case Priorities::Urgent:
      Wanted = Cases == LaunchPathCases::Urgent;
      break;
    default: // the baseline is in every process
      Wanted = Cases == LaunchPathCases::WithoutPriorities ||
               C.Launch == plainLaunch;
    }
    if (!Wanted)
      continue;
    LaunchFn Launch = C.Launch;
    smc::Policy Policy = C.Policy;
    Priorities Kind = C.Kind;
    benchmark::RegisterBenchmark(
        C.Name,
        [Launch, Policy, Grid, Kind](benchmark::State &State) {
          launchPath(State, Launch, Policy, Grid, Kind);
        })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
}
