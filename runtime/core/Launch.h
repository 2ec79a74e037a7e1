//===- Launch.h - One launch: the request and the decision ------*- C++ -*-===//
//
// A launch has two halves, kept apart:
//
//   LaunchRequest   what the program asked for: the kernel, grid, block,
//                   dynamic shared memory, arguments and stream (the
//                   arguments of cudaLaunchKernel), never rewritten;
//   LaunchDecision  what the runtime decided to run for it: a placement
//                   instead of the kernel's policy, an SM set, how the
//                   workers follow live targets, notes for SMC_STATS.
//
// The decision-makers (partition/, locality/, remap/, corun/, priority/)
// fill the
// decision in the one order dispatch/Dispatcher.cpp gives; Launch::prepared()
// is the configuration (core/Prepared.h) the decision comes to, and
// core/Execute.h carries it out.  docs/DESIGN.md draws the path.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORE_LAUNCH_H
#define SMC_RUNTIME_CORE_LAUNCH_H

#include "smc/abi.h"

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace smc {

struct Prepared;

// The grid, block and dynamic shared memory of a launch: with the kernel,
// device and policy, what a prepared launch is cached under.
struct LaunchShape {
  dim3 Grid;
  dim3 Block;
  size_t SharedMem = 0;

  bool operator==(const LaunchShape &O) const {
    return Grid.x == O.Grid.x && Grid.y == O.Grid.y && Grid.z == O.Grid.z &&
           Block.x == O.Block.x && Block.y == O.Block.y &&
           Block.z == O.Block.z && SharedMem == O.SharedMem;
  }
  // The shape, and a policy id, as an ordered key.
  std::array<uint64_t, 8> key(uint32_t PolicyId) const {
    return {Grid.x,  Grid.y,  Grid.z,    Block.x,
            Block.y, Block.z, SharedMem, PolicyId};
  }
  uint64_t ctas() const { return uint64_t(Grid.x) * Grid.y * Grid.z; }
};

// One launch as the program made it (the arguments of cudaLaunchKernel).
struct LaunchRequest {
  const void *Func = nullptr;
  LaunchShape Shape;
  void **Args = nullptr;
  cudaStream_t Stream = nullptr;
  bool Ptsz = false; // through cudaLaunchKernel_ptsz

  // The stream as the driver sees it: a null stream of the _ptsz entry is
  // the thread's per-thread stream, otherwise the legacy stream.
  cudaStream_t effectiveStream() const {
    if (Stream)
      return Stream;
    return Ptsz ? cudaStreamPerThread : cudaStreamLegacy;
  }
};

// LaunchDecision::Placement when the kernel's own policy applies.
constexpr uint32_t KernelPolicy = UINT32_MAX;

// What the runtime runs for one request.
struct LaunchDecision {
  // The policy the launch runs under, as an interned id (policy/Policies.h):
  // the kernel's own (KernelPolicy), or a placement a decision-maker chose
  // (a locality trial, smc::Batch's workers).
  uint32_t Placement = KernelPolicy;
  // The SMs an SM-centric launch is confined to (sorted; null: the
  // policy's), with this many workers per SM unless 0: a stream's live
  // partition, policy auto's share, an urgent launch's SMs.  Policies auto
  // and locality confined become the default SM-centric policy there.
  const std::vector<unsigned> *Sms = nullptr;
  unsigned WorkersPerSM = 0;
  // A live partition or the co-run scheduler chose where the launch runs:
  // priorities neither take SMs for it nor make it yield.
  bool SmsChosen = false;
  // On a stream with a live partition (partition/), which records the SMs
  // its launches hold.
  bool Partitioned = false;

  // How the SM-centric variant's workers run (SmcDescriptor fields): the
  // live targets they follow (null: none), the chunks one claim takes (-1:
  // the plan's), whether the launch wants a tag so that top-up grids can
  // join it (given only to loop-mode launches not captured and not under
  // SMC_STATS), and the worker grid (0: the plan's).
  uint32_t *LiveTarget = nullptr;
  int ClaimBatch = -1;
  bool Tagged = false;
  uint32_t Workers = 0;

  // Dynamic shared memory an original launch runs with where more than the
  // request's (0: the request's): a reserved launch kept one CTA to an SM
  // (priority/Reserve.h).
  size_t SharedMem = 0;

  // Run the original kernel whatever the plan says; OriginalReason is
  // recorded with SMC_STATS ("" for a choice, not a fallback).
  bool Original = false;
  const char *OriginalReason = "";

  // Policy remap (remap/): the remap table the __remap variant reads and
  // the jobs it covers (null: none ready, the launch runs the original).
  const uint32_t *RemapTable = nullptr;
  uint32_t RemapCount = 0;

  // For SMC_STATS: what the co-run scheduler chose and why, the locality
  // trial this launch is or what was chosen, and the remap's trial or
  // choice.
  const std::string *CoRunNote = nullptr;
  const std::string *LocalityNote = nullptr;
  const std::string *RemapNote = nullptr;
};

// Whether a stream is being captured, as the runtime found it.
enum class Capture { NotAsked, None, Active, Unknown };

// One launch on its way through the runtime.
class Launch {
public:
  Launch(const LaunchRequest &Req, int Device)
      : Req(Req), Device(Device), Stream(Req.effectiveStream()) {}
  Launch(const Launch &) = delete;
  Launch &operator=(const Launch &) = delete;

  const LaunchRequest Req;
  const int Device;
  const cudaStream_t Stream; // Req.effectiveStream()
  LaunchDecision Decision;

  // The configuration the decision comes to (core/Prepared.h), prepared
  // again when the decision's placement or SM set changed; null when the
  // launch can only be forwarded to the original (it then reports the
  // problem).
  Prepared *prepared();
  // The configuration last prepared, without preparing.
  Prepared *current() const { return P; }
  // Sets the placement or the SM set (the next prepared() follows them).
  void placeUnder(uint32_t PolicyId);
  void confine(const std::vector<unsigned> *Sms, unsigned WorkersPerSM);
  // Uses `Ready`, a configuration prepared for this request's kernel and
  // shape by a decision-maker (it matches the decision from now on).
  void use(Prepared *Ready);

  // Whether the stream is being captured (asked once).
  Capture capture();

  // Set by the executor (core/Execute.h): whether it took the variant's
  // path (not the original's from the start), whether the variant was
  // launched, the descriptor it was launched with (SM-centric), and whether
  // it runs as loop-mode workers on the stream (not captured): such a
  // launch holds its SMs until it completes.
  bool TriedVariant = false;
  bool RanVariant = false;
  SmcDescriptor Desc{};
  bool RanWorkers = false;

private:
  Prepared *P = nullptr;
  bool Stale = true;
  Capture Captured = Capture::NotAsked;
};

} // namespace smc

#endif // SMC_RUNTIME_CORE_LAUNCH_H
