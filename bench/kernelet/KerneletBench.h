//===- KerneletBench.h - Streams and gate of smc_kernelet_bench -*- C++ -*-===//
//
// What smc_kernelet_bench (kernelet.cu) measures with: the suite's
// workloads, set up once, the mix's streams and a gate kernel that holds
// them until the host has queued everything, so that a mix's makespan
// leaves out the host's work; and the runs that smc-profile measures
// (--profile-run).  Defined in KerneletBench.cu.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_KERNELET_KERNELETBENCH_H
#define SMC_BENCH_KERNELET_KERNELETBENCH_H

#include "KerneletOptions.h"
#include "Workload.h"

#include <cuda_runtime.h>

#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>

namespace smc::kernelet {

struct Bench {
  std::map<std::string, std::unique_ptr<workloads::Workload>> Workloads;
  cudaStream_t Streams[NumStreams] = {};
  cudaStream_t GateStream = nullptr;
  cudaEvent_t Start = nullptr, Ends[NumStreams] = {};
  unsigned *Flag = nullptr, *DeviceFlag = nullptr;
  unsigned Generation = 0;
  std::mt19937 Random{20141201};

  Bench();

  // The workload Name, set up (default size and seed) on first use.
  workloads::Workload &workload(const std::string &Name);

  // Runs Enqueue (which queues the mix on Streams) behind the gate and
  // returns the makespan in ms.
  double measure(const std::function<void()> &Enqueue);
};

// Each workload's run() Repeats times, alone, one after another: what
// scripts/smc-profile measures (--ncu: the originals under Nsight Compute;
// otherwise policy auto's scaling profiles, whose first launch of each
// configuration in a process only warms up).
int profileRun(unsigned Repeats);

} // namespace smc::kernelet

#endif // SMC_BENCH_KERNELET_KERNELETBENCH_H
