//===- StatsLaunch.cpp - Launches recorded for SMC_STATS ------------------===//
//
// With SMC_STATS set, every launch the runtime handles becomes a record
// (Stats.h).  An SM-centric launch that is not being captured runs with the
// device's zeroed statistics block in its descriptor; the runtime waits for
// it and copies the counts into the record.  A lock held across launch and
// read-back makes the counts the launch's own, at the cost of serializing
// launches.
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"
#include "Stats.h"

namespace smc {
namespace {

stats::LaunchRecord baseRecord(const Prepared &p, const LaunchShape &s) {
  stats::LaunchRecord r;
  r.kernel = p.kernel->source;
  r.mangled = p.kernel->mangled;
  r.device = p.device->ordinal;
  r.grid[0] = s.grid.x;
  r.grid[1] = s.grid.y;
  r.grid[2] = s.grid.z;
  r.block[0] = s.block.x;
  r.block[1] = s.block.y;
  r.block[2] = s.block.z;
  r.sharedMem = s.sharedMem;
  return r;
}

} // namespace

void recordOriginal(const Prepared &p, const LaunchRequest &req,
                    const char *reason, cudaError_t err) {
  stats::LaunchRecord r = baseRecord(p, req.shape);
  r.reason = reason;
  if (err != cudaSuccess)
    r.error = cudaGetErrorName(err);
  stats::record(r, p.device->name);
}

cudaError_t launchWithStats(Prepared &p, SmcDescriptor &desc, bool capturing,
                            const LaunchRequest &req, cudaStream_t stream) {
  Globals &g = globals();
  DeviceState &dev = *p.device;
  std::lock_guard<std::mutex> lock(g.statsMutex);
  RelaxedCaptureMode relaxed;
  stats::LaunchRecord r = baseRecord(p, req.shape);
  size_t statsBytes = SMC_STATS_WORDS(dev.numSMs) * sizeof(uint32_t);
  bool counting =
      p.variant == Variant::SMCentric && !capturing && dev.statsBlock;
  if (counting) {
    cudaError_t err =
        cudaMemsetAsync(dev.statsBlock, 0, statsBytes, dev.stream);
    if (err == cudaSuccess)
      err = cudaStreamSynchronize(dev.stream);
    if (err != cudaSuccess) {
      r.error = "statistics not collected: " +
                failed("zeroing the statistics block", err);
      counting = false;
    }
  }
  desc.stats = counting ? dev.statsBlock : nullptr;

  uint32_t failedSlice = 0;
  CUresult result = launchVariant(p, desc, req, stream, failedSlice);
  if (result != CUDA_SUCCESS)
    return afterVariantFailure(p, result, failedSlice, req);

  const QueuePlan &plan = p.plan;
  r.variant = variantName(p.variant);
  r.captured = capturing;
  if (p.variant == Variant::SMCentric) {
    r.mode = plan.mode == SMC_MODE_ONE_CHUNK ? "one_chunk" : "loop";
    r.ordered = plan.ordered;
    r.target = plan.target;
    r.workers = plan.workers;
    r.numSlots = dev.numSMs;
  } else {
    r.slices = plan.numSlices();
    r.sliceSize = plan.sliceSize;
  }
  if (counting) {
    r.counts.resize(SMC_STATS_WORDS(dev.numSMs));
    cudaError_t err = cudaStreamSynchronize(stream);
    if (err == cudaSuccess)
      err = cudaMemcpyAsync(r.counts.data(), dev.statsBlock, statsBytes,
                            cudaMemcpyDeviceToHost, dev.stream);
    if (err == cudaSuccess)
      err = cudaStreamSynchronize(dev.stream);
    if (err != cudaSuccess) {
      r.error = "statistics not collected: " +
                failed("reading the statistics block", err);
      r.counts.clear();
    }
  }
  stats::record(r, dev.name);
  return cudaSuccess;
}

} // namespace smc
