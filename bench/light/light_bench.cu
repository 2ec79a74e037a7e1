//===- light_bench.cu - Tiny launches and many slices: the host's cost ----===//
//
// smc_light_bench measures what a launch costs when the grid is small or the
// policy cuts it into many launches (docs/light.md):
//
//   storm    --launches launches (100k by default) of `reverse<1>` (one
//            256-thread CTA reversing an array in shared memory) and of
//            `reverse<4>` (the same, four CTAs), back to back on one stream,
//            then one synchronize; wall time and the host thread's CPU time
//            per launch under each policy, rounds interleaved (policies in a
//            new random order each round), the median over rounds and its
//            ratio to the original's median; the original runs twice, so
//            that the second's ratio shows the noise.
//   slices   one launch of `touch` (128 threads per CTA, each CTA adds to
//            one word) with 1k, 10k and 100k CTAs under slice(size=1) (one
//            launch per CTA), smc, auto and locality: the host time of the
//            launch call per slice (wall and CPU), and the time to the end of
//            the work.  The slope of host time against slices is fitted.
//   cubscan  cub::DeviceScan::InclusiveSum over 2^20, 2^22, 2^24 and 2^26
//            ints under slice(size=1) (one launch per tile; 2^26 also on the
//            legacy default stream): host time per slice, the scan checked
//            against the CPU.
//
// USAGE: smc_light_bench [--rounds=N] [--launches=N] [--json=FILE]
//                        [storm|slices|cubscan...]
//===----------------------------------------------------------------------===//
#include "smc/smc.h"

#include <cub/device/device_scan.cuh>
#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

constexpr unsigned kReverseThreads = 256;

// Each CTA reverses its 256 words through shared memory; a kernel of its
// own (name reverse<Ctas>) per grid the storm launches.
template <unsigned Ctas> __global__ void reverse(int *Data) {
  __shared__ int Tile[kReverseThreads];
  unsigned T = threadIdx.x;
  int *Mine = Data + blockIdx.x * blockDim.x;
  Tile[T] = Mine[T];
  __syncthreads();
  Mine[T] = Tile[blockDim.x - 1 - T];
}

// Each CTA adds one to its word: 100k slices of almost nothing.
__global__ void touch(unsigned *Words) {
  if (threadIdx.x == 0)
    Words[blockIdx.x] += 1;
}

namespace {

using Clock = std::chrono::steady_clock;

void check(cudaError_t Err, const char *What) {
  if (Err != cudaSuccess)
    throw std::runtime_error(std::string(What) + ": " + cudaGetErrorName(Err));
}

double threadCpuSeconds() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return double(T.tv_sec) + double(T.tv_nsec) * 1e-9;
}

