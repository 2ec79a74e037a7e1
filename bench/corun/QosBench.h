//===- QosBench.h - The setup and modes of smc_qos_bench --------*- C++ -*-===//
//
// What smc_qos_bench (qos.cu, which describes the modes) shares between
// its files: the long and urgent kernels' setup, one sample of their
// times, and the run of one mode (QosModes.cu, with the kernels).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_QOSBENCH_H
#define SMC_BENCH_CORUN_QOSBENCH_H

#include <cuda_runtime.h>

#include <string>
#include <vector>

// --trace: per chunk (original CTA), its SM and its start and end
// (%globaltimer, ns).
struct ChunkTrace {
  unsigned long long Begin, End;
  unsigned Sm, Pad;
};

namespace smc::qos {

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

struct Sample {
  double UrgentMs = 0, LongMs = 0;
};

// The CTAs of the long kernel (of Threads threads) that fit on an SM.
unsigned longWorkersPerSm(const Setup &S);

// Runs Mode once (qos.cu lists the modes): the urgent kernel's latency and
// the long kernel's time.
Sample runMode(Setup &S, const std::string &Mode);

} // namespace smc::qos

#endif // SMC_BENCH_CORUN_QOSBENCH_H
