//===- qos.cu - An urgent kernel arriving during a long one ---------------===//
//
// smc_qos_bench measures what live SM partitions buy an urgent kernel: a
// short kernel arrives while a long best-effort kernel (CTAs of about
// 100 us: a chain of FMAs calibrated at start, or with --long-kernel spin a
// %globaltimer spin) holds the whole GPU.  Its latency (from its launch to its
// end, CUDA events on its stream) and the long kernel's time are measured
// under:
//
//   alone       each kernel by itself, the original (the reference times)
//   streams     the originals on two plain streams
//   priority    the urgent original on a high-priority stream
//   smc-long-alone  the long kernel's SM-centric variant by itself
//   smc-long-alone/w=N  the same with N workers per SM (--long-workers N,...:
//               how the variant's time depends on the workers per SM)
//   smc-live    both SM-centric; on arrival smc::setStreamSMs takes the last
//               K SMs from the long kernel's stream (its workers there leave
//               at their next chunk boundary) and gives them to the urgent
//               kernel's stream; then gives them back (the runtime adds
//               workers to the running long kernel for them: grow-back)
//   smc-slots   both SM-centric; on arrival smc::setStreamSMs lowers the long
//               kernel's workers per SM by two on every SM (the first two of
//               its workers there to end a chunk leave) and the urgent kernel
//               gets two workers on each of K SMs; then the target goes back
//               (grow-back adds two workers per SM again)
//   smc-headroom    the long kernel's SM-centric variant with one worker per
//               SM fewer than fit (smc(workers=fit-1)) from its start, so
//               every SM keeps a free slot; the urgent original on a plain
//               stream; nothing is changed on arrival
//   smc-headroom/urgent-smc  the same with the urgent kernel's SM-centric
//               variant
//   smc-priority    both SM-centric, no partition: the long kernel on the
//               low-priority stream, the urgent kernel on the high-priority
//               one; the runtime takes the SMs the urgent kernel needs from
//               the long kernel (its workers there leave at their next chunk
//               boundary) and gives them back after it (smc::PriorityMode)
//   smc-priority/urgent-original  the same with the urgent kernel's original
//   smc-priority/off  the same under smc::PriorityMode::Off: the long
//               kernel does not yield (what stream priorities alone give
//               persistent workers)
//   smc-priority/marked  as smc-priority, the urgent kernel on a plain
//               stream, marked urgent by its policy (Policy::urgent)
//   smc-static  static SM sets by policy, set before the long kernel
//               starts: the long kernel's variant on every SM but the last
//               K, the urgent kernel's on those K (smc(sms=...)), both on
//               plain streams
//   slice-streams   the long kernel in slices of one wave (smc::Policy::
//               slice, as many CTAs as fit on the GPU at once: Kernelet's
//               slicing), the urgent original on a plain stream, which the
//               hardware may start between two slices
//   slice-priority  the same with the urgent original on the high-priority
//               stream
//   with --headroom-probe also smc-headroom/urgent-smc/h=2 (two free slots
//               per SM) and smc-headroom/urgent-smc/t=64 (urgent CTAs of 64
//               threads): which resources the urgent variant waits for
//
// Modes are interleaved within each repetition; the output is one JSON
// object with per-mode medians and ratios to the alone times, and the device.
//
// With --trace DIR, streams, priority, smc-live and smc-priority run once
// more with kernels that record each chunk's SM, start and end
// (%globaltimer), written to DIR/trace-<mode>.csv; scripts/plot_timeline.py
// draws them (per SM, which kernel ran when).
//
//   smc_qos_bench [--reps N] [--urgent-sms K] [--long-workers N,...]
//                 [--long-kernel fma|spin] [--long-cta-us N] [--headroom-probe]
//                 [--out FILE] [--trace DIR] [--modes M,...]
//   --modes M,...    only these modes (and alone); e.g. under SMC_TRACE
//                 (docs/observe.md, "SMC_TRACE")
//   --long-cta-us N  the long kernel's CTAs last N us (default 100), in as
//                 many waves as make about 4 ms (at least 40)
//===----------------------------------------------------------------------===//
#include "BenchCuda.h"
#include "CoRunPlan.h"
#include "CoRunReport.h"
#include "base/Text.h"
#include "smc/smc.h"

#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

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

// --trace: per chunk (original CTA), its SM and its start and end
// (%globaltimer, ns).
struct ChunkTrace {
  unsigned long long Begin, End;
  unsigned Sm, Pad;
};

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

