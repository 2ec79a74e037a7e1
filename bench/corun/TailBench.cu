//===- TailBench.cu - smc_tail_bench's kernels and runs
//--------------------===//
//
// The kernels of smc_tail_bench (compiled with the plugin: the best-effort
// kernels get SM-centric variants), the urgent launch with its
// decomposition, and run(): a best-effort thread launching grids back to
// back (at most Depth queued) while this thread makes the urgent arrivals.
//===----------------------------------------------------------------------===//
#include "TailBench.h"

#include "FmaChunk.cuh"

#include "base/Driver.h"
#include "smc/smc.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>

namespace {

__device__ __forceinline__ unsigned long long globalNs() {
  return __nvvm_read_ptx_sreg_globaltimer();
}

} // namespace

// Kernels have external linkage: the runtime finds variants by name.

// The urgent kernel: two chains of Iterations dependent FMAs per thread;
// Stamps[0] / [1]: the earliest CTA start, the latest CTA end; PerSm[s]:
// its CTAs that ran on SM s.
__global__ void tailUrgent(int Iterations, float *Sink,
                           unsigned long long *Stamps, unsigned *PerSm) {
  if (threadIdx.x == 0) {
    atomicMin(&Stamps[0], globalNs());
    atomicAdd(&PerSm[__nvvm_read_ptx_sreg_smid() % smc::tail::MaxSms], 1u);
  }
  fmaChunk(Iterations, Sink);
  if (threadIdx.x == 0)
    atomicMax(&Stamps[1], globalNs());
}

// Best effort: each CTA holds its place for Ns of %globaltimer.
__global__ void tailSpin(unsigned long long Ns) {
  unsigned long long Begin = globalNs();
  while (globalNs() - Begin < Ns) {
  }
  __syncthreads();
}

__global__ void tailSleep(unsigned long long Ns) {
  unsigned long long Begin = globalNs();
  while (globalNs() - Begin < Ns)
    __nanosleep(1000);
  __syncthreads();
}

// Streams through In (Words float4s) until Ns has passed.
__global__ void tailStream(const float4 *In, size_t Words,
                           unsigned long long Ns, float *Sink) {
  unsigned long long Begin = globalNs();
  size_t At = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) % Words;
  size_t Step = size_t(gridDim.x) * blockDim.x;
  float Sum = 0;
  while (globalNs() - Begin < Ns) {
    for (int I = 0; I < 8; ++I) {
      float4 V = In[At];
      Sum += V.x + V.y + V.z + V.w;
      At = (At + Step) % Words;
    }
  }
  __syncthreads();
  if (Sum == 12345.0f)
    Sink[blockIdx.x] = Sum;
}

// Work-bound best effort: Iterations dependent FMAs in four chains per
// thread (its CTAs last as long as the SM's issue slots make them).
__global__ void tailFma(int Iterations, float *Sink) {
  float A = threadIdx.x, B = A + 1, C = A + 2, D = A + 3;
  for (int I = 0; I < Iterations; ++I) {
    A = fmaf(A, 0.9999f, 0.5f);
    B = fmaf(B, 0.9998f, 0.25f);
    C = fmaf(C, 0.9997f, 0.125f);
    D = fmaf(D, 0.9996f, 0.0625f);
  }
  if (A + B + C + D == 12345.0f)
    Sink[blockIdx.x] = A;
}

// One %globaltimer read, for the host's calibration.
__global__ void tailClock(unsigned long long *Out) { *Out = globalNs(); }

namespace smc::tail {
namespace {

#define CHECK(Call)                                                            \
  do {                                                                         \
    cudaError_t Err_ = (Call);                                                 \
    if (Err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #Call,       \
                   cudaGetErrorString(Err_));                                  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

long long hostNs(Clock::time_point T) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             T.time_since_epoch())
      .count();
}

// The calibration with the shortest round trip.
ClockSync calibrate(unsigned long long *Device) {
  ClockSync Best;
  long long Shortest = -1;
  for (int I = 0; I < 50; ++I) {
    unsigned long long Gpu = 0;
    auto Before = Clock::now();
    tailClock<<<1, 1>>>(Device);
    CHECK(cudaMemcpy(&Gpu, Device, sizeof Gpu, cudaMemcpyDeviceToHost));
    auto After = Clock::now();
    long long Trip = (After - Before).count();
    if (Shortest < 0 || Trip < Shortest) {
      Shortest = Trip;
      Best.Offset = (long long)Gpu - hostNs(Before + (After - Before) / 2);
    }
  }
  return Best;
}

UrgentStream urgentStream(cudaStream_t Stream) {
  UrgentStream S;
  S.Stream = Stream;
  std::string Error;
  struct Make {
    UrgentStream *S;
  } M{&S};
  if (!inContextOf(
          Stream,
          [](void *P) {
            UrgentStream &U = *static_cast<Make *>(P)->S;
            CHECK(cudaEventCreate(&U.Start));
            CHECK(cudaEventCreate(&U.End));
          },
          &M, Error)) {
    std::fprintf(stderr, "smc_tail_bench: %s\n", Error.c_str());
    std::exit(1);
  }
  return S;
}

void setPolicies(const smc::Policy &BestEffort) {
  smc::setPolicy(tailSpin, BestEffort);
  smc::setPolicy(tailSleep, BestEffort);
  smc::setPolicy(tailStream, BestEffort);
  smc::setPolicy(tailFma, BestEffort);
  smc::setPolicy(tailUrgent, smc::Policy::original());
}

} // namespace

