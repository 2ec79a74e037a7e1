//===- AutoTest.cu - Policy auto: the co-run scheduler per launch ---------===//
//
// Launches of policy auto are decided by the runtime from kernel profiles
// and the launches of policy auto in flight.  These tests require:
//  - a launch beside another one in flight, whose profiles predict that a
//    partition beats sharing, runs only on the SMs chooseAuto gives it, and
//    every chunk of both runs exactly once;
//  - without profiles, alone or beside others, every launch runs each chunk
//    exactly once;
//  - co-runs from several host threads, each with its own stream and
//    kernel, under profiles that predict partitions, keep exactly once;
//  - a co-run that recurs is measured: the model's partition first, then
//    sharing, then every variant on every SM and the climb, until it
//    settles on what was measured best (a partition only if it beat
//    sharing by the margin), every chunk of every launch run once
//    throughout;
//  - SMC_PROFILE_RECORD records every point of the ladder over two runs of
//    a program and keeps the samples of the first run; a kernel no SM set
//    confines (one chunk per worker) runs, and gets no profile;
//  - a missing or malformed profile file is refused with a message.
// Timings are not conditions here; bench/corun measures them.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"
#include "corun/AutoPolicy.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace smctest;

//===--- Kernels ----------------------------------------------------------===//

// Each chunk spins for Nanoseconds of %globaltimer, counts itself and
// records its SM.  Two kernels, because profiles are per kernel.
__device__ void spinChunk(uint32_t *Counts, uint32_t *SmOf,
                          unsigned long long Nanoseconds) {
  uint32_t Chunk = blockIdx.x + blockIdx.y * gridDim.x;
  if (threadIdx.x == 0) {
    SmOf[Chunk] = __nvvm_read_ptx_sreg_smid();
    atomicAdd(&Counts[Chunk], 1u);
  }
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  while (__nvvm_read_ptx_sreg_globaltimer() - Begin < Nanoseconds) {
  }
}

__global__ void autoLong(uint32_t *Counts, uint32_t *SmOf,
                         unsigned long long Nanoseconds) {
  spinChunk(Counts, SmOf, Nanoseconds);
}

__global__ void autoShort(uint32_t *Counts, uint32_t *SmOf,
                          unsigned long long Nanoseconds) {
  spinChunk(Counts, SmOf, Nanoseconds);
}

__global__ void autoThird(uint32_t *Counts, uint32_t *SmOf,
                          unsigned long long Nanoseconds) {
  spinChunk(Counts, SmOf, Nanoseconds);
}

// Threads at or past Limit leave before a barrier the others reach: its
// __smc runs one chunk per worker, which no SM set confines, so it must not
// get a profile.  The barrier is __syncthreads_count, which drained exits
// cannot take either: one chunk per worker also in a build with
// -DSMC_DRAINED_EXITS=ON.
__global__ void autoEarlyExit(uint32_t *Counts, unsigned Limit) {
  if (threadIdx.x >= Limit)
    return;
  if (__syncthreads_count(1) == 0)
    return;
  if (threadIdx.x == 0)
    atomicAdd(&Counts[blockIdx.x], 1u);
}

namespace {

using Auto = SmcGpuTest;

constexpr unsigned BlockThreads = 64;

struct OwnStream {
  cudaStream_t S = nullptr;
  OwnStream() { cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking); }
  ~OwnStream() { cudaStreamDestroy(S); }
};

// One kernel's buffers and launches.
struct SpinRun {
  using Kernel = void (*)(uint32_t *, uint32_t *, unsigned long long);
  Kernel K;
  const char *Name;
  dim3 Grid;
  DeviceArray<uint32_t> Counts, SmOf;

  SpinRun(Kernel K, const char *Name, dim3 Grid)
      : K(K), Name(Name), Grid(Grid) {}
  uint32_t chunks() const { return Grid.x * Grid.y; }
  cudaError_t init() { return allocateZeroed(chunks(), Counts, SmOf); }
  cudaError_t launch(cudaStream_t Stream, unsigned long long Nanoseconds) {
    K<<<Grid, BlockThreads, 0, Stream>>>(Counts.get(), SmOf.get(), Nanoseconds);
    return cudaGetLastError();
  }
  // The name of this launch configuration's profile.
  std::string profileName() const {
    const unsigned G[3] = {Grid.x, Grid.y, Grid.z};
    const unsigned B[3] = {BlockThreads, 1, 1};
    return smc::profileName(Name, G, B);
  }
};