// Two chains of Iterations dependent FMAs per thread: a compute-bound CTA
// whose length the benchmark calibrates.
__device__ __forceinline__ void fmaChunk(int Iterations, float *Sink) {
  float X = threadIdx.x * 1e-3f, Y = X + 1.0f;
#pragma unroll 4
  for (int I = 0; I < Iterations; ++I) {
    X = fmaf(X, 0.9999f, 0.5f);
    Y = fmaf(Y, 0.9998f, 0.25f);
  }
  __syncthreads();
  if (X + Y == 12345.0f) // never true; keeps the chains
    Sink[blockIdx.x] = X;
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

namespace {

using smc::corun::elapsedMs;
using smc::corun::median;
using smc::corun::smRange;

constexpr unsigned long long UrgentChunkNs = 5000; // 5 us CTAs
constexpr unsigned Threads = 128;

struct Setup {
  // --modes: only these modes run (and alone, which every ratio needs).
  std::vector<std::string> OnlyModes;
  bool Spin = false;        // the long kernel: spinChunks, else fmaChunks
  int FmaIterations = 4096; // calibrated to LongChunkNs in measure()
  // The long kernel's CTAs (--long-cta-us, default 100 us), and its waves
  // at full width: about 4 ms in all, at least 40 waves.
  unsigned long long LongChunkNs = 100000;
  unsigned Waves = 40;
  float *Sink = nullptr;
  unsigned Sms = 0;
  unsigned UrgentSms = 16;
  unsigned LongCtas = 0;
  unsigned LongWorkersPerSM = 0; // the long kernel's CTAs that fit on an SM
  unsigned UrgentCtas = 0;
  double LongAloneMs = 0; // measured in the warm-up
  // The host time of the last urgent kernel's launch call (the runtime's
  // work for it: taking SMs, the launch, giving them back), in us.
  double UrgentHostUs = 0;
  // --trace: the traced kernels run, writing here (device memory).
  ChunkTrace *LongTrace = nullptr, *UrgentTrace = nullptr;
  cudaStream_t Low = nullptr, High = nullptr, Plain = nullptr;
  cudaEvent_t UrgentBegin, UrgentEnd, LongBegin, LongEnd;
};

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

struct Sample {
  double UrgentMs = 0, LongMs = 0;
};

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

// --trace: runs each of TraceModes once more with the traced kernels and
// writes Dir/trace-<mode>.csv: one line per chunk, "kernel,chunk,sm,
// begin_us,end_us" (kernel L: long, U: urgent; times from the long
// kernel's first chunk start), for scripts/plot_timeline.py.
const std::vector<std::string> TraceModes = {"streams", "priority", "smc-live",
                                             "smc-priority"};

void writeTraces(Setup &S, const std::string &Dir) {
  std::vector<ChunkTrace> Long(S.LongCtas), Urgent(S.UrgentCtas);
  SMC_CUDA_CHECK(cudaMalloc(&S.LongTrace, Long.size() * sizeof(ChunkTrace)));
  SMC_CUDA_CHECK(
      cudaMalloc(&S.UrgentTrace, Urgent.size() * sizeof(ChunkTrace)));
  for (const std::string &Mode : TraceModes) {
    runMode(S, Mode); // warm-up of the traced kernels
    runMode(S, Mode);
    SMC_CUDA_CHECK(cudaMemcpy(Long.data(), S.LongTrace,
                              Long.size() * sizeof(ChunkTrace),
                              cudaMemcpyDeviceToHost));
    SMC_CUDA_CHECK(cudaMemcpy(Urgent.data(), S.UrgentTrace,
                              Urgent.size() * sizeof(ChunkTrace),
                              cudaMemcpyDeviceToHost));
    unsigned long long Zero = ~0ull;
    for (const ChunkTrace &T : Long)
      Zero = std::min(Zero, T.Begin);
    std::ofstream Out(Dir + "/trace-" + Mode + ".csv");
    Out << "kernel,chunk,sm,begin_us,end_us\n";
    auto Write = [&](const char *Kernel, const std::vector<ChunkTrace> &V) {
      for (size_t C = 0; C < V.size(); ++C)
        Out << Kernel << ',' << C << ',' << V[C].Sm << ','
            << (double(V[C].Begin) - double(Zero)) / 1e3 << ','
            << (double(V[C].End) - double(Zero)) / 1e3 << '\n';
    };
    Write("L", Long);
    Write("U", Urgent);
    std::printf("trace of %s in %s/trace-%s.csv\n", Mode.c_str(), Dir.c_str(),
                Mode.c_str());
  }
  SMC_CUDA_CHECK(cudaFree(S.LongTrace));
  SMC_CUDA_CHECK(cudaFree(S.UrgentTrace));
  S.LongTrace = S.UrgentTrace = nullptr;
}

// Runs every mode Reps times (plus those of LongWorkers), prints the table
// and writes OutFile.
int measure(Setup &S, const cudaDeviceProp &Prop, int Reps,
            const std::string &OutFile, const std::string &LongWorkers,
            bool HeadroomProbe, const std::string &TraceDir) {
  // The long kernel: as many CTAs of 128 threads per SM as fit (16 on
  // Hopper), Waves waves of LongChunkNs at full width (~4 ms); the urgent
  // kernel: 2 CTAs per SM of its share, 5 us each.
  int Fit = 0;
  SMC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &Fit, S.Spin ? (const void *)spinChunks : (const void *)fmaChunks,
      Threads, 0));
  S.LongWorkersPerSM = unsigned(Fit);
  S.Waves = std::max(40u, unsigned(4000000 / S.LongChunkNs));
  S.LongCtas = S.LongWorkersPerSM * S.Sms * S.Waves;
  S.UrgentCtas = 2 * S.UrgentSms;
  SMC_CUDA_CHECK(cudaMalloc(&S.Sink, S.LongCtas * sizeof(float)));
  smc::corun::PriorityStreams Priority = smc::corun::createPriorityStreams();
  S.Low = Priority.Low;
  S.High = Priority.High;
  SMC_CUDA_CHECK(cudaStreamCreateWithFlags(&S.Plain, cudaStreamNonBlocking));
  for (cudaEvent_t *E :
       {&S.UrgentBegin, &S.UrgentEnd, &S.LongBegin, &S.LongEnd})
    SMC_CUDA_CHECK(cudaEventCreate(E));

  std::vector<std::string> Modes = {"alone",
                                    "streams",
                                    "priority",
                                    "smc-live",
                                    "smc-slots",
                                    "smc-headroom",
                                    "smc-headroom/urgent-smc",
                                    "smc-priority",
                                    "smc-priority/urgent-original",
                                    "smc-priority/off",
                                    "smc-priority/marked",
                                    "smc-static",
                                    "slice-streams",
                                    "slice-priority",
                                    "smc-long-alone"};
  // The long kernel alone at the headroom modes' workers per SM.
  if (S.LongWorkersPerSM > 1)
    Modes.push_back("smc-long-alone/w=" +
                    std::to_string(S.LongWorkersPerSM - 1));
  if (HeadroomProbe)
    for (const char *Probe :
         {"smc-headroom/urgent-smc/h=2", "smc-headroom/urgent-smc/t=64"})
      Modes.push_back(Probe);
  if (!LongWorkers.empty())
    for (const std::string &Workers : smc::split(LongWorkers, ','))
      if (std::find(Modes.begin(), Modes.end(),
                    "smc-long-alone/w=" + Workers) == Modes.end())
        Modes.push_back("smc-long-alone/w=" + Workers);
  if (!S.OnlyModes.empty()) {
    for (const std::string &Mode : S.OnlyModes)
      if (std::find(Modes.begin(), Modes.end(), Mode) == Modes.end()) {
        std::fprintf(stderr, "smc_qos_bench: --modes: no mode '%s'\n",
                     Mode.c_str());
        return 2;
      }
    Modes.erase(std::remove_if(Modes.begin(), Modes.end(),
                               [&](const std::string &Mode) {
                                 return Mode != "alone" &&
                                        std::find(S.OnlyModes.begin(),
                                                  S.OnlyModes.end(),
                                                  Mode) == S.OnlyModes.end();
                               }),
                Modes.end());
  }
  if (!S.Spin) { // scale the FMA chains to Waves waves of LongChunkNs
    runMode(S, "alone");
    double Ms = runMode(S, "alone").LongMs;
    S.FmaIterations = std::max(
        1, int(S.FmaIterations * (S.Waves * S.LongChunkNs / 1e6) / Ms));
  }
  S.LongAloneMs = runMode(S, "alone").LongMs;
  for (const std::string &Mode : Modes) // warm-up: modules, plans
    runMode(S, Mode);
  std::map<std::string, std::vector<double>> Urgent, Long, UrgentHost;
  for (int R = 0; R < Reps; ++R)
    for (const std::string &Mode : Modes) {
      S.UrgentHostUs = 0;
      Sample X = runMode(S, Mode);
      Urgent[Mode].push_back(X.UrgentMs);
      Long[Mode].push_back(X.LongMs);
      UrgentHost[Mode].push_back(S.UrgentHostUs);
    }

  nlohmann::json J;
  J["device"] = Prop.name;
  J["sms"] = S.Sms;
  J["urgent_sms"] = S.UrgentSms;
  J["reps"] = Reps;
  J["long_kernel"] = {{"kind", S.Spin ? "spin" : "fma"},
                      {"ctas", S.LongCtas},
                      {"cta_us", S.LongAloneMs * 1000 / S.Waves},
                      {"waves", S.Waves},
                      {"fma_iterations", S.Spin ? 0 : S.FmaIterations}};
  J["urgent_kernel"] = {{"ctas", S.UrgentCtas},
                        {"cta_us", UrgentChunkNs / 1000}};
  for (const std::string &Mode : Modes) // no urgent kernel in these modes
    if (Mode.compare(0, 14, "smc-long-alone") == 0)
      Urgent[Mode] = Urgent["alone"];
  double UrgentAlone = median(Urgent["alone"]);
  double LongAlone = median(Long["alone"]);
  for (const std::string &Mode : Modes) {
    double U = median(Urgent[Mode]), L = median(Long[Mode]);
    double H = median(UrgentHost[Mode]);
    J["modes"][Mode] = {{"urgent_ms", U},
                        {"long_ms", L},
                        {"urgent_slowdown", U / UrgentAlone},
                        {"long_slowdown", L / LongAlone},
                        {"urgent_launch_host_us", H}};
    std::printf("%-9s urgent %8.3f ms (%5.2fx alone)  long %8.3f ms (%5.3fx "
                "alone)  urgent launch call %6.1f us\n",
                Mode.c_str(), U, U / UrgentAlone, L, L / LongAlone, H);
  }
  if (!OutFile.empty())
    std::ofstream(OutFile) << J.dump(2) << "\n";
  if (!TraceDir.empty())
    writeTraces(S, TraceDir);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  int Reps = 15;
  std::string OutFile, LongWorkers, TraceDir;
  bool HeadroomProbe = false;
  Setup S;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--reps") && I + 1 < Argc)
      Reps = std::atoi(Argv[++I]);
    else if (!std::strcmp(Argv[I], "--urgent-sms") && I + 1 < Argc)
      S.UrgentSms = unsigned(std::atoi(Argv[++I]));
    else if (!std::strcmp(Argv[I], "--long-workers") && I + 1 < Argc)
      LongWorkers = Argv[++I];
    else if (!std::strcmp(Argv[I], "--long-cta-us") && I + 1 < Argc &&
             std::atoi(Argv[I + 1]) > 0)
      S.LongChunkNs = 1000ull * unsigned(std::atoi(Argv[++I]));
    else if (!std::strcmp(Argv[I], "--headroom-probe"))
      HeadroomProbe = true;
    else if (!std::strcmp(Argv[I], "--long-kernel") && I + 1 < Argc &&
             (!std::strcmp(Argv[I + 1], "fma") ||
              !std::strcmp(Argv[I + 1], "spin")))
      S.Spin = !std::strcmp(Argv[++I], "spin");
    else if (!std::strcmp(Argv[I], "--out") && I + 1 < Argc)
      OutFile = Argv[++I];
    else if (!std::strcmp(Argv[I], "--trace") && I + 1 < Argc)
      TraceDir = Argv[++I];
    else if (!std::strcmp(Argv[I], "--modes") && I + 1 < Argc)
      S.OnlyModes = smc::split(Argv[++I], ',');
    else {
      std::fprintf(stderr, "usage: smc_qos_bench [--reps N] [--urgent-sms K] "
                           "[--long-workers N,...] [--long-kernel fma|spin] "
                           "[--long-cta-us N] [--headroom-probe] [--out FILE] "
                           "[--trace DIR] [--modes M,...]\n");
      return 2;
    }
  }
  if (!TraceDir.empty() && S.Spin) {
    std::fprintf(stderr, "smc_qos_bench: --trace traces the fma long kernel "
                         "only\n");
    return 2;
  }
  cudaDeviceProp Prop;
  if (cudaGetDeviceProperties(&Prop, 0) != cudaSuccess) {
    std::fprintf(stderr, "smc_qos_bench: no CUDA GPU\n");
    return 77;
  }
  S.Sms = unsigned(Prop.multiProcessorCount);
  if (S.UrgentSms == 0 || S.UrgentSms >= S.Sms) {
    std::fprintf(stderr, "smc_qos_bench: --urgent-sms must be in 1..%u\n",
                 S.Sms - 1);
    return 2;
  }
  try {
    return measure(S, Prop, Reps, OutFile, LongWorkers, HeadroomProbe,
                   TraceDir);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "smc_qos_bench: %s\n", E.what());
    return 1;
  }
}
