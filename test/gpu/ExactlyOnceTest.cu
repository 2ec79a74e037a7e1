//===- ExactlyOnceTest.cu - Every chunk runs exactly once -----------------===//
//
// "Exactly once" (docs/DESIGN.md): whatever the hardware does with
// placement, every chunk (original CTA) runs exactly once.  Kernels count
// their chunks with one atomicAdd per CTA into count[linear blockIdx] and write
// a per-thread output; each test requires every count to be exactly the number
// of launches and the outputs to equal the original kernel's, for:
//  - grids from 1 CTA to 105000 CTAs in 1-D, 2-D and 3-D, in loop mode and
//    in one-chunk mode (a divergent return before a barrier);
//  - concurrent launches of one kernel on 4 streams, twice per stream;
//  - a co-running `hog` kernel that holds most SMs for ~50 ms, so that the
//    first wave of workers fills SMs unevenly;
//  - CUDA graphs with smc and slice launches, replayed 3 times, and two
//    instantiated graphs replayed concurrently on two streams;
//  - a graph that captures a kernel's very first launch.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <array>
#include <thread>

using namespace smctest;

//===--- Kernels (external linkage: the runtime finds variants by name) ---===//

// Loop mode: no return before a barrier.
__global__ void countChunks(uint32_t *Counts, uint32_t *Out, uint32_t Salt) {
  uint32_t Chunk = linearBlock();
  if (threadIdx.x == 0)
    atomicAdd(&Counts[Chunk], 1u);
  Out[static_cast<size_t>(Chunk) * blockDim.x + threadIdx.x] =
      mix32(Chunk ^ mix32(threadIdx.x ^ (Salt << 16)));
}

// One-chunk mode: threads at or above Active return before the barrier.
__global__ void countChunksEarlyExit(uint32_t *Counts, uint32_t *Out,
                                     uint32_t Active, uint32_t Salt) {
  __shared__ uint32_t S[1024];
  if (threadIdx.x >= Active)
    return;
  uint32_t Chunk = linearBlock();
  S[threadIdx.x] = mix32(Chunk ^ (Salt << 16) ^ threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(&Counts[Chunk], 1u);
  Out[static_cast<size_t>(Chunk) * blockDim.x + threadIdx.x] =
      S[Active - 1 - threadIdx.x];
}

// Spins for Nanoseconds of %globaltimer; holds its SM resources meanwhile.
__global__ void hog(unsigned long long Nanoseconds, uint32_t *Sink) {
  unsigned long long Start = __nvvm_read_ptx_sreg_globaltimer();
  uint32_t Spins = 0;
  while (__nvvm_read_ptx_sreg_globaltimer() - Start < Nanoseconds)
    ++Spins;
  if (Spins == 0xffffffffu)
    Sink[0] = Spins; // keeps the loop
}

// Launched for the first time inside a stream capture.
__global__ void graphFirstLaunch(const uint32_t *In, uint32_t *Out,
                                 uint32_t N) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I] * 3u + I;
}

//===--- Tests ------------------------------------------------------------===//

namespace {

using ExactlyOnce = SmcGpuTest;

// Counts and outputs of one launch shape.
struct CountRun {
  DeviceArray<uint32_t> Counts, Out;
  cudaError_t allocate(unsigned Chunks, unsigned Threads) {
    cudaError_t Err = Counts.allocate(Chunks);
    return Err != cudaSuccess
               ? Err
               : Out.allocate(static_cast<size_t>(Chunks) * Threads);
  }
  std::vector<Buffer> buffers(uint32_t ExpectedCount = 1) const {
    return {{Counts.get(), Counts.bytes(), Buffer::Counter, "counts",
             ExpectedCount},
            {Out.get(), Out.bytes(), Buffer::Output, "out"}};
  }
};

std::string gridName(dim3 G) {
  return std::to_string(G.x) + "x" + std::to_string(G.y) + "x" +
         std::to_string(G.z);
}

unsigned chunksOf(dim3 G) { return G.x * G.y * G.z; }

std::vector<dim3> exactlyOnceGrids() {
  return {dim3(1),      dim3(7),        dim3(numSMs() - 1), dim3(5000),
          dim3(100000), dim3(300, 350), dim3(40, 30, 20)};
}

TEST_F(ExactlyOnce, LoopModeGrids) {
  for (dim3 Grid : exactlyOnceGrids()) {
    SCOPED_TRACE("grid " + gridName(Grid));
    CountRun Run;
    SMC_CUDA_ASSERT(Run.allocate(chunksOf(Grid), 128));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(countChunks), Run.buffers(),
        [&] {
          countChunks<<<Grid, 128>>>(Run.Counts.get(), Run.Out.get(), 1);
          return cudaGetLastError();
        },
        standardPolicies(chunksOf(Grid))));
  }
}

