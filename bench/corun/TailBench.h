//===- TailBench.h - smc_tail_bench's kernels, modes and one run -*- C++
//-*-===//
//
// smc_tail_bench (tail.cu) measures an urgent kernel's latency, arrival by
// arrival, while best-effort grids hold the GPU.  This header is what its
// main() drives: the options, the GPU state (Bench), and run(), which
// makes one mode's arrivals beside one kind of best effort.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_TAILBENCH_H
#define SMC_BENCH_CORUN_TAILBENCH_H

#include "GreenContexts.h"

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace smc::tail {

using Clock = std::chrono::steady_clock;

// The modes, in the order they run for each configuration.
inline const std::vector<std::string> &allModes() {
  static const std::vector<std::string> Modes{
      "streams",           "priority",           "smc-priority",
      "smc-headroom",      "smc-headroom-yield", "smc-reserve",
      "reserve-originals", "smc-target",         "green"};
  return Modes;
}

struct Options {
  std::vector<std::string> Kinds{"spin", "sleep", "stream", "fma"};
  std::vector<unsigned> CtaUs{10, 50, 200};
  std::vector<std::string> Modes = allModes();
  unsigned Arrivals = 300;
  unsigned Depth = 4;       // best-effort grids queued at most
  unsigned GreenSms = 16;   // the urgent kernel's green context
  unsigned Headroom = 2;    // best-effort workers per SM left out
  std::string P99 = "1.5x"; // smc-target's target (the p99 option's value)
  bool PerArrival = false;  // --per-arrival: every arrival in the JSON
  int FmaIterations = 0;    // --fma-iterations: tailFma's loop (0: sized)
  std::string Json;
  // One side of a run across processes (TailRoles.cu): "urgent" or
  // "best-effort", meeting through files in Gate; policies from SMC_POLICY.
  std::string Role, Gate;
  double Seconds = 0; // best-effort: run this long after the gate opens
};

// The GPU's %globaltimer against the host's steady clock.
struct ClockSync {
  long long Offset = 0; // globaltimer - host, ns
  long long toGpu(Clock::time_point T) const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               T.time_since_epoch())
               .count() +
           Offset;
  }
};

// One urgent arrival: latency over alone (events), the host's launch call
// (us), call to first CTA start (us), first CTA start to last CTA end (us);
// the SMs its CTAs ran on, and the most of them on one SM.
struct Arrival {
  double Latency = 0, Submit = 0, Queue = 0, Run = 0;
  double Sms = 0, MostPerSm = 0;
  // The best-effort grids launched before it, and the seconds since the
  // mode's start: the best effort's throughput between two arrivals.
  double Grids = 0, Seconds = 0;
};

// A stream with the events that time its urgent launches (made in the
// stream's context: a green context's stream needs its own).
struct UrgentStream {
  cudaStream_t Stream = nullptr;
  cudaEvent_t Start = nullptr, End = nullptr;
};

// SMs counted by the urgent kernel's PerSm (more than any GPU has).
constexpr unsigned MaxSms = 256;

struct Bench {
  int Sms = 0;
  cudaStream_t Low = nullptr;
  UrgentStream Plain, High;
  float *Sink = nullptr;
  float4 *Big = nullptr;
  size_t BigWords = size_t(1) << 26; // 1 GiB
  unsigned long long *Stamps = nullptr, *ClockWord = nullptr;
  unsigned *PerSm = nullptr;
  int UrgentIterations = 0;
  double UrgentAloneMs = 0;
  unsigned Depth = 4;
  ClockSync Sync;
  corun::GreenContexts Green;
  unsigned GreenSms = 16, Headroom = 2;
  std::string P99 = "1.5x";
  // While a mode runs: its best-effort grids launched, and its start.
  const std::atomic<unsigned long long> *Launched = nullptr;
  Clock::time_point ModeStart;

  // Streams, buffers, the clock calibration and the urgent kernel sized
  // to about 56 us alone; its arrivals alone in Alone.
  void setUp(const Options &O, std::vector<Arrival> &Alone);
  void launchBestEffort(cudaStream_t Stream, const std::string &Kind,
                        unsigned CtaUs);
  Arrival urgent(const UrgentStream &S);
  // N urgent arrivals on S, 1-3 ms apart (jittered, alike in every run).
  std::vector<Arrival> arrivals(const UrgentStream &S, unsigned N);
  // tailFma's iterations for CTAs of about CtaUs.
  int fmaIterations(unsigned CtaUs);
  std::map<unsigned, int> FmaIterations;
  int FixedFmaIterations = 0; // --fma-iterations
};

struct Result {
  std::string Mode, Kind;
  unsigned CtaUs = 0;
  std::vector<Arrival> Arrivals;
  double CtasPerSecond = 0;
  double CtasPerGrid = 0;
  std::string Skipped; // why the mode could not run, if it could not
};

// Mode's arrivals (none: the best effort alone for half a second) beside
// back-to-back best-effort grids of Kind.
Result run(Bench &B, const std::string &Mode, const std::string &Kind,
           unsigned CtaUs, unsigned Arrivals);

// The P-quantile of one field of Arrivals.
double percentile(const std::vector<Arrival> &Arrivals, double Arrival::*Field,
                  double P);

// The urgent or best-effort side of a run across processes (--role); the
// exit status.
int runRole(const Options &O);

// Runs Make with Stream's context current (events made then belong to it).
bool inContextOf(cudaStream_t Stream, void (*Make)(void *), void *State,
                 std::string &Error);

} // namespace smc::tail

#endif // SMC_BENCH_CORUN_TAILBENCH_H