double seconds(Clock::time_point A, Clock::time_point B) {
  return std::chrono::duration<double>(B - A).count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

struct NamedPolicy {
  const char *Name;
  smc::Policy Policy;
};

// A time and the host thread's CPU time, in seconds.
struct Timed {
  double Wall = 0, Cpu = 0, Call = 0;
};

//===--- storm ------------------------------------------------------------===//

std::vector<NamedPolicy> stormPolicies() {
  // The original twice: the ratio of the second to the first is the
  // benchmark's own noise.
  return {{"original", smc::Policy::original()},
          {"original (again)", smc::Policy::original()},
          {"smc", smc::Policy::smCentric()},
          {"smc(workers=1)", smc::Policy::smCentric(1)},
          {"slice", smc::Policy::slice(0)},
          {"slice(size=1)", smc::Policy::slice(1)},
          {"auto", smc::Policy::automatic()},
          {"locality", smc::Policy::locality()}};
}

// `Launches` launches of K with `Grid` CTAs, then a synchronize.
Timed storm(void (*K)(int *), unsigned Grid, int *Data, unsigned Launches,
            cudaStream_t Stream) {
  double Cpu0 = threadCpuSeconds();
  Clock::time_point T0 = Clock::now();
  for (unsigned I = 0; I < Launches; ++I)
    K<<<Grid, kReverseThreads, 0, Stream>>>(Data);
  check(cudaGetLastError(), "storm launch");
  Clock::time_point T1 = Clock::now();
  check(cudaStreamSynchronize(Stream), "storm synchronize");
  Clock::time_point T2 = Clock::now();
  double Cpu1 = threadCpuSeconds();
  return {seconds(T0, T2), Cpu1 - Cpu0, seconds(T0, T1)};
}

nlohmann::json runStorm(unsigned Rounds, unsigned Launches,
                        cudaStream_t Stream) {
  struct Case {
    const char *Name;
    void (*Kernel)(int *);
    unsigned Grid;
  };
  const Case Cases[] = {{"reverse_1cta", reverse<1>, 1},
                        {"reverse_4cta", reverse<4>, 4}};
  std::vector<NamedPolicy> Policies = stormPolicies();
  int *Data = nullptr;
  check(cudaMalloc(&Data, 4 * kReverseThreads * sizeof(int)), "cudaMalloc");
  check(cudaMemset(Data, 0, 4 * kReverseThreads * sizeof(int)), "memset");
  std::mt19937 Rng(1);
  nlohmann::json Out = nlohmann::json::array();
  for (const Case &C : Cases) {
    std::vector<std::vector<Timed>> Times(Policies.size());
    // Warm-up: every policy's trials and first launches (auto, locality)
    // happen here, outside the timed rounds.
    for (const NamedPolicy &P : Policies) {
      smc::setPolicy(C.Kernel, P.Policy);
      storm(C.Kernel, C.Grid, Data, 2000, Stream);
    }
    std::vector<size_t> Order(Policies.size());
    for (size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    for (unsigned R = 0; R < Rounds; ++R) {
      std::shuffle(Order.begin(), Order.end(), Rng);
      for (size_t I : Order) {
        smc::setPolicy(C.Kernel, Policies[I].Policy);
        Times[I].push_back(storm(C.Kernel, C.Grid, Data, Launches, Stream));
      }
    }
    double Original = 0;
    for (size_t I = 0; I < Policies.size(); ++I) {
      std::vector<double> Wall, Cpu, Call;
      for (const Timed &T : Times[I]) {
        Wall.push_back(T.Wall);
        Cpu.push_back(T.Cpu);
        Call.push_back(T.Call);
      }
      double W = median(Wall);
      if (I == 0)
        Original = W;
      double PerLaunchUs = W / Launches * 1e6;
      double CpuUs = median(Cpu) / Launches * 1e6;
      std::printf("storm %-13s %-17s wall %8.3f s  %6.2f us/launch  cpu "
                  "%6.2f us/launch  x%.3f\n",
                  C.Name, Policies[I].Name, W, PerLaunchUs, CpuUs,
                  W / Original);
      Out.push_back({{"case", C.Name},
                     {"grid", C.Grid},
                     {"policy", Policies[I].Name},
                     {"launches", Launches},
                     {"wall_s", W},
                     {"call_s", median(Call)},
                     {"cpu_s", median(Cpu)},
                     {"us_per_launch", PerLaunchUs},
                     {"cpu_us_per_launch", CpuUs},
                     {"over_original", W / Original}});
    }
  }
  check(cudaFree(Data), "cudaFree");
  return Out;
}

//===--- slices -----------------------------------------------------------===//

// Least-squares slope and intercept of Y against X.
std::pair<double, double> fitLine(const std::vector<double> &X,
                                  const std::vector<double> &Y) {
  double N = double(X.size()), Sx = 0, Sy = 0, Sxx = 0, Sxy = 0;
  for (size_t I = 0; I < X.size(); ++I) {
    Sx += X[I];
    Sy += Y[I];
    Sxx += X[I] * X[I];
    Sxy += X[I] * Y[I];
  }
  double Slope = (N * Sxy - Sx * Sy) / (N * Sxx - Sx * Sx);
  return {Slope, (Sy - Slope * Sx) / N};
}

// Host time of `Launch` (the call, wall and CPU) and the time to the end of
// its work, median of `Rounds`.
template <typename Fn>
Timed timedCall(unsigned Rounds, cudaStream_t Stream, Fn &&Launch) {
  std::vector<double> Call, Cpu, Wall;
  for (unsigned R = 0; R < Rounds; ++R) {
    check(cudaStreamSynchronize(Stream), "synchronize");
    double Cpu0 = threadCpuSeconds();
    Clock::time_point T0 = Clock::now();
    Launch();
    Clock::time_point T1 = Clock::now();
    double Cpu1 = threadCpuSeconds();
    check(cudaStreamSynchronize(Stream), "synchronize");
    Clock::time_point T2 = Clock::now();
    Call.push_back(seconds(T0, T1));
    Cpu.push_back(Cpu1 - Cpu0);
    Wall.push_back(seconds(T0, T2));
  }
  return {median(Wall), median(Cpu), median(Call)};
}

void reportSlope(const char *What, const char *Policy,
                 const std::vector<double> &Slices,
                 const std::vector<double> &Seconds, nlohmann::json &Fits) {
  auto [Slope, Intercept] = fitLine(Slices, Seconds);
  std::printf("%s %-14s host time = %.3f us/slice x slices + %.1f us\n", What,
              Policy, Slope * 1e6, Intercept * 1e6);
  Fits.push_back({{"bench", What},
                  {"policy", Policy},
                  {"us_per_slice", Slope * 1e6},
                  {"intercept_us", Intercept * 1e6}});
}

nlohmann::json runSlices(unsigned Rounds, cudaStream_t Stream,
                         nlohmann::json &Fits) {
  const std::vector<unsigned> Sizes = {1000, 10000, 100000};
  const std::vector<NamedPolicy> Policies = {
      {"slice(size=1)", smc::Policy::slice(1)},
      {"smc", smc::Policy::smCentric()},
      {"auto", smc::Policy::automatic()},
      {"locality", smc::Policy::locality()}};
  unsigned *Words = nullptr;
  check(cudaMalloc(&Words, Sizes.back() * sizeof(unsigned)), "cudaMalloc");
  check(cudaMemset(Words, 0, Sizes.back() * sizeof(unsigned)), "memset");
  nlohmann::json Out = nlohmann::json::array();
  unsigned Expected = 0; // launches of touch so far, per word of the first 1k
  for (const NamedPolicy &P : Policies) {
    smc::setPolicy(touch, P.Policy);
    std::vector<double> X, Y;
    for (unsigned Size : Sizes) {
      auto Launch = [&] { touch<<<Size, 128, 0, Stream>>>(Words); };
      // Warm-up: the trials of auto and locality (fourteen launches cover
      // them), one launch for the others.
      unsigned WarmUp = P.Policy.variant == smc::Variant::Auto ||
                                P.Policy.variant == smc::Variant::Locality
                            ? 14
                            : 1;
      for (unsigned I = 0; I < WarmUp; ++I)
        Launch();
      Timed T = timedCall(Rounds, Stream, Launch);
      check(cudaGetLastError(), "touch");
      Expected += WarmUp + Rounds;
      X.push_back(Size);
      Y.push_back(T.Call);
      std::printf("slices %-14s %6u CTAs  call %9.3f ms (%7.3f us/CTA, cpu "
                  "%7.3f us/CTA)  done %9.3f ms\n",
                  P.Name, Size, T.Call * 1e3, T.Call / Size * 1e6,
                  T.Cpu / Size * 1e6, T.Wall * 1e3);
      Out.push_back({{"policy", P.Name},
                     {"ctas", Size},
                     {"call_s", T.Call},
                     {"cpu_s", T.Cpu},
                     {"done_s", T.Wall},
                     {"call_us_per_cta", T.Call / Size * 1e6}});
    }
    reportSlope("slices", P.Name, X, Y, Fits);
  }
  std::vector<unsigned> Host(Sizes.front());
  check(cudaMemcpy(Host.data(), Words, Host.size() * sizeof(unsigned),
                   cudaMemcpyDeviceToHost),
        "download");
  for (unsigned W : Host)
    if (W != Expected)
      throw std::runtime_error("slices: a word counts " + std::to_string(W) +
                               " launches, not " + std::to_string(Expected));
  check(cudaFree(Words), "cudaFree");
  return Out;
}

//===--- cubscan ----------------------------------------------------------===//

// Ints per tile of CUB's scan of 4-byte items on sm_90, as estimated here
// (128 threads x 15 items; not read from CUB): about 35,000 tiles for 2^26
// ints.
constexpr double kCubScanTileInts = 128.0 * 15.0;

nlohmann::json runCubScan(unsigned Rounds, cudaStream_t Stream,
                          nlohmann::json &Fits) {
  // The last size again on the legacy default stream, as programs that
  // pass no stream launch it.
  const std::vector<unsigned> Sizes = {1u << 20, 1u << 22, 1u << 24, 1u << 26,
                                       1u << 26};
  smc::setPolicy("*", smc::Policy::slice(1));
  nlohmann::json Out = nlohmann::json::array();
  std::vector<double> X, Y;
  for (size_t Index = 0; Index < Sizes.size(); ++Index) {
    unsigned N = Sizes[Index];
    bool DefaultStream = Index + 1 == Sizes.size();
    if (DefaultStream)
      Stream = nullptr;
    std::vector<int> In(N);
    for (unsigned I = 0; I < N; ++I)
      In[I] = int(I % 7) - 3;
    int *DIn = nullptr, *DOut = nullptr;
    void *Temp = nullptr;
    size_t Bytes = 0;
    check(cudaMalloc(&DIn, N * sizeof(int)), "cudaMalloc");
    check(cudaMalloc(&DOut, N * sizeof(int)), "cudaMalloc");
    check(cudaMemcpy(DIn, In.data(), N * sizeof(int), cudaMemcpyHostToDevice),
          "upload");
    check(cub::DeviceScan::InclusiveSum(nullptr, Bytes, DIn, DOut, N, Stream),
          "scan size");
    check(cudaMalloc(&Temp, Bytes), "cudaMalloc");
    auto Launch = [&] {
      check(cub::DeviceScan::InclusiveSum(Temp, Bytes, DIn, DOut, N, Stream),
            "scan");
    };
    Launch();
    Timed T = timedCall(std::min(Rounds, 3u), Stream, Launch);
    std::vector<int> Got(N);
    check(cudaMemcpy(Got.data(), DOut, N * sizeof(int), cudaMemcpyDeviceToHost),
          "download");
    int Sum = 0;
    for (unsigned I = 0; I < N; ++I)
      if (Got[I] != (Sum += In[I]))
        throw std::runtime_error("cubscan: wrong scan at " + std::to_string(I));
    // The slices of CUB's scan kernel, one per tile (its init kernel adds
    // one launch per 128 tiles); SMC_STATS would count them exactly.
    double Tiles = std::ceil(double(N) / kCubScanTileInts);
    if (!DefaultStream) {
      X.push_back(Tiles);
      Y.push_back(T.Call);
    }
    std::printf("cubscan slice(size=1) 2^%u ints (~%.0f tiles)%s  call %9.3f "
                "ms (%7.3f us/tile, cpu %7.3f us/tile)  done %9.3f ms\n",
                unsigned(std::log2(double(N))), Tiles,
                DefaultStream ? " default stream" : "", T.Call * 1e3,
                T.Call / Tiles * 1e6, T.Cpu / Tiles * 1e6, T.Wall * 1e3);
    Out.push_back({{"ints", N},
                   {"default_stream", DefaultStream},
                   {"tiles_estimate", Tiles},
                   {"call_s", T.Call},
                   {"cpu_s", T.Cpu},
                   {"done_s", T.Wall}});
    check(cudaFree(Temp), "cudaFree");
    check(cudaFree(DIn), "cudaFree");
    check(cudaFree(DOut), "cudaFree");
  }
  reportSlope("cubscan", "slice(size=1)", X, Y, Fits);
  smc::setPolicy("*", smc::Policy::smCentric());
  return Out;
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned Rounds = 5, Launches = 100000;
  std::string JsonPath;
  std::vector<std::string> Parts;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--rounds=", 0) == 0)
      Rounds = unsigned(std::stoul(A.substr(9)));
    else if (A.rfind("--launches=", 0) == 0)
      Launches = unsigned(std::stoul(A.substr(11)));
    else if (A.rfind("--json=", 0) == 0)
      JsonPath = A.substr(7);
    else if (A == "storm" || A == "slices" || A == "cubscan")
      Parts.push_back(A);
    else {
      std::fprintf(stderr, "usage: smc_light_bench [--rounds=N] [--launches=N] "
                           "[--json=FILE] [storm|slices|cubscan...]\n");
      return 2;
    }
  }
  if (Parts.empty())
    Parts = {"storm", "slices", "cubscan"};
  try {
    cudaDeviceProp Prop;
    check(cudaGetDeviceProperties(&Prop, 0), "cudaGetDeviceProperties");
    std::printf("device: %s (%d SMs)\n", Prop.name, Prop.multiProcessorCount);
    cudaStream_t Stream;
    check(cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking), "stream");
    nlohmann::json Json = {{"device", Prop.name}, {"rounds", Rounds}};
    nlohmann::json Fits = nlohmann::json::array();
    for (const std::string &P : Parts) {
      if (P == "storm")
        Json["storm"] = runStorm(Rounds, Launches, Stream);
      else if (P == "slices")
        Json["slices"] = runSlices(Rounds, Stream, Fits);
      else
        Json["cubscan"] = runCubScan(Rounds, Stream, Fits);
    }
    Json["fits"] = Fits;
    if (!JsonPath.empty())
      std::ofstream(JsonPath) << Json.dump(2) << "\n";
  } catch (const std::exception &E) {
    std::fprintf(stderr, "smc_light_bench: %s\n", E.what());
    return 1;
  }
  return 0;
}