TEST_F(ExactlyOnce, OneChunkModeGrids) {
  for (dim3 Grid : exactlyOnceGrids()) {
    SCOPED_TRACE("grid " + gridName(Grid));
    CountRun Run;
    SMC_CUDA_ASSERT(Run.allocate(chunksOf(Grid), 256));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(countChunksEarlyExit), Run.buffers(),
        [&] {
          countChunksEarlyExit<<<Grid, 256>>>(Run.Counts.get(), Run.Out.get(),
                                              200, 2);
          return cudaGetLastError();
        },
        standardPolicies(chunksOf(Grid))));
  }
}

// RAII for a set of non-blocking streams.
template <size_t N> struct Streams {
  std::array<cudaStream_t, N> S{};
  cudaError_t create() {
    for (cudaStream_t &X : S) {
      cudaError_t Err = cudaStreamCreateWithFlags(&X, cudaStreamNonBlocking);
      if (Err != cudaSuccess)
        return Err;
    }
    return cudaSuccess;
  }
  ~Streams() {
    for (cudaStream_t X : S)
      if (X)
        cudaStreamDestroy(X);
  }
};

// Four streams launch the same kernel concurrently, twice each, into their
// own counters and outputs (different salts): launches in flight at the same
// time must not share per-launch state, and launches that follow each other
// in one stream must not trip over the previous one's.
TEST_F(ExactlyOnce, ConcurrentStreams) {
  constexpr size_t NumStreams = 4;
  constexpr unsigned Threads = 128;
  Streams<NumStreams> St;
  SMC_CUDA_ASSERT(St.create());
  for (dim3 Grid : {dim3(2000), dim3(60), dim3(100, 90)}) {
    SCOPED_TRACE("grid " + gridName(Grid));
    const unsigned Chunks = chunksOf(Grid);
    std::array<CountRun, NumStreams> Runs;
    std::vector<Buffer> All;
    for (CountRun &R : Runs) {
      SMC_CUDA_ASSERT(R.allocate(Chunks, Threads));
      for (const Buffer &B : R.buffers(2))
        All.push_back(B);
    }
    auto LaunchAll = [&] {
      for (int Rep = 0; Rep < 2; ++Rep)
        for (size_t I = 0; I < NumStreams; ++I) {
          countChunks<<<Grid, Threads, 0, St.S[I]>>>(Runs[I].Counts.get(),
                                                     Runs[I].Out.get(),
                                                     static_cast<uint32_t>(I));
          cudaError_t Err = cudaGetLastError();
          if (Err != cudaSuccess)
            return Err;
        }
      return cudaSuccess;
    };
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(countChunks), All, LaunchAll, standardPolicies(Chunks)));
  }
}

