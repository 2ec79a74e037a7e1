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
//
// The kernels and the modes' launches: QosModes.cu.
//===----------------------------------------------------------------------===//
#include "BenchCuda.h"
#include "CoRunReport.h"
#include "QosBench.h"
#include "base/Text.h"

#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace smc::qos;

namespace {

using smc::corun::median;

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
  S.LongWorkersPerSM = longWorkersPerSm(S);
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
