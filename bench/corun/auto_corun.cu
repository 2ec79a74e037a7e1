//===- auto_corun.cu - Policy auto against plain streams, measured --------===//
//
// smc_auto_bench measures what policy auto (the co-run scheduler on the
// launch path, runtime/corun/AutoLaunch.cpp) does for two tenants that share
// the GPU: two host threads, each with its own stream, each launching its
// kernel and waiting for it (a request loop), Launches times.  Pairs:
//
//   few+compute     32 long CTAs of FMA chains (scales to 32 SMs, no
//                   further) beside a compute-bound grid of 16 CTAs per SM
//   triad+compute   a memory-bound triad beside the compute-bound grid
//   compute+compute the compute-bound grid on both threads
//
// Modes, interleaved round by round in one process (medians of --rounds):
//
//   alone      each tenant's loop by itself, originals (T_alone)
//   smc-alone  each tenant's loop by itself, SM-centric variants (reported,
//              not used for STP)
//   streams    both loops at once, originals (what CUDA streams give)
//   smc        both loops at once, SM-centric variants on every SM
//   auto       both loops at once under policy auto, with the profiles of
//              --profile (recorded by scripts/smc-profile running this
//              program with --record), once the co-run's trials have
//              settled: before the rounds, the pair co-runs under policy
//              auto until every co-run trial it started has settled
//              (runtime/corun/CoRunTrials.h; at most 60 loops), and the JSON
//              records what each settled on and after how many loops
//
// T_corun is a tenant's loop time in a co-run (host clock); STP = sum of
// T_alone / T_corun, ANTT = mean of T_corun / T_alone.  Every kernel's
// result is checked after each co-run.  Timings are for the benchmark
// only; nothing here is a test condition.
//
// With --tenant NAME one tenant's loop runs in a process of its own (the
// originals), started by a gate file: bench/corun/run_mps.py runs two such
// processes under MPS with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE splits.
//
//   smc_auto_bench --record               (under scripts/smc-profile)
//   smc_auto_bench --profile FILE [--rounds N] [--launches N] [--out FILE]
//===----------------------------------------------------------------------===//
#include "CudaSupport.cuh"
#include "corun/AutoPolicy.h"
#include "smc/smc.h"

#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

// Each CTA runs Iterations dependent FMAs per thread and writes its result.
__global__ void fewCtas(float *Out, int Iterations) {
  float X = threadIdx.x * 1e-3f;
  for (int I = 0; I < Iterations; ++I)
    X = fmaf(X, 0.9999f, 0.5f);
  Out[blockIdx.x * blockDim.x + threadIdx.x] = X;
}

__global__ void computeGrid(float *Out, int Iterations) {
  float X = threadIdx.x * 1e-3f;
  for (int I = 0; I < Iterations; ++I)
    X = fmaf(X, 0.9999f, 0.5f);
  Out[blockIdx.x * blockDim.x + threadIdx.x] = X;
}

__global__ void triad(const float *A, const float *B, float *C, size_t N) {
  size_t I = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (I < N)
    C[I] = A[I] + 2.0f * B[I];
}

namespace {

using smc::workloads::DeviceBuffer;
using Clock = std::chrono::steady_clock;

constexpr unsigned Threads = 256;

// One tenant: its kernel, launched and waited for in a loop.
struct Tenant {
  std::string Name;
  std::function<void(cudaStream_t)> Launch;
  DeviceBuffer<float> *Output;
  std::function<bool()> Check; // Output holds the right result
};

constexpr int FewIterations = 400000;    // about 0.8 ms per CTA
constexpr int ComputeIterations = 50000; // 16 CTAs per SM: two waves

struct Kernels {
  unsigned Sms = 0;
  size_t TriadN = size_t(1) << 26;
  DeviceBuffer<float> FewOut, ComputeOut, ComputeOut2, A, B, C;
  // Each thread's chain result, per iteration count.
  std::map<int, std::vector<float>> Chains;

