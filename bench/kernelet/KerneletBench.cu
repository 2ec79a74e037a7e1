//===- KerneletBench.cu - Streams and gate of smc_kernelet_bench ----------===//
//
// The gate kernel, the streams and events of a mix, the workloads' setup
// and the makespan of a mix queued behind the gate (KerneletBench.h); and
// each workload run alone, what smc-profile measures.  Compiled without the
// plugin, as kernelet.cu.
//===----------------------------------------------------------------------===//
#include "BenchCuda.h"
#include "KerneletBench.h"

#include <algorithm>
#include <stdexcept>

namespace wl = smc::workloads;
using smc::corun::elapsedMs;

// Holds its stream until the host sets *Release to Generation or later.
__global__ void kerneletGate(const volatile unsigned *Release,
                             unsigned Generation) {
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  while (*Release < Generation &&
         __nvvm_read_ptx_sreg_globaltimer() - Begin < 2'000'000'000ull)
    __nanosleep(1000);
}

namespace smc::kernelet {

Bench::Bench() {
  for (cudaStream_t &S : Streams)
    SMC_CUDA_CHECK(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
  SMC_CUDA_CHECK(cudaStreamCreateWithFlags(&GateStream, cudaStreamNonBlocking));
  SMC_CUDA_CHECK(cudaEventCreate(&Start));
  for (cudaEvent_t &E : Ends)
    SMC_CUDA_CHECK(cudaEventCreate(&E));
  SMC_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void **>(&Flag),
                               sizeof(unsigned), cudaHostAllocMapped));
  *Flag = 0;
  SMC_CUDA_CHECK(cudaHostGetDevicePointer(
      reinterpret_cast<void **>(&DeviceFlag), Flag, 0));
}

wl::Workload &Bench::workload(const std::string &Name) {
  std::unique_ptr<wl::Workload> &W = Workloads[Name];
  if (!W) {
    const wl::WorkloadInfo *Info = wl::findWorkload(Name);
    if (!Info)
      throw std::runtime_error("no workload " + Name);
    W = Info->create();
    W->setup(Info->params(wl::Size::Default), wl::kDefaultSeed);
  }
  return *W;
}

double Bench::measure(const std::function<void()> &Enqueue) {
  SMC_CUDA_CHECK(cudaDeviceSynchronize());
  unsigned Gen = ++Generation;
  kerneletGate<<<1, 1, 0, GateStream>>>(DeviceFlag, Gen);
  SMC_CUDA_CHECK(cudaGetLastError());
  SMC_CUDA_CHECK(cudaEventRecord(Start, GateStream));
  for (cudaStream_t S : Streams)
    SMC_CUDA_CHECK(cudaStreamWaitEvent(S, Start, 0));
  Enqueue();
  for (unsigned I = 0; I < NumStreams; ++I)
    SMC_CUDA_CHECK(cudaEventRecord(Ends[I], Streams[I]));
  __atomic_store_n(Flag, Gen, __ATOMIC_SEQ_CST);
  SMC_CUDA_CHECK(cudaDeviceSynchronize());
  double Ms = 0;
  for (cudaEvent_t E : Ends)
    Ms = std::max(Ms, elapsedMs(Start, E));
  return Ms;
}

int profileRun(unsigned Repeats) {
  Bench B;
  std::map<std::string, bool> Done;
  for (const auto &Mix : MixNames)
    for (const char *Name : Mix)
      if (!Done[Name]) {
        Done[Name] = true;
        for (unsigned R = 0; R < Repeats; ++R) {
          B.workload(Name).run(B.Streams[0]);
          SMC_CUDA_CHECK(cudaStreamSynchronize(B.Streams[0]));
        }
      }
  return 0;
}

} // namespace smc::kernelet