// Eight host threads launch the same kernels at once, 16 times each, into
// their own counters: on their own streams, on the per-thread default
// stream, and on the legacy default stream that they all share.  Both a
// loop-mode and a one-chunk kernel; every chunk must be counted exactly 16
// times.  (The runtime's caches and counter blocks are shared between
// threads; the per-thread default stream needs one counter block per
// thread.)
TEST_F(ExactlyOnce, HostThreads) {
  constexpr int NumThreads = 8, Reps = 16;
  const dim3 Grid(3000);
  const unsigned Chunks = chunksOf(Grid);
  smc::setPolicy(countChunks, smc::Policy::smCentric());
  smc::setPolicy(countChunksEarlyExit, smc::Policy::smCentric());
  for (int Which : {0, 1, 2}) { // own stream, per-thread, legacy
    SCOPED_TRACE(Which == 0   ? "own streams"
                 : Which == 1 ? "per-thread default stream"
                              : "legacy default stream");
    std::array<CountRun, NumThreads> Loop, OneChunk;
    for (int T = 0; T < NumThreads; ++T) {
      SMC_CUDA_ASSERT(Loop[T].allocate(Chunks, 128));
      SMC_CUDA_ASSERT(OneChunk[T].allocate(Chunks, 256));
      SMC_CUDA_ASSERT(
          cudaMemset(Loop[T].Counts.get(), 0, Loop[T].Counts.bytes()));
      SMC_CUDA_ASSERT(
          cudaMemset(OneChunk[T].Counts.get(), 0, OneChunk[T].Counts.bytes()));
    }
    SMC_CUDA_ASSERT(cudaDeviceSynchronize());
    std::array<cudaError_t, NumThreads> Errors;
    std::vector<std::thread> Threads;
    for (int T = 0; T < NumThreads; ++T)
      Threads.emplace_back([&, T] {
        cudaError_t Err = cudaSetDevice(0);
        cudaStream_t S = nullptr;
        if (Err == cudaSuccess && Which == 0)
          Err = cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
        if (Which == 1)
          S = cudaStreamPerThread;
        for (int R = 0; R < Reps && Err == cudaSuccess; ++R) {
          countChunks<<<Grid, 128, 0, S>>>(Loop[T].Counts.get(),
                                           Loop[T].Out.get(), 1);
          countChunksEarlyExit<<<Grid, 256, 0, S>>>(
              OneChunk[T].Counts.get(), OneChunk[T].Out.get(), 200, 2);
          Err = cudaGetLastError();
        }
        if (Err == cudaSuccess)
          Err = cudaStreamSynchronize(S);
        if (Which == 0 && S)
          cudaStreamDestroy(S);
        Errors[T] = Err;
      });
    for (std::thread &Th : Threads)
      Th.join();
    for (int T = 0; T < NumThreads; ++T) {
      SMC_CUDA_ASSERT(Errors[T]);
      for (CountRun *Run : {&Loop[T], &OneChunk[T]}) {
        std::vector<uint32_t> Counts(Chunks);
        SMC_CUDA_ASSERT(cudaMemcpy(Counts.data(), Run->Counts.get(),
                                   Chunks * sizeof(uint32_t),
                                   cudaMemcpyDeviceToHost));
        for (unsigned C = 0; C < Chunks; ++C)
          ASSERT_EQ(Counts[C], uint32_t(Reps))
              << "thread " << T << " chunk " << C;
      }
    }
  }
  smc::clearPolicies();
}

// A hog kernel (policy original) holds most SMs for ~50 ms; the tested
// launch starts on another stream right after it, so its workers find SMs
// full, half full and empty.
TEST_F(ExactlyOnce, CoRunWithHog) {
  Streams<2> St;
  SMC_CUDA_ASSERT(St.create());
  cudaStream_t HogStream = St.S[0], TestStream = St.S[1];
  DeviceArray<uint32_t> Sink;
  SMC_CUDA_ASSERT(Sink.allocate(1));
  smc::setPolicy(hog, smc::Policy::original());
  // 1024-thread CTAs, 1.5 per SM: about half the SMs get two (full), the
  // others one.
  const unsigned HogGrid = numSMs() + numSMs() / 2;
  const unsigned long long HogNs = 50ull * 1000 * 1000;

  struct Case {
    const char *Kernel;
    dim3 Grid;
  };
  for (Case C : {Case{"loop", dim3(100)}, Case{"loop", dim3(5000)},
                 Case{"one-chunk", dim3(100)}, Case{"one-chunk", dim3(3000)}}) {
    bool Loop = std::string(C.Kernel) == "loop";
    SCOPED_TRACE(std::string(C.Kernel) + " grid " + gridName(C.Grid));
    CountRun Run;
    SMC_CUDA_ASSERT(Run.allocate(chunksOf(C.Grid), 256));
    auto Launch = [&] {
      hog<<<HogGrid, 1024, 0, HogStream>>>(HogNs, Sink.get());
      cudaError_t Err = cudaGetLastError();
      if (Err != cudaSuccess)
        return Err;
      if (Loop)
        countChunks<<<C.Grid, 256, 0, TestStream>>>(Run.Counts.get(),
                                                    Run.Out.get(), 3);
      else
        countChunksEarlyExit<<<C.Grid, 256, 0, TestStream>>>(
            Run.Counts.get(), Run.Out.get(), 170, 3);
      return cudaGetLastError();
    };
    const void *Kernel =
        Loop ? symbolOf(countChunks) : symbolOf(countChunksEarlyExit);
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        Kernel, Run.buffers(), Launch, standardPolicies(chunksOf(C.Grid))));
  }
}

// The launches a graph captures, with the policies set for each launch
// (the runtime decides at capture time).
struct GraphWork {
  static constexpr unsigned Threads = 128;
  dim3 LoopGrid = dim3(300), EarlyGrid = dim3(50, 7);
  std::array<CountRun, 4> Runs;