// Scales perfectly up to Sat SMs, not at all beyond (Sat = NumSms: every
// SM helps).
void addSaturating(smc::ProfileSet &Set, const std::string &Name, unsigned Sat,
                   double Alone) {
  smc::KernelProfile &P = Set.profile(Name);
  for (unsigned Sms : {Sat / 4, Sat / 2, Sat})
    EXPECT_TRUE(P.addSample({Sms, 0, Alone * Sat / Sms}));
  if (Sat != Set.deviceSms())
    EXPECT_TRUE(P.addSample({Set.deviceSms(), 0, Alone}));
}

// Loads profiles in which `Saturating` saturates at 32 SMs and `Scaling`
// uses every SM: a split of 32 and the rest is predicted to beat sharing.
void loadSplitProfiles(const std::vector<std::string> &Saturating,
                       const std::vector<std::string> &Scaling,
                       TempFile &File) {
  smc::ProfileSet Set("test device", numSMs());
  for (const std::string &Name : Saturating)
    addSaturating(Set, Name, 32, 1e-3);
  for (const std::string &Name : Scaling)
    addSaturating(Set, Name, numSMs(), 2e-3);
  File.write(Set.toJson());
  std::string Error;
  ASSERT_TRUE(smc::loadProfiles(File.Path, &Error)) << Error;
}

// Waits for the request loops' threads, then requires that none failed.
void joinLoops(std::vector<std::thread> &Threads,
               const std::vector<cudaError_t> &Errors) {
  for (std::thread &Thread : Threads)
    Thread.join();
  for (cudaError_t Err : Errors)
    SMC_CUDA_ASSERT(Err);
}

smc::CoRunKernel coRunKernel(const smc::ProfileSet &Set,
                             const std::string &Name) {
  smc::CoRunKernel K;
  K.Name = Name;
  K.Profile = Set.find(Name);
  return K;
}

} // namespace

TEST_F(Auto, PartitionConfinesALaunchBesideAnother) {
  SMC_SKIP_UNDER_STATS("SMC_STATS serializes SM-centric launches");
  unsigned Sms = numSMs();
  ASSERT_GE(Sms, 40u);
  // The long kernel: 8 waves of 100 us CTAs at 32 CTAs per SM, as the
  // original (it is alone when it starts).
  SpinRun Long(autoLong, "autoLong", dim3(32 * Sms, 8));
  SpinRun Short(autoShort, "autoShort", dim3(4 * Sms));
  SMC_CUDA_ASSERT(Long.init());
  SMC_CUDA_ASSERT(Short.init());
  TempFile Profiles;
  loadSplitProfiles({Short.profileName()}, {Long.profileName()}, Profiles);
  // The first use of a variant may wait for the GPU (module loading): run
  // the short kernel's SM-centric variant once first.
  smc::setPolicy(autoShort, smc::Policy::smCentric(0, smRange(0, 8)));
  SMC_CUDA_ASSERT(Short.launch(nullptr, 0));
  SMC_CUDA_SYNC_ASSERT();
  SMC_CUDA_ASSERT(cudaMemset(Short.Counts.get(), 0, Short.Counts.bytes()));
  smc::clearPolicies();
  smc::setPolicy("*", smc::Policy::automatic());

  OwnStream A, B;
  cudaEvent_t LongDone;
  SMC_CUDA_ASSERT(cudaEventCreate(&LongDone));
  // Round 0 loads the kernels and prepares the confined launch (the first
  // use of a variant may wait for the GPU); round 1 is checked.
  bool LongStillRan = false;
  for (uint32_t Round = 0; Round < 2; ++Round) {
    SMC_CUDA_ASSERT(Long.launch(A.S, 100000));
    SMC_CUDA_ASSERT(cudaEventRecord(LongDone, A.S));
    SMC_CUDA_ASSERT(Short.launch(B.S, 20000));
    LongStillRan = cudaEventQuery(LongDone) == cudaErrorNotReady;
    cudaGetLastError();
    SMC_CUDA_SYNC_ASSERT();
    EXPECT_TRUE(allCountsAre(Long.Counts, Round + 1));
    EXPECT_TRUE(allCountsAre(Short.Counts, Round + 1));
  }
  cudaEventDestroy(LongDone);
  ASSERT_TRUE(LongStillRan) << "the long kernel ended before the short one "
                               "was launched; the test proves nothing";

  // The share the scheduler computes for these profiles.
  smc::ProfileSet Set;
  std::string Error;
  ASSERT_TRUE(Set.load(Profiles.read(), Error)) << Error;
  smc::CoRunKernel L = coRunKernel(Set, Long.profileName()),
                   S = coRunKernel(Set, Short.profileName());
  smc::CoRunOptions Options;
  Options.NumSms = Sms;
  smc::CoRunDecision D = smc::decide(smc::decisionOrder({L, S}), Options);
  smc::AutoChoice Choice =
      smc::chooseAuto({{L, smc::KernelShare()}}, S, false, D, Sms);
  ASSERT_TRUE(Choice.Confine) << Choice.Reason;
  auto ChunksOutside = [&] {
    std::vector<uint32_t> SmOf;
    EXPECT_EQ(Short.SmOf.download(SmOf), cudaSuccess);
    size_t Outside = 0;
    for (uint32_t Sm : SmOf)
      Outside += Sm < Choice.Share.FirstSm ||
                 Sm >= Choice.Share.FirstSm + Choice.Share.NumSms;
    return Outside;
  };
  EXPECT_EQ(ChunksOutside(), 0u)
      << "chunks of the short kernel ran outside SMs " << Choice.Share.FirstSm
      << "-" << Choice.Share.FirstSm + Choice.Share.NumSms - 1;

  // The choice made for the stream's last launch is reused only for the
  // same co-runners: alone, the same launch runs the original (its CTAs
  // wherever the hardware puts them, 4 per SM on every SM); beside the
  // long kernel again, it is confined again.
  SMC_CUDA_ASSERT(Short.launch(B.S, 20000));
  SMC_CUDA_SYNC_ASSERT();
  EXPECT_TRUE(allCountsAre(Short.Counts, 3));
  EXPECT_GT(ChunksOutside(), 0u) << "alone, the short kernel stayed confined";
  SMC_CUDA_ASSERT(Long.launch(A.S, 100000));
  SMC_CUDA_ASSERT(Short.launch(B.S, 20000));
  SMC_CUDA_SYNC_ASSERT();
  EXPECT_TRUE(allCountsAre(Long.Counts, 3));
  EXPECT_TRUE(allCountsAre(Short.Counts, 4));
  EXPECT_EQ(ChunksOutside(), 0u) << "beside the long kernel again, the short "
                                    "one was not confined";
}

