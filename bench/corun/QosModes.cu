//===- QosModes.cu - smc_qos_bench's kernels and modes --------------------===//
//
// The kernels of smc_qos_bench (qos.cu): the long kernel (a chain of FMAs
// or a %globaltimer spin per CTA), the urgent kernel, their traced forms
// (--trace), and how each mode launches them: the streams, policies and SM
// sets it sets before and on the urgent kernel's arrival.
//===----------------------------------------------------------------------===//
#include "BenchCuda.h"
#include "CoRunPlan.h"
#include "FmaChunk.cuh"
#include "QosBench.h"
#include "smc/smc.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

// A spin of Nanoseconds of %globaltimer.
__device__ __forceinline__ void spinChunk(unsigned long long Nanoseconds) {
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  while (__nvvm_read_ptx_sreg_globaltimer() - Begin < Nanoseconds) {
  }
  __syncthreads();
}

// Each CTA spins for Nanoseconds of %globaltimer.  Every warp of every CTA
// issues without a stall, which starves the SM-centric variant's hand-off
// between chunks (see docs/partitions.md).
__global__ void spinChunks(unsigned long long Nanoseconds) {
  spinChunk(Nanoseconds);
}

__device__ void traceBegin(ChunkTrace *Trace) {
  if (threadIdx.x == 0) {
    ChunkTrace &T = Trace[blockIdx.x];
    T.Sm = __nvvm_read_ptx_sreg_smid();
    T.Begin = __nvvm_read_ptx_sreg_globaltimer();
  }
}

__device__ void traceEnd(ChunkTrace *Trace) {
  if (threadIdx.x == 0)
    Trace[blockIdx.x].End = __nvvm_read_ptx_sreg_globaltimer();
}

__global__ void fmaChunks(int Iterations, float *Sink) {
  fmaChunk(Iterations, Sink);
}

// The urgent kernel: a different symbol, so that it has its own policy.
__global__ void urgentChunks(unsigned long long Nanoseconds) {
  spinChunk(Nanoseconds);
}

// fmaChunks and urgentChunks with a trace (--trace), as kernels of their
// own so that the timed ones stay as they are.
__global__ void fmaChunksTraced(int Iterations, float *Sink,
                                ChunkTrace *Trace) {
  traceBegin(Trace);
  fmaChunk(Iterations, Sink);
  traceEnd(Trace);
}

__global__ void urgentChunksTraced(unsigned long long Nanoseconds,
                                   ChunkTrace *Trace) {
  traceBegin(Trace);
  spinChunk(Nanoseconds);
  traceEnd(Trace);
}