bool inContextOf(cudaStream_t Stream, void (*Make)(void *), void *State,
                 std::string &Error) {
  static PFN_cuStreamGetCtx_v12050 GetCtx = nullptr;
  static PFN_cuCtxFromGreenCtx_v12040 FromGreen = nullptr;
  static PFN_cuCtxPushCurrent_v4000 Push = nullptr;
  static PFN_cuCtxPopCurrent_v4000 Pop = nullptr;
  using smc::driver::lookUp;
  if (!GetCtx && !(lookUp("cuStreamGetCtx", 12050, GetCtx, Error) &&
                   lookUp("cuCtxFromGreenCtx", 12040, FromGreen, Error) &&
                   lookUp("cuCtxPushCurrent", 4000, Push, Error) &&
                   lookUp("cuCtxPopCurrent", 4000, Pop, Error)))
    return false;
  CUcontext Ctx = nullptr, Popped = nullptr;
  CUgreenCtx GreenCtx = nullptr;
  if (GetCtx(reinterpret_cast<CUstream>(Stream), &Ctx, &GreenCtx) !=
      CUDA_SUCCESS) {
    Error = "cuStreamGetCtx failed";
    return false;
  }
  if (GreenCtx && FromGreen(&Ctx, GreenCtx) != CUDA_SUCCESS) {
    Error = "cuCtxFromGreenCtx failed";
    return false;
  }
  if (Ctx && Push(Ctx) != CUDA_SUCCESS) {
    Error = "cuCtxPushCurrent failed";
    return false;
  }
  Make(State);
  if (Ctx)
    Pop(&Popped);
  return true;
}

double percentile(const std::vector<Arrival> &Arrivals, double Arrival::*Field,
                  double P) {
  if (Arrivals.empty())
    return 0;
  std::vector<double> V;
  for (const Arrival &A : Arrivals)
    V.push_back(A.*Field);
  std::sort(V.begin(), V.end());
  size_t I = size_t(P * double(V.size() - 1) + 0.5);
  return V[std::min(I, V.size() - 1)];
}

void Bench::setUp(const Options &O, std::vector<Arrival> &Alone) {
  Depth = O.Depth;
  GreenSms = O.GreenSms;
  Headroom = O.Headroom;
  P99 = O.P99;
  FixedFmaIterations = O.FmaIterations;
  cudaDeviceProp Prop;
  CHECK(cudaGetDeviceProperties(&Prop, 0));
  Sms = Prop.multiProcessorCount;
  int Least = 0, Greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&Least, &Greatest));
  cudaStream_t PlainStream, HighStream;
  CHECK(cudaStreamCreateWithPriority(&Low, cudaStreamNonBlocking, Least));
  CHECK(
      cudaStreamCreateWithPriority(&PlainStream, cudaStreamNonBlocking, Least));
  CHECK(cudaStreamCreateWithPriority(&HighStream, cudaStreamNonBlocking,
                                     Greatest));
  Plain = urgentStream(PlainStream);
  High = urgentStream(HighStream);
  CHECK(cudaMalloc(&Sink, 1 << 20));
  CHECK(cudaMalloc(&Big, BigWords * sizeof(float4)));
  CHECK(cudaMemset(Big, 0, BigWords * sizeof(float4)));
  CHECK(cudaMalloc(&Stamps, 2 * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&PerSm, MaxSms * sizeof(unsigned)));
  CHECK(cudaMalloc(&ClockWord, sizeof(unsigned long long)));
  if (O.Role.empty()) // a role's policies come from SMC_POLICY
    setPolicies(smc::Policy::original());
  Sync = calibrate(ClockWord);
  Green.init(0);

  // The urgent kernel sized to about 56 us alone.
  UrgentIterations = 20000;
  UrgentAloneMs = 1;
  for (int Pass = 0; Pass < 3; ++Pass) {
    std::vector<Arrival> Runs;
    for (int I = 0; I < 20; ++I)
      Runs.push_back(urgent(High));
    UrgentAloneMs *= percentile(Runs, &Arrival::Latency, 0.5);
    UrgentIterations =
        std::max(1000, int(UrgentIterations * 0.056 / UrgentAloneMs));
  }
  UrgentAloneMs = 1;
  Alone.clear();
  for (int I = 0; I < 50; ++I)
    Alone.push_back(urgent(High));
  UrgentAloneMs = percentile(Alone, &Arrival::Latency, 0.5);
  for (Arrival &A : Alone)
    A.Latency /= UrgentAloneMs;
}