TEST_F(Auto, WithoutProfilesEveryChunkRunsOnce) {
  TempFile Empty(smc::ProfileSet("test device", numSMs()).toJson());
  std::string Error;
  ASSERT_TRUE(smc::loadProfiles(Empty.Path, &Error)) << Error;
  ASSERT_TRUE(smc::setPolicyText("*=auto", &Error)) << Error;
  SpinRun First(autoLong, "autoLong", dim3(3 * numSMs(), 2));
  SpinRun Second(autoShort, "autoShort", dim3(5 * numSMs()));
  SMC_CUDA_ASSERT(First.init());
  SMC_CUDA_ASSERT(Second.init());
  OwnStream A, B;
  for (int I = 0; I < 5; ++I) {
    SMC_CUDA_ASSERT(First.launch(A.S, 20000));
    SMC_CUDA_ASSERT(Second.launch(B.S, 5000));
  }
  SMC_CUDA_SYNC_ASSERT();
  EXPECT_TRUE(allCountsAre(First.Counts, 5));
  EXPECT_TRUE(allCountsAre(Second.Counts, 5));
}

TEST_F(Auto, HostThreadsWithPredictedPartitionsKeepExactlyOnce) {
  unsigned Sms = numSMs();
  SpinRun Runs[] = {{autoLong, "autoLong", dim3(6 * Sms)},
                    {autoShort, "autoShort", dim3(2 * Sms, 3)},
                    {autoThird, "autoThird", dim3(Sms + 7)}};
  for (SpinRun &Run : Runs)
    SMC_CUDA_ASSERT(Run.init());
  TempFile Profiles;
  loadSplitProfiles({Runs[1].profileName(), Runs[2].profileName()},
                    {Runs[0].profileName()}, Profiles);
  smc::setPolicy("*", smc::Policy::automatic());
  constexpr int Launches = 30;
  std::vector<std::thread> Threads;
  std::vector<cudaError_t> Errors(3, cudaSuccess);
  for (int T = 0; T < 3; ++T)
    Threads.emplace_back([&, T] {
      cudaStream_t Stream;
      cudaError_t Err =
          cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking);
      std::mt19937 Random(T + 1);
      for (int I = 0; I < Launches && Err == cudaSuccess; ++I) {
        Err = Runs[T].launch(Stream, 1000 + Random() % 30000);
        // Sometimes wait, so that the next launch finds its stream idle
        // and may be confined.
        if (Err == cudaSuccess && Random() % 2)
          Err = cudaStreamSynchronize(Stream);
      }
      if (Err == cudaSuccess)
        Err = cudaStreamSynchronize(Stream);
      cudaStreamDestroy(Stream);
      Errors[T] = Err;
    });
  joinLoops(Threads, Errors);
  for (SpinRun &Run : Runs)
    EXPECT_TRUE(allCountsAre(Run.Counts, Launches)) << Run.Name;
}

