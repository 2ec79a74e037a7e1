//===- tail.cu - An urgent kernel's tail latency beside best-effort work --===//
//
// smc_tail_bench: where an urgent kernel's latency goes while best-effort
// kernels hold the GPU.  A best-effort thread launches grids of SMs x 64
// CTAs of 128 threads back to back (at most --depth queued), each CTA
// holding its place for --cta-us (10, 50, 200 us): spinning on
// %globaltimer, sleeping (__nanosleep: the place held, few issue slots
// taken), streaming through memory, or doing a fixed number of dependent
// FMAs (fma: work-bound, sized to last about --cta-us alone).  An urgent thread
// launches a compute-bound kernel (64 CTAs of 256 threads, dependent FMAs,
// about 56 us alone) at jittered arrivals (1-3 ms apart) and waits for each.
// For every arrival:
//
//   latency  CUDA events around the urgent launch (its stream), over the
//            urgent kernel's median alone;
//   submit   host time of the launch call;
//   queue    from the call to the urgent kernel's first CTA starting
//            (%globaltimer, put on the host clock by a calibration);
//   run      from its first CTA starting to its last CTA ending;
//   packed   whether two or more of its CTAs ran on one SM (%smid).
//
// The best effort's throughput (CTAs per second) is given over its own
// alone.  Modes, one after another for each configuration, in one process:
//
//   streams        the originals, both on streams of the same priority
//   priority       the originals, the urgent one on the highest priority
//   smc-priority   the best effort's SM-centric variant (it yields to the
//                  higher-priority stream), the urgent original on it
//   smc-headroom   the best effort as smc(workers=fit-2) (--headroom):
//                  room for an urgent CTA on every SM, no yielding
//                  (PriorityMode::Off); the urgent original on the high
//                  priority
//   smc-headroom-yield  the same, yielding as smc-priority
//   smc-reserve    the best effort's SM-centric variant, the urgent
//                  original of policy original(reserve) on the high
//                  priority: the runtime keeps room for it
//   reserve-originals  the originals, the urgent one of policy
//                  original(reserve): no room kept beside it
//   smc-target     the best effort's SM-centric variant, the urgent
//                  original with a p99 target (--p99: 1.5x by default,
//                  times its latency alone as measured here, or
//                  microseconds) on the high priority: the runtime takes
//                  SMs or keeps room, the cheaper that meets the target
//   green          the originals, the urgent one in a green context of
//                  --green-sms SMs, the best effort in one of the rest
//
// With --role, one side of a run across processes (TailRoles.cu).
//
// Output: a table and --json FILE (per configuration: percentiles, the
// device; with --per-arrival every arrival: latency, submit, queue, run,
// SMs, most CTAs on one SM, best-effort grids launched before it, seconds
// into the mode).
//===----------------------------------------------------------------------===//
#include "TailBench.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace {

using namespace smc::tail;

[[noreturn]] void usage(int Status) {
  std::fprintf(
      Status ? stderr : stdout,
      "usage: smc_tail_bench [--arrivals N] [--kinds spin,sleep,"
      "stream,fma] [--cta-us 10,50,200]\n"
      "         [--modes streams,priority,smc-priority,smc-headroom,"
      "smc-headroom-yield,\n"
      "                  smc-reserve,reserve-originals,smc-target,green]\n"
      "         [--depth N] [--headroom N] [--green-sms N] [--json FILE]"
      " [--per-arrival]\n"
      "         [--fma-iterations N] [--p99 1.5x|120us]\n"
      "       smc_tail_bench --role best-effort|urgent --gate DIR "
      "[--kinds K --cta-us N] [--seconds S]\n");
  std::exit(Status);
}

std::vector<std::string> split(const std::string &Text) {
  std::vector<std::string> Parts;
  size_t At = 0;
  while (At <= Text.size()) {
    size_t Comma = Text.find(',', At);
    if (Comma == std::string::npos)
      Comma = Text.size();
    if (Comma > At)
      Parts.push_back(Text.substr(At, Comma - At));
    At = Comma + 1;
  }
  return Parts;
}