void Bench::launchBestEffort(cudaStream_t Stream, const std::string &Kind,
                             unsigned CtaUs) {
  unsigned long long Ns = CtaUs * 1000ull;
  dim3 Grid(Sms * 64);
  if (Kind == "fma")
    tailFma<<<Grid, 128, 0, Stream>>>(fmaIterations(CtaUs), Sink);
  else if (Kind == "spin")
    tailSpin<<<Grid, 128, 0, Stream>>>(Ns);
  else if (Kind == "sleep")
    tailSleep<<<Grid, 128, 0, Stream>>>(Ns);
  else
    tailStream<<<Grid, 128, 0, Stream>>>(Big, BigWords, Ns, Sink);
}

// FMA iterations that make a CTA of tailFma last about CtaUs (its grid of
// four waves, alone, 4 x CtaUs), measured once per CtaUs.
int Bench::fmaIterations(unsigned CtaUs) {
  if (FixedFmaIterations)
    return FixedFmaIterations; // profilers slow the sizing's launches down
  int &Iterations = FmaIterations[CtaUs];
  if (Iterations)
    return Iterations;
  Iterations = 1000;
  cudaEvent_t Start, End;
  CHECK(cudaEventCreate(&Start));
  CHECK(cudaEventCreate(&End));
  for (int Pass = 0; Pass < 3; ++Pass) {
    CHECK(cudaEventRecord(Start, Low));
    tailFma<<<Sms * 64, 128, 0, Low>>>(Iterations, Sink);
    CHECK(cudaEventRecord(End, Low));
    CHECK(cudaEventSynchronize(End));
    float Ms = 0;
    CHECK(cudaEventElapsedTime(&Ms, Start, End));
    Iterations = std::max(10, int(Iterations * (4e-3 * CtaUs) / Ms));
  }
  CHECK(cudaEventDestroy(Start));
  CHECK(cudaEventDestroy(End));
  return Iterations;
}

// One urgent launch, waited for.  Latency is in ms over UrgentAloneMs.
Arrival Bench::urgent(const UrgentStream &S) {
  CHECK(cudaMemsetAsync(Stamps, 0xff, sizeof *Stamps, S.Stream));
  CHECK(cudaMemsetAsync(Stamps + 1, 0, sizeof *Stamps, S.Stream));
  CHECK(cudaMemsetAsync(PerSm, 0, MaxSms * sizeof(unsigned), S.Stream));
  CHECK(cudaStreamSynchronize(S.Stream));
  CHECK(cudaEventRecord(S.Start, S.Stream));
  auto Called = Clock::now();
  tailUrgent<<<64, 256, 0, S.Stream>>>(UrgentIterations, Sink, Stamps, PerSm);
  auto Returned = Clock::now();
  CHECK(cudaEventRecord(S.End, S.Stream));
  CHECK(cudaEventSynchronize(S.End));
  float Ms = 0;
  CHECK(cudaEventElapsedTime(&Ms, S.Start, S.End));
  unsigned long long Host[2];
  CHECK(cudaMemcpy(Host, Stamps, sizeof Host, cudaMemcpyDeviceToHost));
  unsigned Ctas[MaxSms];
  CHECK(cudaMemcpy(Ctas, PerSm, sizeof Ctas, cudaMemcpyDeviceToHost));
  Arrival A;
  for (unsigned N : Ctas) {
    A.Sms += N != 0;
    A.MostPerSm = std::max(A.MostPerSm, double(N));
  }
  A.Latency = Ms / UrgentAloneMs;
  A.Grids = Launched ? double(Launched->load()) : 0;
  A.Seconds = std::chrono::duration<double>(Called - ModeStart).count();
  A.Submit = (Returned - Called).count() / 1e3;
  A.Queue = ((long long)Host[0] - Sync.toGpu(Called)) / 1e3;
  A.Run = (Host[1] - Host[0]) / 1e3;
  return A;
}

std::vector<Arrival> Bench::arrivals(const UrgentStream &S, unsigned N) {
  std::mt19937 Random(20261129);
  std::uniform_int_distribution<int> Gap(1000, 3000);
  std::vector<Arrival> Out;
  for (unsigned A = 0; A < N; ++A) {
    std::this_thread::sleep_for(std::chrono::microseconds(Gap(Random)));
    Out.push_back(urgent(S));
  }
  return Out;
}