TEST_F(Auto, RecurringCoRunIsMeasuredUntilItSettles) {
  SMC_SKIP_UNDER_STATS("SMC_STATS serializes SM-centric launches");
  unsigned Sms = numSMs();
  ASSERT_GE(Sms, 40u);
  SpinRun Runs[] = {{autoLong, "autoLong", dim3(3 * Sms)},
                    {autoShort, "autoShort", dim3(2 * Sms)}};
  for (SpinRun &Run : Runs)
    SMC_CUDA_ASSERT(Run.init());
  TempFile Profiles;
  loadSplitProfiles({Runs[1].profileName()}, {Runs[0].profileName()}, Profiles);
  smc::setPolicy("*", smc::Policy::automatic());
  auto TrialsOfPair = [&]() -> std::optional<smc::CoRunTrials> {
    for (smc::CoRunTrials &T : smc::autoCoRunTrials())
      if (T.names().find(Runs[0].profileName()) != std::string::npos &&
          T.names().find(Runs[1].profileName()) != std::string::npos)
        return T;
    return std::nullopt;
  };
  // Two request loops, each launching and waiting, until the co-run
  // settles (thread 0 looks every 8 launches).
  constexpr unsigned MaxLaunches = 3000;
  std::atomic<bool> Settled{false};
  unsigned Launches[2] = {0, 0};
  std::vector<cudaError_t> Errors(2, cudaSuccess);
  std::vector<std::thread> Threads;
  for (int T = 0; T < 2; ++T)
    Threads.emplace_back([&, T] {
      cudaStream_t Stream;
      cudaError_t Err =
          cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking);
      while (Err == cudaSuccess && !Settled && Launches[T] < MaxLaunches) {
        Err = Runs[T].launch(Stream, T == 0 ? 200000 : 150000);
        if (Err == cudaSuccess)
          Err = cudaStreamSynchronize(Stream);
        ++Launches[T];
        if (T == 0 && Launches[T] % 8 == 0) {
          std::optional<smc::CoRunTrials> Trials = TrialsOfPair();
          Settled = Trials && Trials->settled();
        }
      }
      cudaStreamDestroy(Stream);
      Errors[T] = Err;
    });
  joinLoops(Threads, Errors);
  for (int T = 0; T < 2; ++T)
    EXPECT_TRUE(allCountsAre(Runs[T].Counts, Launches[T])) << Runs[T].Name;

  std::optional<smc::CoRunTrials> Trials = TrialsOfPair();
  ASSERT_TRUE(Trials) << "the co-run was never tried";
  ASSERT_TRUE(Trials->settled())
      << "not settled after " << Launches[0] << " and " << Launches[1]
      << " launches: " << Trials->measured().size() << " trials measured";
  const std::vector<smc::CoRunTrials::Trial> &Measured = Trials->measured();
  ASSERT_GE(Measured.size(), 3u);
  EXPECT_EQ(Measured[0].Decision.Kind, smc::CoRunKind::Partition)
      << "the model's partition is tried first";
  EXPECT_EQ(Measured[1].Decision.Kind, smc::CoRunKind::Shared)
      << "sharing is tried second";
  ASSERT_TRUE(Trials->sharedStp());
  const smc::CoRunTrials::Trial *Best = nullptr;
  for (const smc::CoRunTrials::Trial &T : Measured) {
    EXPECT_TRUE(std::isfinite(T.Stp) && T.Stp > 0) << T.Decision.Reason;
    if (T.Decision.Kind == smc::CoRunKind::Partition &&
        (!Best || T.Stp > Best->Stp))
      Best = &T;
  }
  ASSERT_TRUE(Best);
  const smc::CoRunDecision &Chosen = Trials->decision();
  if (Chosen.Kind == smc::CoRunKind::Partition) {
    EXPECT_GT(Best->Stp, *Trials->sharedStp() * 1.02) << Chosen.Reason;
    EXPECT_EQ(Chosen.Shares, Best->Decision.Shares) << Chosen.Reason;
  } else {
    EXPECT_LE(Best->Stp, *Trials->sharedStp() * 1.02) << Chosen.Reason;
  }
  std::printf("[ info     ] %s\n", Chosen.Reason.c_str());
}

