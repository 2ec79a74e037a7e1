//===- TailRoles.cu - smc_tail_bench's two sides as two processes ---------===//
//
// smc_tail_bench --role best-effort|urgent --gate DIR: one side of the tail
// benchmark in a process of its own, for runs across processes (under MPS:
// bench/corun/run_tail_mps.py starts both).  The policies come from
// SMC_POLICY (and SMC_TENANTS), not from the benchmark.  The processes
// meet through files in DIR:
//
//   best effort  sets up, writes DIR/be-ready, waits for DIR/go; launches
//                its grids back to back (at most --depth queued) until
//                DIR/stop appears or --seconds have passed; prints
//                {"ctas_per_second": X}
//   urgent       sets up (its time alone, measured before DIR/go), writes
//                DIR/go, lets the best effort run 300 ms, makes --arrivals
//                arrivals on the highest-priority stream, writes DIR/stop;
//                prints the percentiles as one JSON object
//===----------------------------------------------------------------------===//
#include "TailBench.h"

#include "smc/smc.h"

#include <cstdio>
#include <fstream>
#include <sys/stat.h>
#include <thread>

namespace smc::tail {
namespace {

bool exists(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0;
}

void touch(const std::string &Path) { std::ofstream(Path).put('\n'); }

bool waitFor(const std::string &Path, double Seconds) {
  auto Until = Clock::now() + std::chrono::duration<double>(Seconds);
  while (!exists(Path))
    if (Clock::now() > Until)
      return false;
    else
      std::this_thread::sleep_for(std::chrono::microseconds(200));
  return true;
}

int bestEffort(const Options &O) {
  if (O.Kinds.size() != 1 || O.CtaUs.size() != 1) {
    std::fprintf(stderr, "smc_tail_bench --role best-effort: give one --kinds "
                         "and one --cta-us\n");
    return 2;
  }
  Bench B;
  cudaDeviceProp Prop;
  int Least = 0, Greatest = 0;
  if (cudaGetDeviceProperties(&Prop, 0) != cudaSuccess ||
      cudaDeviceGetStreamPriorityRange(&Least, &Greatest) != cudaSuccess ||
      cudaStreamCreateWithPriority(&B.Low, cudaStreamNonBlocking, Least) !=
          cudaSuccess ||
      cudaMalloc(&B.Sink, 1 << 20) != cudaSuccess ||
      cudaMalloc(&B.Big, B.BigWords * sizeof(float4)) != cudaSuccess ||
      cudaMemset(B.Big, 0, B.BigWords * sizeof(float4)) != cudaSuccess)
    return 3;
  B.Sms = Prop.multiProcessorCount;
  const std::string &Kind = O.Kinds[0];
  unsigned CtaUs = O.CtaUs[0];
  if (Kind == "fma") {
    // Sized with the original under every SMC_POLICY: the same work per
    // CTA in every mode, or throughputs would not compare.
    smc::setPolicy("tailFma", smc::Policy::original());
    B.fmaIterations(CtaUs);
    smc::clearPolicies();
  }
  cudaDeviceSynchronize();
  touch(O.Gate + "/be-ready");
  if (!waitFor(O.Gate + "/go", 120))
    return 4;
  std::vector<cudaEvent_t> Ring(O.Depth);
  for (cudaEvent_t &E : Ring)
    cudaEventCreateWithFlags(&E, cudaEventDisableTiming);
  auto Start = Clock::now();
  unsigned long long Launched = 0;
  for (;; ++Launched) {
    if (O.Seconds > 0
            ? std::chrono::duration<double>(Clock::now() - Start).count() >
                  O.Seconds
            : exists(O.Gate + "/stop"))
      break;
    cudaEvent_t E = Ring[Launched % Ring.size()];
    if (Launched >= Ring.size())
      cudaEventSynchronize(E);
    B.launchBestEffort(B.Low, Kind, CtaUs);
    cudaEventRecord(E, B.Low);
  }
  cudaStreamSynchronize(B.Low);
  double Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  if (cudaGetLastError() != cudaSuccess)
    return 5;
  std::printf("{\"ctas_per_second\": %.1f}\n",
              double(Launched) * B.Sms * 64 / Seconds);
  return 0;
}

int urgent(const Options &O) {
  Bench B;
  std::vector<Arrival> Alone;
  B.setUp(O, Alone);
  touch(O.Gate + "/go");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::vector<Arrival> Arrivals = B.arrivals(B.High, O.Arrivals);
  touch(O.Gate + "/stop");
  auto Field = [&](const char *Name, double Arrival::*F) {
    std::printf(", \"%s_p50\": %.4f, \"%s_p99\": %.4f, \"%s_p999\": %.4f", Name,
                percentile(Arrivals, F, 0.5), Name,
                percentile(Arrivals, F, 0.99), Name,
                percentile(Arrivals, F, 0.999));
  };
  std::printf("{\"urgent_alone_us\": %.2f", B.UrgentAloneMs * 1e3);
  Field("latency", &Arrival::Latency);
  Field("submit_us", &Arrival::Submit);
  Field("queue_us", &Arrival::Queue);
  Field("run_us", &Arrival::Run);
  if (O.PerArrival) { // every arrival's latency over alone, in order
    std::printf(", \"latencies\": [");
    for (size_t I = 0; I < Arrivals.size(); ++I)
      std::printf("%s%.4f", I ? ", " : "", Arrivals[I].Latency);
    std::printf("]");
  }
  std::printf("}\n");
  return 0;
}

} // namespace

int runRole(const Options &O) {
  if (O.Gate.empty()) {
    std::fprintf(stderr, "smc_tail_bench --role: give --gate DIR\n");
    return 2;
  }
  if (O.Role == "best-effort")
    return bestEffort(O);
  if (O.Role == "urgent")
    return urgent(O);
  std::fprintf(stderr, "smc_tail_bench: --role is best-effort or urgent\n");
  return 2;
}

} // namespace smc::tail