Result run(Bench &B, const std::string &Mode, const std::string &Kind,
           unsigned CtaUs, unsigned Arrivals) {
  Result R;
  R.Mode = Mode;
  R.Kind = Kind;
  R.CtaUs = CtaUs;
  smc::Policy BestEffort = smc::Policy::original();
  if (Mode == "smc-priority")
    BestEffort = smc::Policy::smCentric();
  if (Mode.rfind("smc-headroom", 0) == 0) {
    // Room for an urgent CTA (256 threads: two best-effort CTAs) on every
    // SM; smc-headroom alone without yielding.
    int Fit = 0;
    CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Fit, tailSpin, 128, 0));
    BestEffort =
        smc::Policy::smCentric(unsigned(std::max(Fit - int(B.Headroom), 1)));
  }
  // reserve-originals: the urgent kernel reserved, the best effort's
  // originals (which keep no room).
  bool Reserve = Mode == "smc-reserve" || Mode == "reserve-originals";
  if (Mode == "smc-reserve" || Mode == "smc-target")
    BestEffort = smc::Policy::smCentric();
  if (Kind == "fma")
    B.fmaIterations(CtaUs); // before the policies, as the original
  setPolicies(BestEffort);
  if (Reserve) {
    smc::Policy Reserved = smc::Policy::original();
    Reserved.reserve = true;
    smc::setPolicy(tailUrgent, Reserved);
  }
  // smc-target: the runtime chooses how the urgent kernel gets in.  A
  // ratio is over the latency alone measured here, given in microseconds:
  // the runtime's own ratio is over the fastest launch it saw, which
  // beside a best effort that runs throughout is not the time alone.
  if (Mode == "smc-target") {
    smc::Policy Target = smc::Policy::original();
    double N = std::atof(B.P99.c_str());
    Target.p99Micros = B.P99.back() == 'x' ? N * B.UrgentAloneMs * 1e3 : N;
    smc::setPolicy(tailUrgent, Target);
  }
  smc::setPriorityMode(Mode == "smc-headroom" ? smc::PriorityMode::Off
                                              : smc::PriorityMode::Auto);
  B.Sync = calibrate(B.ClockWord); // %globaltimer drifts from the host clock
  cudaStream_t Low = B.Low;
  UrgentStream Urgent = Mode == "streams" ? B.Plain : B.High;
  if (Mode == "green") {
    std::string Error;
    const corun::GreenContexts::Split *S =
        B.Green.available() ? B.Green.split({B.GreenSms}, Error) : nullptr;
    if (!S) {
      R.Skipped = B.Green.available() ? Error : B.Green.reason();
      return R;
    }
    static UrgentStream GreenUrgent;
    if (GreenUrgent.Stream != S->Streams[0])
      GreenUrgent = urgentStream(S->Streams[0]);
    Urgent = GreenUrgent;
    Low = S->Streams[1];
  }

  // The best effort's queue-depth events live in its stream's context.
  std::vector<cudaEvent_t> Ring(B.Depth);
  std::string Error;
  struct Make {
    std::vector<cudaEvent_t> *Ring;
  } M{&Ring};
  if (!inContextOf(
          Low,
          [](void *P) {
            for (cudaEvent_t &E : *static_cast<Make *>(P)->Ring)
              CHECK(cudaEventCreateWithFlags(&E, cudaEventDisableTiming));
          },
          &M, Error)) {
    R.Skipped = Error;
    return R;
  }

  std::atomic<bool> Stop{false};
  std::atomic<unsigned long long> Launched{0};
  std::thread BestEffortThread([&] {
    for (unsigned long long N = 0; !Stop.load(); ++N) {
      cudaEvent_t E = Ring[N % Ring.size()];
      if (N >= Ring.size())
        CHECK(cudaEventSynchronize(E));
      B.launchBestEffort(Low, Kind, CtaUs);
      CHECK(cudaEventRecord(E, Low));
      Launched.fetch_add(1);
    }
    CHECK(cudaStreamSynchronize(Low));
  });
  auto Start = Clock::now();
  B.Launched = &Launched;
  B.ModeStart = Start;
  if (Arrivals == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  R.Arrivals = B.arrivals(Urgent, Arrivals);
  Stop.store(true);
  BestEffortThread.join();
  double Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  B.Launched = nullptr;
  R.CtasPerGrid = double(B.Sms) * 64;
  R.CtasPerSecond = double(Launched.load()) * R.CtasPerGrid / Seconds;
  for (cudaEvent_t E : Ring)
    CHECK(cudaEventDestroy(E));
  setPolicies(smc::Policy::original());
  return R;
}

} // namespace smc::tail