  cudaError_t allocate() {
    for (int I = 0; I < 4; ++I) {
      cudaError_t Err =
          Runs[I].allocate(chunksOf(I < 2 ? LoopGrid : EarlyGrid), Threads);
      if (Err != cudaSuccess)
        return Err;
    }
    return cudaSuccess;
  }
  std::vector<Buffer> buffers(uint32_t ExpectedCount) const {
    std::vector<Buffer> All;
    for (const CountRun &R : Runs)
      for (const Buffer &B : R.buffers(ExpectedCount))
        All.push_back(B);
    return All;
  }
  // With Original, every launch runs the original kernel (the reference).
  cudaError_t launch(cudaStream_t S, bool Original) {
    auto Pick = [&](const smc::Policy &P) {
      return Original ? smc::Policy::original() : P;
    };
    smc::setPolicy(countChunks, Pick(smc::Policy::smCentric()));
    countChunks<<<LoopGrid, Threads, 0, S>>>(Runs[0].Counts.get(),
                                             Runs[0].Out.get(), 10);
    smc::setPolicy(countChunks, Pick(smc::Policy::slice(7)));
    countChunks<<<LoopGrid, Threads, 0, S>>>(Runs[1].Counts.get(),
                                             Runs[1].Out.get(), 11);
    smc::setPolicy(
        countChunksEarlyExit,
        Pick(smc::Policy::smCentric(0, {}, smc::ChunkOrder::Interleaved)));
    countChunksEarlyExit<<<EarlyGrid, Threads, 0, S>>>(
        Runs[2].Counts.get(), Runs[2].Out.get(), 100, 12);
    smc::setPolicy(countChunksEarlyExit, Pick(smc::Policy::slice(7)));
    countChunksEarlyExit<<<EarlyGrid, Threads, 0, S>>>(
        Runs[3].Counts.get(), Runs[3].Out.get(), 77, 13);
    return cudaGetLastError();
  }
};

// Captures Work's launches (with their SMC policies) on S into an
// executable graph.
void captureGraph(GraphWork &Work, cudaStream_t S, cudaGraphExec_t &Exec) {
  cudaGraph_t Graph = nullptr;
  SMC_CUDA_ASSERT(cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal));
  cudaError_t LaunchErr = Work.launch(S, /*Original=*/false);
  cudaError_t EndErr = cudaStreamEndCapture(S, &Graph);
  SMC_CUDA_ASSERT(LaunchErr);
  SMC_CUDA_ASSERT(EndErr);
  cudaError_t InstErr = cudaGraphInstantiate(&Exec, Graph, 0);
  cudaGraphDestroy(Graph);
  SMC_CUDA_ASSERT(InstErr);
}

// Downloads every buffer of Work and compares it with Reference.
void expectGraphResults(const GraphWork &Work, uint32_t ExpectedCount,
                        const std::vector<Bytes> &Reference,
                        const std::string &What) {
  std::vector<Buffer> Bufs = Work.buffers(ExpectedCount);
  for (size_t I = 0; I < Bufs.size(); ++I) {
    Bytes Got(Bufs[I].Bytes);
    SMC_CUDA_ASSERT(cudaMemcpy(Got.data(), Bufs[I].Ptr, Bufs[I].Bytes,
                               cudaMemcpyDeviceToHost));
    if (Bufs[I].Role == Buffer::Counter)
      expectAllCountsAre(Got, ExpectedCount,
                         What + ": launch " + std::to_string(I / 2) +
                             " counts");
    else
      expectSameBytes(Reference[I], Got,
                      What + ": launch " + std::to_string(I / 2) + " out");
  }
}