  void init(unsigned NumSms) {
    Sms = NumSms;
    FewOut.allocate(32 * Threads);
    ComputeOut.allocate(size_t(16) * Sms * Threads);
    ComputeOut2.allocate(size_t(16) * Sms * Threads);
    A.allocate(TriadN);
    B.allocate(TriadN);
    C.allocate(TriadN);
    std::vector<float> Ones(TriadN, 1.0f);
    A.upload(Ones);
    B.upload(Ones);
  }
  bool chainsRight(const DeviceBuffer<float> &Out, int Iterations) {
    std::vector<float> &Expected = Chains[Iterations];
    if (Expected.empty())
      for (unsigned T = 0; T < Threads; ++T) {
        float X = T * 1e-3f;
        for (int I = 0; I < Iterations; ++I)
          X = std::fma(X, 0.9999f, 0.5f);
        Expected.push_back(X);
      }
    std::vector<float> Host;
    Out.download(Host);
    for (size_t I = 0; I < Host.size(); ++I)
      if (Host[I] != Expected[I % Threads])
        return false;
    return true;
  }
  Tenant few() {
    return {"few",
            [this](cudaStream_t S) {
              fewCtas<<<32, Threads, 0, S>>>(FewOut.get(), FewIterations);
              SMC_CUDA_CHECK_LAUNCH();
            },
            &FewOut, [this] { return chainsRight(FewOut, FewIterations); }};
  }
  Tenant compute(bool Second = false) {
    DeviceBuffer<float> *Out = Second ? &ComputeOut2 : &ComputeOut;
    return {Second ? "compute2" : "compute",
            [this, Out](cudaStream_t S) {
              computeGrid<<<16 * Sms, Threads, 0, S>>>(Out->get(),
                                                       ComputeIterations);
              SMC_CUDA_CHECK_LAUNCH();
            },
            Out, [this, Out] { return chainsRight(*Out, ComputeIterations); }};
  }
  Tenant triadTenant() {
    return {
        "triad",
        [this](cudaStream_t S) {
          triad<<<unsigned((TriadN + Threads - 1) / Threads), Threads, 0, S>>>(
              A.get(), B.get(), C.get(), TriadN);
          SMC_CUDA_CHECK_LAUNCH();
        },
        &C,
        [this] {
          std::vector<float> Host;
          C.download(Host);
          return std::all_of(Host.begin(), Host.end(),
                             [](float V) { return V == 3.0f; });
        }};
  }
};

// Runs each tenant's loop of Launches launches on its own thread and
// stream, all starting together; returns each loop's seconds.
std::vector<double> runLoops(std::vector<Tenant> &Tenants, int Launches) {
  std::vector<double> Seconds(Tenants.size());
  std::vector<std::thread> Threads;
  std::atomic<int> Ready{0};
  for (size_t T = 0; T < Tenants.size(); ++T)
    Threads.emplace_back([&, T] {
      cudaStream_t Stream;
      SMC_CUDA_CHECK(cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking));
      ++Ready;
      while (Ready.load() < int(Tenants.size())) {
      }
      auto Begin = Clock::now();
      for (int I = 0; I < Launches; ++I) {
        Tenants[T].Launch(Stream);
        SMC_CUDA_CHECK(cudaStreamSynchronize(Stream));
      }
      Seconds[T] = std::chrono::duration<double>(Clock::now() - Begin).count();
      SMC_CUDA_CHECK(cudaStreamDestroy(Stream));
    });
  for (std::thread &Thread : Threads)
    Thread.join();
  return Seconds;
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

void usePolicy(const std::string &Mode) {
  smc::clearPolicies();
  if (Mode == "alone" || Mode == "streams")
    smc::setPolicy("*", smc::Policy::original());
  else if (Mode == "smc" || Mode == "smc-alone")
    smc::setPolicy("*", smc::Policy::smCentric());
  else
    smc::setPolicy("*", smc::Policy::automatic());
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Profile, Out, TenantName, Gate;
  bool Record = false;
  int Rounds = 5, Launches = 20;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&] {
      if (I + 1 >= Argc) {
        std::fprintf(stderr, "smc_auto_bench: %s needs a value\n", A.c_str());
        std::exit(2);
      }
      return std::string(Argv[++I]);
    };
    if (A == "--record")
      Record = true;
    else if (A == "--profile")
      Profile = Value();
    else if (A == "--out")
      Out = Value();
    else if (A == "--rounds")
      Rounds = std::max(1, std::atoi(Value().c_str()));
    else if (A == "--launches")
      Launches = std::max(1, std::atoi(Value().c_str()));
    else if (A == "--tenant")
      TenantName = Value();
    else if (A == "--gate")
      Gate = Value();
    else {
      std::fprintf(stderr,
                   "usage: smc_auto_bench --record | --profile FILE "
                   "[--rounds N] [--launches N] [--out FILE] | --tenant "
                   "few|compute|triad [--gate FILE] [--launches N]\n");
      return 2;
    }
  }
  cudaDeviceProp Prop;
  if (cudaGetDeviceProperties(&Prop, 0) != cudaSuccess) {
    std::fprintf(stderr, "smc_auto_bench: no CUDA GPU\n");
    return 1;
  }
  Kernels K;
  K.init(unsigned(Prop.multiProcessorCount));
  std::vector<Tenant> All = {K.few(), K.compute(), K.triadTenant()};

  if (!TenantName.empty()) {
    // One tenant's loop, the originals, for runs in processes of their own
    // (bench/corun/run_mps.py): after a warm-up launch it creates
    // GATE.ready-<pid> and waits for GATE to exist, then prints
    // "tenant NAME SECONDS right|WRONG BEGIN END" (BEGIN, END: wall-clock
    // seconds, to tell whether two tenants' loops overlapped).
    auto It = std::find_if(All.begin(), All.end(), [&](const Tenant &T) {
      return T.Name == TenantName;
    });
    if (It == All.end()) {
      std::fprintf(stderr, "smc_auto_bench: no tenant '%s'\n",
                   TenantName.c_str());
      return 2;
    }
    smc::setPolicy("*", smc::Policy::original());
    std::vector<Tenant> One = {*It};
    One[0].Launch(nullptr);
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
    if (!Gate.empty()) {
      std::ofstream(Gate + ".ready-" + std::to_string(getpid())) << "\n";
      while (!std::ifstream(Gate))
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    One[0].Output->poison(nullptr);
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
    auto Wall = [] {
      return std::chrono::duration<double>(
                 std::chrono::system_clock::now().time_since_epoch())
          .count();
    };
    double Begin = Wall();
    double Seconds = runLoops(One, Launches)[0];
    double End = Wall();
    bool Right = One[0].Check();
    std::printf("tenant %s %.6f %s %.6f %.6f\n", TenantName.c_str(), Seconds,
                Right ? "right" : "WRONG", Begin, End);
    return Right ? 0 : 1;
  }
  if (Record) {
    // Under scripts/smc-profile (SMC_PROFILE_RECORD, policy auto): each
    // kernel alone, 1 warm-up and 10 recorded launches (two per SM count).
    for (Tenant &T : All) {
      for (int I = 0; I < 11; ++I)
        T.Launch(nullptr);
      SMC_CUDA_CHECK(cudaDeviceSynchronize());
      if (!T.Check()) {
        std::fprintf(stderr, "smc_auto_bench: %s gave wrong results\n",
                     T.Name.c_str());
        return 1;
      }
    }
    return 0;
  }
  std::string Error;
  if (Profile.empty() || !smc::loadProfiles(Profile, &Error)) {
    std::fprintf(stderr, "smc_auto_bench: %s\n",
                 Profile.empty() ? "--profile FILE is required"
                                 : Error.c_str());
    return 2;
  }

  struct Pair {
    std::string Name;
    std::vector<Tenant> Tenants;
  };
  std::vector<Pair> Pairs = {
      {"few+compute", {K.few(), K.compute()}},
      {"triad+compute", {K.triadTenant(), K.compute()}},
      {"compute+compute", {K.compute(), K.compute(/*Second=*/true)}}};
  const std::vector<std::string> Modes = {"streams", "smc", "auto"};
  nlohmann::ordered_json Json;
  Json["context"] = {{"device", Prop.name},
                     {"sms", Prop.multiProcessorCount},
                     {"rounds", Rounds},
                     {"launches", Launches},
                     {"profile", Profile}};
  bool AllRight = true;
  std::printf("%-16s %-8s %10s %10s %7s %7s\n", "pair", "mode", "T_a ms",
              "T_b ms", "STP", "ANTT");
  for (Pair &P : Pairs) {
    // Policy auto measures a co-run that recurs before it settles: co-run
    // under it until the trials this pair starts have settled.
    std::set<std::string> Before;
    for (const smc::CoRunTrials &T : smc::autoCoRunTrials())
      Before.insert(T.names());
    usePolicy("auto");
    int SettleLoops = 0;
    std::vector<const smc::CoRunTrials *> New;
    std::vector<smc::CoRunTrials> Now;
    while (SettleLoops < 60) {
      runLoops(P.Tenants, Launches);
      ++SettleLoops;
      Now = smc::autoCoRunTrials();
      New.clear();
      bool AllSettled = true;
      for (const smc::CoRunTrials &T : Now)
        if (!Before.count(T.names())) {
          New.push_back(&T);
          AllSettled &= T.settled();
        }
      if ((New.empty() && SettleLoops >= 3) || (!New.empty() && AllSettled))
        break;
    }
    for (const smc::CoRunTrials *T : New) {
      std::printf("%-16s auto: %s\n", P.Name.c_str(),
                  T->decision().Reason.c_str());
      nlohmann::ordered_json Trials;
      for (const smc::CoRunTrials::Trial &Tried : T->measured())
        Trials.push_back(
            {{"decision", Tried.Decision.Reason}, {"stp", Tried.Stp}});
      Json["auto_trials"].push_back({{"pair", P.Name},
                                     {"co_run", T->names()},
                                     {"settled", T->settled()},
                                     {"decision", T->decision().Reason},
                                     {"settle_loops", SettleLoops},
                                     {"trials", Trials}});
    }
    // [mode][tenant] -> seconds per round; mode "alone" first.
    std::map<std::string, std::vector<std::vector<double>>> Times;
    for (int Round = 0; Round <= Rounds; ++Round) {
      for (const char *Alone : {"alone", "smc-alone"})
        for (size_t T = 0; T < P.Tenants.size(); ++T) {
          usePolicy(Alone);
          std::vector<Tenant> One = {P.Tenants[T]};
          double Seconds = runLoops(One, Launches)[0];
          if (Round > 0) {
            Times[Alone].resize(P.Tenants.size());
            Times[Alone][T].push_back(Seconds);
          }
        }
      for (const std::string &Mode : Modes) {
        usePolicy(Mode);
        for (Tenant &T : P.Tenants)
          T.Output->poison(nullptr);
        SMC_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<double> Seconds = runLoops(P.Tenants, Launches);
        for (Tenant &T : P.Tenants)
          if (!T.Check()) {
            std::fprintf(stderr, "%s, %s: %s gave wrong results\n",
                         P.Name.c_str(), Mode.c_str(), T.Name.c_str());
            AllRight = false;
          }
        if (Round == 0)
          continue; // warm-up
        Times[Mode].resize(P.Tenants.size());
        for (size_t T = 0; T < Seconds.size(); ++T)
          Times[Mode][T].push_back(Seconds[T]);
      }
    }
    smc::clearPolicies();
    std::vector<double> Alone, SmcAlone;
    for (auto &Samples : Times["alone"])
      Alone.push_back(median(Samples));
    for (auto &Samples : Times["smc-alone"])
      SmcAlone.push_back(median(Samples));
    std::printf("%-16s %-8s %10.3f %10.3f   (each loop alone; smc-alone %.3f "
                "%.3f)\n",
                P.Name.c_str(), "alone", Alone[0] * 1e3, Alone[1] * 1e3,
                SmcAlone[0] * 1e3, SmcAlone[1] * 1e3);
    for (const std::string &Mode : Modes) {
      double Stp = 0, Antt = 0;
      std::vector<double> Corun;
      for (size_t T = 0; T < Alone.size(); ++T) {
        Corun.push_back(median(Times[Mode][T]));
        Stp += Alone[T] / Corun[T];
        Antt += Corun[T] / Alone[T] / Alone.size();
      }
      std::printf("%-16s %-8s %10.3f %10.3f %7.3f %7.3f\n", P.Name.c_str(),
                  Mode.c_str(), Corun[0] * 1e3, Corun[1] * 1e3, Stp, Antt);
      Json["benchmarks"].push_back({{"pair", P.Name},
                                    {"mode", Mode},
                                    {"alone_s", Alone},
                                    {"smc_alone_s", SmcAlone},
                                    {"corun_s", Corun},
                                    {"stp", Stp},
                                    {"antt", Antt}});
    }
  }
  Json["all_results_right"] = AllRight;
  if (!Out.empty())
    std::ofstream(Out) << Json.dump(2) << "\n";
  return AllRight ? 0 : 1;
}