namespace smc::qos {
namespace {

using smc::corun::elapsedMs;
using smc::corun::smRange;

void launchLong(Setup &S, cudaStream_t Stream) {
  SMC_CUDA_CHECK(cudaEventRecord(S.LongBegin, Stream));
  if (S.LongTrace)
    fmaChunksTraced<<<S.LongCtas, Threads, 0, Stream>>>(S.FmaIterations, S.Sink,
                                                        S.LongTrace);
  else if (S.Spin)
    spinChunks<<<S.LongCtas, Threads, 0, Stream>>>(S.LongChunkNs);
  else
    fmaChunks<<<S.LongCtas, Threads, 0, Stream>>>(S.FmaIterations, S.Sink);
  SMC_CUDA_CHECK(cudaGetLastError());
  SMC_CUDA_CHECK(cudaEventRecord(S.LongEnd, Stream));
}

void launchUrgent(Setup &S, cudaStream_t Stream, unsigned Block = Threads) {
  SMC_CUDA_CHECK(cudaEventRecord(S.UrgentBegin, Stream));
  auto Begin = std::chrono::steady_clock::now();
  if (S.UrgentTrace)
    urgentChunksTraced<<<S.UrgentCtas, Block, 0, Stream>>>(UrgentChunkNs,
                                                           S.UrgentTrace);
  else
    urgentChunks<<<S.UrgentCtas, Block, 0, Stream>>>(UrgentChunkNs);
  S.UrgentHostUs = std::chrono::duration<double, std::micro>(
                       std::chrono::steady_clock::now() - Begin)
                       .count();
  SMC_CUDA_CHECK(cudaGetLastError());
  SMC_CUDA_CHECK(cudaEventRecord(S.UrgentEnd, Stream));
}

// Waits a third of the long kernel's time alone (it holds every SM then).
// The host waits by the clock: a progress counter in host memory would
// put a PCIe atomic in every CTA of the long kernel.
void waitIntoLong(const Setup &S) {
  std::this_thread::sleep_for(
      std::chrono::microseconds(long(S.LongAloneMs * 1000 / 3)));
}

// The long kernel on the low-priority stream, the urgent one on `Urgent` a
// third into it (CTAs of `Block` threads), both waited for: their times.
Sample urgentDuringLong(Setup &S, cudaStream_t Urgent,
                        unsigned Block = Threads) {
  launchLong(S, S.Low);
  waitIntoLong(S);
  launchUrgent(S, Urgent, Block);
  SMC_CUDA_CHECK(cudaStreamSynchronize(Urgent));
  SMC_CUDA_CHECK(cudaStreamSynchronize(S.Low));
  Sample Out;
  Out.UrgentMs = elapsedMs(S.UrgentBegin, S.UrgentEnd);
  Out.LongMs = elapsedMs(S.LongBegin, S.LongEnd);
  return Out;
}

} // namespace

unsigned longWorkersPerSm(const Setup &S) {
  int Fit = 0;
  SMC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &Fit, S.Spin ? (const void *)spinChunks : (const void *)fmaChunks,
      Threads, 0));
  return unsigned(Fit);
}