// The child of RecordsEveryPointOfTheLadder: 11 launches of autoShort and
// 11 of autoEarlyExit under policy auto (the first of each warms up,
// unrecorded); 0 if every chunk of both ran 11 times.
int recordAutoLaunches() {
  smc::setPolicy("*", smc::Policy::automatic());
  SpinRun Run(autoShort, "autoShort", dim3(4 * numSMs()));
  DeviceArray<uint32_t> ExitCounts;
  if (Run.init() != cudaSuccess ||
      allocateZeroed(2 * numSMs(), ExitCounts) != cudaSuccess)
    return 2;
  for (int I = 0; I < 11; ++I) {
    if (Run.launch(nullptr, 10000) != cudaSuccess)
      return 3;
    autoEarlyExit<<<2 * numSMs(), BlockThreads>>>(ExitCounts.get(), 40);
    if (cudaGetLastError() != cudaSuccess)
      return 3;
  }
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 4;
  std::vector<uint32_t> Counts, Exits;
  if (Run.Counts.download(Counts) != cudaSuccess ||
      ExitCounts.download(Exits) != cudaSuccess)
    return 5;
  for (const std::vector<uint32_t> *V : {&Counts, &Exits})
    for (uint32_t C : *V)
      if (C != 11)
        return 6;
  return 0;
}

TEST_F(Auto, RecordsEveryPointOfTheLadder) {
  char Self[4096];
  ssize_t Len = readlink("/proc/self/exe", Self, sizeof Self - 1);
  ASSERT_GT(Len, 0);
  Self[Len] = '\0';
  TempFile Record, Messages;
  std::remove(Record.Path.c_str()); // a first run finds no file
  // SMC_STATS off: the child must not overwrite check_stats.py's file.
  std::string Command = "SMC_STATS= SMC_PROFILE_RECORD='" + Record.Path +
                        "' '" + Self + "' --smc-auto-record 2>'" +
                        Messages.Path + "'";
  SpinRun Run(autoShort, "autoShort", dim3(4 * numSMs()));
  std::vector<unsigned> Ladder = smc::recordLadder(numSMs());
  for (unsigned Runs = 1; Runs <= 2; ++Runs) {
    ASSERT_EQ(std::system(Command.c_str()), 0) << Command << "\n"
                                               << Messages.read();
    smc::ProfileSet Set;
    std::string Error;
    ASSERT_TRUE(Set.load(Record.read(), Error))
        << Error << "\nthe child said: " << Messages.read();
    EXPECT_NE(Messages.read().find("smc: profiles of 1 launch configurations"),
              std::string::npos)
        << Messages.read();
    EXPECT_EQ(Set.deviceSms(), numSMs());
    const smc::KernelProfile *P = Set.find(Run.profileName());
    ASSERT_NE(P, nullptr) << "no profile named '" << Run.profileName() << "'";
    // 10 recorded launches per run walk the ladder of 5 points in turn.
    ASSERT_EQ(P->points().size(), Ladder.size());
    for (const smc::ScalingPoint &Point : P->points()) {
      EXPECT_EQ(Point.WorkersPerSm, 0u);
      EXPECT_EQ(Point.Samples, 10 * Runs / Ladder.size()) << Point.Sms;
      EXPECT_GT(Point.Seconds, 0.0);
    }
    for (unsigned Sms : Ladder)
      EXPECT_TRUE(P->timeOn(Sms, 0).has_value()) << Sms;
    // The one-chunk kernel ran, and was not profiled.
    EXPECT_EQ(Set.profiles().size(), 1u);
    EXPECT_NE(Messages.read().find("kernel 'autoEarlyExit': "
                                   "SMC_PROFILE_RECORD: not profiled"),
              std::string::npos)
        << Messages.read();
  }
}

TEST_F(Auto, BadProfileFilesAreRefused) {
  std::string Error;
  EXPECT_FALSE(smc::loadProfiles("/nonexistent/smc-profile.json", &Error));
  EXPECT_NE(Error.find("cannot read '/nonexistent/smc-profile.json'"),
            std::string::npos)
      << Error;
  TempFile Bad("{\"format\": \"something else\"}");
  EXPECT_FALSE(smc::loadProfiles(Bad.Path, &Error));
  EXPECT_NE(Error.find("smc::loadProfiles: '" + Bad.Path + "'"),
            std::string::npos)
      << Error;
  EXPECT_NE(Error.find("\"format\" must be \"smc-profile\""), std::string::npos)
      << Error;
}
