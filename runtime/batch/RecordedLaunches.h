//===- RecordedLaunches.h - A batch's launches as recorded ------*- C++ -*-===//
//
// What smc::Batch keeps of each launch (or memset, device-to-device copy)
// recorded between begin() and end(), what the runtime knows of the
// recorded launches when a batch runs (their __slice configurations and
// the PendingLaunch facts its plans are made of), and how one slice run of
// them is launched on a lane.  Recording.cpp records them, LaunchRuns.cpp
// gathers the facts and launches a run, Executor.cpp orders the runs on the
// lanes with events, Batch.cpp chooses the runs.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BATCH_RECORDEDLAUNCHES_H
#define SMC_RUNTIME_BATCH_RECORDEDLAUNCHES_H

#include "batch/SliceRuns.h"
#include "core/Launch.h"
#include "smc/smc.h"

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace smc {

struct DeviceState;
struct KernelEntry;
struct Prepared;

// What a recorded stream operation is: a kernel launch, or a memset or
// device-to-device copy that must run in its place in the stream's order.
enum class OpKind { Launch, Memset, Copy };

// A launch (or memset, copy) as recorded: it outlives the program's
// argument array.
struct RecordedLaunch {
  OpKind Kind = OpKind::Launch;
  const void *Func = nullptr;
  LaunchShape Shape;
  cudaStream_t Stream = nullptr; // as the driver sees it (effectiveStream)
  int Device = 0;
  DeviceState *State = nullptr;
  KernelEntry *Kernel = nullptr; // launches only
  std::vector<std::vector<char>> Values;
  std::vector<void *> Args; // into Values
  // Memset: Bytes bytes of Value at Dst; copy: Bytes bytes from Src to Dst.
  void *Dst = nullptr;
  const void *Src = nullptr;
  size_t Bytes = 0;
  int Value = 0;

  // A memset or copy is one unit: it runs whole.
  uint64_t ctas() const {
    if (Kind != OpKind::Launch)
      return 1;
    return uint64_t(Shape.Grid.x) * Shape.Grid.y * Shape.Grid.z;
  }
  // The operation on `On` as the program asked for it (a launch through
  // the runtime's whole launch path).
  cudaError_t replay(cudaStream_t On) const;
  LaunchRequest request(cudaStream_t On) const;
};

struct Batch::Impl {
  std::vector<RecordedLaunch> Launches;
  bool Recording = false;
  std::vector<Batch::SliceRun> LastRuns;
  std::vector<std::string> LastNotes;
  std::vector<std::string> LaunchNames; // of the last run, for describe()
  Batch::Objective Objective = Batch::Objective::Makespan;
};

// What run() needs of each recorded launch on the GPU: its prepared
// __slice configuration (null where the launch can only run whole) and
// what a plan knows of it, on the batch's device.
struct Facts {
  std::vector<Prepared *> Slices;
  std::vector<batch::PendingLaunch> Pending;
  batch::PlanDevice Plan; // the device's SMs
};

// The facts of Launches (recorded on one device), or false with Error
// saying why not.  Who names the user in what the user is told.
bool gatherFacts(const std::vector<RecordedLaunch> &Launches, Facts &F,
                 std::string &Error, const std::string &Who = "smc::Batch");

// The device's two lanes, made on first use (see RecordedLaunches.cpp).
cudaError_t batchLanes(DeviceState &Dev, cudaStream_t (&Lanes)[2]);

// Launches the CTAs of run R of launch L on Lane: a memset or copy as
// recorded, workers through the launch path, a whole range as the
// original, else R's slices of the __slice configuration Slice (null:
// whole, as the original).  False with Error naming Which launch.
bool launchRun(const RecordedLaunch &L, const Prepared *Slice,
               const batch::SliceRun &R, cudaStream_t Lane,
               const std::string &Which, std::string &Error);

} // namespace smc

#endif // SMC_RUNTIME_BATCH_RECORDEDLAUNCHES_H