unsigned positive(const std::string &Text) {
  char *End = nullptr;
  long V = std::strtol(Text.c_str(), &End, 10);
  if (End == Text.c_str() || *End || V < 1 || V > 1000000)
    usage(2);
  return unsigned(V);
}

Options parse(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&]() -> std::string {
      if (I + 1 >= Argc)
        usage(2);
      return Argv[++I];
    };
    if (A == "--help")
      usage(0);
    else if (A == "--arrivals")
      O.Arrivals = Value() == "0" ? 0 : positive(Argv[I]);
    else if (A == "--depth")
      O.Depth = positive(Value());
    else if (A == "--headroom")
      O.Headroom = positive(Value());
    else if (A == "--green-sms")
      O.GreenSms = positive(Value());
    else if (A == "--kinds")
      O.Kinds = split(Value());
    else if (A == "--modes")
      O.Modes = split(Value());
    else if (A == "--json")
      O.Json = Value();
    else if (A == "--role")
      O.Role = Value();
    else if (A == "--gate")
      O.Gate = Value();
    else if (A == "--seconds")
      O.Seconds = positive(Value());
    else if (A == "--fma-iterations")
      O.FmaIterations = int(positive(Value()));
    else if (A == "--p99") {
      O.P99 = Value();
      char *End = nullptr;
      bool Ratio = O.P99.size() > 1 && O.P99.back() == 'x';
      double N = std::strtod(O.P99.c_str(), &End);
      if (!(N > 0) || std::string(End) != (Ratio ? "x" : "us"))
        usage(2);
    } else if (A == "--per-arrival")
      O.PerArrival = true;
    else if (A == "--cta-us") {
      O.CtaUs.clear();
      for (const std::string &U : split(Value()))
        O.CtaUs.push_back(positive(U));
    } else
      usage(2);
  }
  for (const std::string &K : O.Kinds)
    if (K != "spin" && K != "sleep" && K != "stream" && K != "fma")
      usage(2);
  for (const std::string &M : O.Modes)
    if (std::find(allModes().begin(), allModes().end(), M) == allModes().end())
      usage(2);
  return O;
}

// The share of arrivals with two or more CTAs on one SM.
double packed(const std::vector<Arrival> &Arrivals) {
  size_t N = 0;
  for (const Arrival &A : Arrivals)
    N += A.MostPerSm > 1;
  return Arrivals.empty() ? 0 : double(N) / double(Arrivals.size());
}

void printRow(const char *Mode, const char *Kind, unsigned CtaUs,
              const std::vector<Arrival> &A, double Thru) {
  std::printf("%-18s %-6s %6u %7.2fx %7.2fx %7.2fx %7.1f %7.1f %7.1f %7.1f "
              "%7.1f %7.1f %6.1f%% %8.3fx\n",
              Mode, Kind, CtaUs, percentile(A, &Arrival::Latency, 0.5),
              percentile(A, &Arrival::Latency, 0.99),
              percentile(A, &Arrival::Latency, 0.999),
              percentile(A, &Arrival::Submit, 0.5),
              percentile(A, &Arrival::Submit, 0.99),
              percentile(A, &Arrival::Queue, 0.5),
              percentile(A, &Arrival::Queue, 0.99),
              percentile(A, &Arrival::Run, 0.5),
              percentile(A, &Arrival::Run, 0.99), 100 * packed(A), Thru);
  std::fflush(stdout);
}

