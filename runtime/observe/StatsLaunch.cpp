//===- StatsLaunch.cpp - Launches recorded for SMC_STATS ------------------===//
//
// With SMC_STATS set, every launch the runtime handles becomes a record
// (Stats.h).  An SM-centric launch that is not being captured runs with the
// device's zeroed statistics block in its descriptor; the runtime waits for
// it and copies the counts into the record.  A lock held across launch and
// read-back makes the counts the launch's own, at the cost of serializing
// launches.
//===----------------------------------------------------------------------===//
#include "core/RuntimeState.h"
#include "observe/Stats.h"

namespace smc {
namespace {

stats::LaunchRecord baseRecord(const Prepared &P, const LaunchRequest &Req) {
  const LaunchShape &S = Req.Shape;
  stats::LaunchRecord R;
  if (Req.AutoDecision)
    R.Auto = *Req.AutoDecision;
  if (Req.LocalityChoice)
    R.LocalityChoice = *Req.LocalityChoice;
  R.Kernel = P.Kernel->Source;
  R.Mangled = P.Kernel->Mangled;
  if (P.Kernel->InfoProblem.empty())
    R.Locality = smcLocalityText(P.Kernel->Info.locality);
  R.Device = P.Device->Ordinal;
  R.Grid[0] = S.Grid.x;
  R.Grid[1] = S.Grid.y;
  R.Grid[2] = S.Grid.z;
  R.Block[0] = S.Block.x;
  R.Block[1] = S.Block.y;
  R.Block[2] = S.Block.z;
  R.SharedMem = S.SharedMem;
  return R;
}

} // namespace

void recordOriginal(const Prepared &P, const LaunchRequest &Req,
                    const char *Reason, cudaError_t Err) {
  stats::LaunchRecord R = baseRecord(P, Req);
  R.Reason = Reason;
  if (Err != cudaSuccess)
    R.Error = cudaGetErrorName(Err);
  stats::record(R, P.Device->Name);
}

cudaError_t launchWithStats(Prepared &P, SmcDescriptor &Desc, bool Capturing,
                            const LaunchRequest &Req, cudaStream_t Stream) {
  Globals &G = globals();
  DeviceState &Dev = *P.Device;
  std::lock_guard<std::mutex> Lock(G.StatsMutex);
  RelaxedCaptureMode Relaxed;
  stats::LaunchRecord R = baseRecord(P, Req);
  size_t StatsBytes = SMC_STATS_WORDS(Dev.NumSMs) * sizeof(uint32_t);
  bool Counting =
      P.Variant == Variant::SMCentric && !Capturing && Dev.StatsBlock;
  if (Counting) {
    cudaError_t Err =
        cudaMemsetAsync(Dev.StatsBlock, 0, StatsBytes, Dev.Stream);
    if (Err == cudaSuccess)
      Err = cudaStreamSynchronize(Dev.Stream);
    if (Err != cudaSuccess) {
      R.Error = "statistics not collected: " +
                failed("zeroing the statistics block", Err);
      Counting = false;
    }
  }
  Desc.stats = Counting ? Dev.StatsBlock : nullptr;

  uint32_t FailedSlice = 0;
  CUresult Result = launchVariant(P, Desc, Req, Stream, Capturing, FailedSlice);
  if (Result != CUDA_SUCCESS)
    return afterVariantFailure(P, Result, FailedSlice, Req);

  const QueuePlan &Plan = P.Plan;
  R.Variant = variantName(P.Variant);
  R.Captured = Capturing;
  if (P.Variant == Variant::SMCentric) {
    R.Mode = Plan.Mode == SMC_MODE_ONE_CHUNK ? "one_chunk" : "loop";
    R.Order = chunkOrderName(P.Order);
    R.Ordered = Plan.Ordered;
    R.Target = Plan.Target;
    R.ClaimBatch = Desc.claim_batch;
    R.Workers = Plan.Workers;
    R.NumSlots = Dev.NumSMs;
  } else {
    R.Slices = Plan.numSlices();
    R.SliceSize = Plan.SliceSize;
  }
  if (Counting) {
    R.Counts.resize(SMC_STATS_WORDS(Dev.NumSMs));
    cudaError_t Err = cudaStreamSynchronize(Stream);
    if (Err == cudaSuccess)
      Err = cudaMemcpyAsync(R.Counts.data(), Dev.StatsBlock, StatsBytes,
                            cudaMemcpyDeviceToHost, Dev.Stream);
    if (Err == cudaSuccess)
      Err = cudaStreamSynchronize(Dev.Stream);
    if (Err != cudaSuccess) {
      R.Error = "statistics not collected: " +
                failed("reading the statistics block", Err);
      R.Counts.clear();
    }
  }
  stats::record(R, Dev.Name);
  return cudaSuccess;
}

} // namespace smc