TEST_F(ExactlyOnce, GraphReplay) {
  Streams<2> St;
  SMC_CUDA_ASSERT(St.create());
  GraphWork First, Second;
  SMC_CUDA_ASSERT(First.allocate());
  SMC_CUDA_ASSERT(Second.allocate());

  // Reference: the originals, run eagerly.
  std::vector<Buffer> Bufs = First.buffers(1);
  ASSERT_NO_FATAL_FAILURE(resetBuffers(Bufs));
  SMC_CUDA_ASSERT(First.launch(St.S[0], /*Original=*/true));
  SMC_CUDA_SYNC_ASSERT();
  std::vector<Bytes> Reference(Bufs.size());
  for (size_t I = 0; I < Bufs.size(); ++I) {
    Reference[I].resize(Bufs[I].Bytes);
    SMC_CUDA_ASSERT(cudaMemcpy(Reference[I].data(), Bufs[I].Ptr, Bufs[I].Bytes,
                               cudaMemcpyDeviceToHost));
    if (Bufs[I].Role == Buffer::Counter)
      expectAllCountsAre(Reference[I], 1, "original counts");
  }

  cudaGraphExec_t ExecFirst = nullptr, ExecSecond = nullptr;
  ASSERT_NO_FATAL_FAILURE(captureGraph(First, St.S[0], ExecFirst));
  ASSERT_NO_FATAL_FAILURE(captureGraph(Second, St.S[1], ExecSecond));
  smc::clearPolicies(); // The graphs keep what was decided at capture.

  // Replays of one graph, each on freshly reset buffers.
  for (int Replay = 0; Replay < 3; ++Replay) {
    ASSERT_NO_FATAL_FAILURE(resetBuffers(Bufs));
    SMC_CUDA_ASSERT(cudaGraphLaunch(ExecFirst, St.S[0]));
    SMC_CUDA_ASSERT(cudaStreamSynchronize(St.S[0]));
    SMC_CUDA_SYNC_ASSERT();
    ASSERT_NO_FATAL_FAILURE(expectGraphResults(
        First, 1, Reference, "replay " + std::to_string(Replay)));
  }

  // Two graphs replayed concurrently, 3 times each without a reset: every
  // chunk of every launch must have run 3 times.
  ASSERT_NO_FATAL_FAILURE(resetBuffers(First.buffers(3)));
  ASSERT_NO_FATAL_FAILURE(resetBuffers(Second.buffers(3)));
  for (int Replay = 0; Replay < 3; ++Replay) {
    SMC_CUDA_ASSERT(cudaGraphLaunch(ExecFirst, St.S[0]));
    SMC_CUDA_ASSERT(cudaGraphLaunch(ExecSecond, St.S[1]));
  }
  SMC_CUDA_SYNC_ASSERT();
  ASSERT_NO_FATAL_FAILURE(
      expectGraphResults(First, 3, Reference, "concurrent graph 1"));
  ASSERT_NO_FATAL_FAILURE(
      expectGraphResults(Second, 3, Reference, "concurrent graph 2"));

  SMC_CUDA_ASSERT(cudaGraphExecDestroy(ExecFirst));
  SMC_CUDA_ASSERT(cudaGraphExecDestroy(ExecSecond));
}

// graphFirstLaunch is launched nowhere else: its first launch happens inside
// a capture (global mode, the strictest), where the runtime may not do
// anything a capture forbids.  The result is checked against the host.
TEST_F(ExactlyOnce, GraphCapturesFirstLaunch) {
  Streams<1> St;
  SMC_CUDA_ASSERT(St.create());
  const uint32_t N = 100000 + 17;
  std::vector<uint32_t> In = randomWords(N, 21);
  DeviceArray<uint32_t> DIn, DOut;
  SMC_CUDA_ASSERT(DIn.upload(In));
  SMC_CUDA_ASSERT(DOut.allocate(N));

  // Every SM named: the grid is one wave, which the default policy would
  // run as the original (docs/light.md); the variant's first preparation
  // is what must happen inside the capture.
  smc::setPolicy(graphFirstLaunch,
                 smc::Policy::smCentric(0, smRange(0, numSMs())));
  cudaGraph_t Graph = nullptr;
  cudaGraphExec_t Exec = nullptr;
  SMC_CUDA_ASSERT(cudaStreamBeginCapture(St.S[0], cudaStreamCaptureModeGlobal));
  graphFirstLaunch<<<(N + 255) / 256, 256, 0, St.S[0]>>>(DIn.get(), DOut.get(),
                                                         N);
  cudaError_t LaunchErr = cudaGetLastError();
  cudaError_t EndErr = cudaStreamEndCapture(St.S[0], &Graph);
  SMC_CUDA_ASSERT(LaunchErr);
  SMC_CUDA_ASSERT(EndErr);
  cudaError_t InstErr = cudaGraphInstantiate(&Exec, Graph, 0);
  cudaGraphDestroy(Graph);
  SMC_CUDA_ASSERT(InstErr);

  for (int Replay = 0; Replay < 2; ++Replay) {
    SMC_CUDA_ASSERT(cudaMemset(DOut.get(), kPoison, DOut.bytes()));
    SMC_CUDA_SYNC_ASSERT();
    SMC_CUDA_ASSERT(cudaGraphLaunch(Exec, St.S[0]));
    SMC_CUDA_ASSERT(cudaStreamSynchronize(St.S[0]));
    SMC_CUDA_SYNC_ASSERT();
    std::vector<uint32_t> Out;
    SMC_CUDA_ASSERT(DOut.download(Out));
    size_t Wrong = 0;
    for (uint32_t I = 0; I < N; ++I)
      Wrong += Out[I] != In[I] * 3u + I;
    EXPECT_EQ(Wrong, 0u) << "replay " << Replay << ": wrong elements";
  }
  SMC_CUDA_ASSERT(cudaGraphExecDestroy(Exec));
}

} // namespace