void jsonRow(std::ofstream &Json, bool &First, const Result &R, double Thru,
             bool PerArrival) {
  auto Field = [&](const char *Name, double Arrival::*F) {
    Json << ", \"" << Name << "_p50\": " << percentile(R.Arrivals, F, 0.5)
         << ", \"" << Name << "_p99\": " << percentile(R.Arrivals, F, 0.99)
         << ", \"" << Name << "_p999\": " << percentile(R.Arrivals, F, 0.999);
  };
  Json << (First ? "\n" : ",\n") << "  {\"mode\": \"" << R.Mode
       << "\", \"kind\": \"" << R.Kind << "\", \"cta_us\": " << R.CtaUs
       << ", \"arrivals\": " << R.Arrivals.size();
  Field("latency", &Arrival::Latency);
  Field("submit_us", &Arrival::Submit);
  Field("queue_us", &Arrival::Queue);
  Field("run_us", &Arrival::Run);
  Field("sms", &Arrival::Sms);
  Field("most_per_sm", &Arrival::MostPerSm);
  Json << ", \"packed\": " << packed(R.Arrivals)
       << ", \"best_effort_throughput\": " << Thru
       << ", \"best_effort_ctas_per_s\": " << R.CtasPerSecond
       << ", \"ctas_per_grid\": " << R.CtasPerGrid;
  if (PerArrival) {
    Json << ", \"per_arrival\": [";
    for (size_t I = 0; I < R.Arrivals.size(); ++I) {
      const Arrival &A = R.Arrivals[I];
      Json << (I ? ", " : "") << "[" << A.Latency << ", " << A.Submit << ", "
           << A.Queue << ", " << A.Run << ", " << A.Sms << ", " << A.MostPerSm
           << ", " << A.Grids << ", " << A.Seconds << "]";
    }
    Json << "]";
  }
  Json << "}";
  First = false;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parse(Argc, Argv);
  if (!O.Role.empty())
    return runRole(O);
  Bench B;
  std::vector<Arrival> Alone;
  B.setUp(O, Alone);
  cudaDeviceProp Prop;
  cudaGetDeviceProperties(&Prop, 0);
  std::printf("%s, %d SMs; urgent kernel alone %.1f us (%d iterations); "
              "best effort queued at most %u deep\n",
              Prop.name, B.Sms, B.UrgentAloneMs * 1e3, B.UrgentIterations,
              O.Depth);
  if (!B.Green.available())
    std::printf("green contexts: %s\n", B.Green.reason().c_str());
  std::printf("%-18s %-6s %6s %8s %8s %8s %7s %7s %7s %7s %7s %7s %7s %9s\n",
              "mode", "kind", "cta_us", "p50", "p99", "p99.9", "sub50", "sub99",
              "que50", "que99", "run50", "run99", "packed", "be_thru");
  std::printf("%-18s %-6s %6s (latency over alone; submit, queue, run in "
              "us)\n",
              "", "", "");
  printRow("alone", "-", 0, Alone, 0);

  std::ofstream Json;
  bool First = true;
  if (!O.Json.empty()) {
    Json.open(O.Json);
    Json << "{\"device\": \"" << Prop.name
         << "\", \"urgent_alone_us\": " << B.UrgentAloneMs * 1e3
         << ", \"depth\": " << O.Depth << ", \"green_sms\": " << O.GreenSms
         << ", \"headroom\": " << O.Headroom << ", \"p99\": \"" << O.P99
         << "\", \"configs\": [";
    Result AloneResult;
    AloneResult.Mode = "alone";
    AloneResult.Kind = "-";
    AloneResult.Arrivals = Alone;
    jsonRow(Json, First, AloneResult, 0, O.PerArrival);
  }
  for (const std::string &Kind : O.Kinds)
    for (unsigned CtaUs : O.CtaUs) {
      // The best effort alone, each configuration's reference.
      double AloneThroughput = run(B, "streams", Kind, CtaUs, 0).CtasPerSecond;
      for (const std::string &Mode : O.Modes) {
        Result R = run(B, Mode, Kind, CtaUs, O.Arrivals);
        if (!R.Skipped.empty()) {
          std::printf("%-18s %-6s %6u skipped: %s\n", Mode.c_str(),
                      Kind.c_str(), CtaUs, R.Skipped.c_str());
          continue;
        }
        double Thru = R.CtasPerSecond / AloneThroughput;
        printRow(Mode.c_str(), Kind.c_str(), CtaUs, R.Arrivals, Thru);
        if (Json.is_open())
          jsonRow(Json, First, R, Thru, O.PerArrival);
      }
    }
  if (Json.is_open())
    Json << "\n]}\n";
  return 0;
}