Sample runMode(Setup &S, const std::string &Mode) {
  bool Smc = Mode.compare(0, 3, "smc") == 0;
  smc::setPolicy(spinChunks, Smc ? smc::Policy() : smc::Policy::original());
  smc::setPolicy(fmaChunks, Smc ? smc::Policy() : smc::Policy::original());
  smc::setPolicy(urgentChunks, Smc ? smc::Policy() : smc::Policy::original());
  smc::setPolicy(fmaChunksTraced,
                 Smc ? smc::Policy() : smc::Policy::original());
  smc::setPolicy(urgentChunksTraced,
                 Smc ? smc::Policy() : smc::Policy::original());
  Sample Out;
  // The long kernel's variant by itself, at N workers per SM after "/w=".
  if (Mode.compare(0, 14, "smc-long-alone") == 0) {
    std::string::size_type W = Mode.find("/w=");
    if (W != std::string::npos)
      for (const void *Long :
           {(const void *)spinChunks, (const void *)fmaChunks})
        smc::setPolicyForSymbol(Long, smc::Policy::smCentric(unsigned(
                                          std::atoi(Mode.c_str() + W + 3))));
    launchLong(S, S.Low);
    SMC_CUDA_CHECK(cudaStreamSynchronize(S.Low));
    Out.LongMs = elapsedMs(S.LongBegin, S.LongEnd);
    return Out;
  }
  // Headroom: the long kernel leaves H slots per SM free from its start
  // ("/h=H", default 1); "/t=N": the urgent kernel's CTAs have N threads.
  if (Mode.compare(0, 12, "smc-headroom") == 0) {
    auto Option = [&Mode](const char *Key, unsigned Default) {
      std::string::size_type At = Mode.find(Key);
      return At == std::string::npos
                 ? Default
                 : unsigned(std::atoi(Mode.c_str() + At + std::strlen(Key)));
    };
    unsigned Headroom = std::min(Option("/h=", 1), S.LongWorkersPerSM - 1);
    for (const void *Long : {(const void *)spinChunks, (const void *)fmaChunks})
      smc::setPolicyForSymbol(
          Long, smc::Policy::smCentric(S.LongWorkersPerSM - Headroom));
    if (Mode.find("/urgent-smc") == std::string::npos)
      smc::setPolicy(urgentChunks, smc::Policy::original());
    return urgentDuringLong(S, S.Plain, Option("/t=", Threads));
  }
  // Static SM sets by policy (SMC_POLICY's sms=), from before the long
  // kernel starts: the long kernel on every SM but the last K, the urgent
  // kernel on those K, both on streams of the least priority.
  if (Mode == "smc-static") {
    smc::Policy Rest =
        smc::Policy::smCentric(0, smRange(0, S.Sms - S.UrgentSms));
    smc::Policy Last =
        smc::Policy::smCentric(0, smRange(S.Sms - S.UrgentSms, S.UrgentSms));
    for (const void *Long : {(const void *)spinChunks, (const void *)fmaChunks})
      smc::setPolicyForSymbol(Long, Rest);
    smc::setPolicy(urgentChunks, Last);
    return urgentDuringLong(S, S.Plain);
  }
  // Stream priorities decide (no partition, nothing done on arrival);
  // "/marked": the urgent kernel's policy marks it urgent (Policy::urgent)
  // and it is launched on a plain stream.
  if (Mode.compare(0, 12, "smc-priority") == 0) {
    if (Mode.find("/urgent-original") != std::string::npos) {
      smc::setPolicy(urgentChunks, smc::Policy::original());
      smc::setPolicy(urgentChunksTraced, smc::Policy::original());
    }
    bool Marked = Mode.find("/marked") != std::string::npos;
    if (Marked) {
      smc::Policy Urgent;
      Urgent.urgent = true;
      smc::setPolicy(urgentChunks, Urgent);
      smc::setPolicy(urgentChunksTraced, Urgent);
    }
    bool Off = Mode.find("/off") != std::string::npos;
    if (Off)
      smc::setPriorityMode(smc::PriorityMode::Off);
    Sample Times = urgentDuringLong(S, Marked ? S.Plain : S.High);
    if (Off)
      smc::setPriorityMode(smc::PriorityMode::Auto);
    return Times;
  }
  if (Mode == "alone") {
    launchUrgent(S, S.Plain);
    SMC_CUDA_CHECK(cudaStreamSynchronize(S.Plain));
    Out.UrgentMs = elapsedMs(S.UrgentBegin, S.UrgentEnd);
    launchLong(S, S.Low);
    SMC_CUDA_CHECK(cudaStreamSynchronize(S.Low));
    Out.LongMs = elapsedMs(S.LongBegin, S.LongEnd);
    return Out;
  }
  // Slices of one wave each: the hardware may start the urgent kernel
  // between two of them.
  if (Mode.compare(0, 5, "slice") == 0) {
    smc::Policy Sliced = smc::Policy::slice(S.LongWorkersPerSM * S.Sms);
    smc::setPolicy(spinChunks, Sliced);
    smc::setPolicy(fmaChunks, Sliced);
  }
  cudaStream_t Urgent =
      Mode == "priority" || Mode == "slice-priority" ? S.High : S.Plain;
  bool Slots = Mode == "smc-slots";
  std::vector<unsigned> All = smRange(0, S.Sms);
  if (Smc) {
    smc::setStreamSMs(S.Low, All);
    if (Slots) // two workers on each of K SMs, as many as it has chunks
      smc::setStreamSMs(Urgent, smRange(0, S.UrgentSms), 2);
    else
      smc::setStreamSMs(Urgent, smRange(S.Sms - S.UrgentSms, S.UrgentSms));
  }
  launchLong(S, S.Low);
  waitIntoLong(S);
  if (Slots)
    smc::setStreamSMs(S.Low, All, S.LongWorkersPerSM - 2);
  else if (Smc)
    smc::setStreamSMs(S.Low, smRange(0, S.Sms - S.UrgentSms));
  launchUrgent(S, Urgent);
  SMC_CUDA_CHECK(cudaStreamSynchronize(Urgent));
  if (Smc)
    smc::setStreamSMs(S.Low, All);
  SMC_CUDA_CHECK(cudaStreamSynchronize(S.Low));
  Out.UrgentMs = elapsedMs(S.UrgentBegin, S.UrgentEnd);
  Out.LongMs = elapsedMs(S.LongBegin, S.LongEnd);
  if (Smc) {
    smc::clearStreamSMs(S.Low);
    smc::clearStreamSMs(Urgent);
  }
  return Out;
}

} // namespace smc::qos
