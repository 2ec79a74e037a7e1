//===- batch.cu - smc::Batch: two streams' kernels, laid out by measuring
//--===//
//
// A memory-bound triad on one stream and a compute-bound chain on another,
// recorded into an smc::Batch and run again and again.  The batch's default
// mode (smc::Batch::Mode::Search) tries a layout per batch - which kernels
// share the GPU, whole, in slices or as persistent workers - and keeps the
// fastest.  Prints the time of the same launches on plain streams, the
// first and the last batch's time and layout, and whether the results are
// right: the same bytes as the launches made one by one, outside a batch.
//
//   scripts/smc-clang++ -O2 -mllvm -smc-transforms=smc,slice \
//       bench/examples/batch.cu -o batch && ./batch
//===----------------------------------------------------------------------===//
#include "smc/smc.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

__global__ void triad(float *A, const float *B, const float *C, float S,
                      unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    A[I] = B[I] + S * C[I];
}

__global__ void chain(float *Out, int Iterations) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  float X = I * 1e-6f;
  for (int K = 0; K < Iterations; ++K)
    X = X * 0.999f + 0.001f;
  Out[I] = X;
}

static bool check(cudaError_t Err, const char *What) {
  if (Err != cudaSuccess)
    std::fprintf(stderr, "batch: %s: %s\n", What, cudaGetErrorString(Err));
  return Err == cudaSuccess;
}

int main() {
  const unsigned N = 1u << 26, Chains = 132 * 2048;
  const int Iterations = 20000, Batches = 120;
  float *A, *B, *C, *Out;
  cudaStream_t Memory, Compute;
  if (!check(cudaMalloc(&A, N * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&B, N * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&C, N * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&Out, Chains * sizeof(float)), "cudaMalloc") ||
      !check(cudaStreamCreateWithFlags(&Memory, cudaStreamNonBlocking),
             "cudaStreamCreate") ||
      !check(cudaStreamCreateWithFlags(&Compute, cudaStreamNonBlocking),
             "cudaStreamCreate"))
    return 1;
  std::vector<float> Ones(N, 1.0f);
  check(cudaMemcpy(B, Ones.data(), N * sizeof(float), cudaMemcpyHostToDevice),
        "upload");
  check(cudaMemcpy(C, Ones.data(), N * sizeof(float), cudaMemcpyHostToDevice),
        "upload");

  // The reference: the same launches, one by one.
  auto Launch = [&] {
    for (int Rep = 0; Rep < 4; ++Rep)
      triad<<<N / 256, 256, 0, Memory>>>(A, B, C, 2.0f, N);
    cudaMemsetAsync(Out, 0, Chains * sizeof(float), Compute);
    chain<<<Chains / 256, 256, 0, Compute>>>(Out, Iterations);
  };
  // Both outputs, as the host sees them.
  auto Download = [&] {
    std::vector<float> HostA(N), HostOut(Chains);
    check(
        cudaMemcpy(HostA.data(), A, N * sizeof(float), cudaMemcpyDeviceToHost),
        "download");
    check(cudaMemcpy(HostOut.data(), Out, Chains * sizeof(float),
                     cudaMemcpyDeviceToHost),
          "download");
    return std::make_pair(HostA, HostOut);
  };
  Launch();
  auto Reference = Download();
  auto Time = [](auto &&Run) {
    auto Start = std::chrono::steady_clock::now();
    Run();
    check(cudaDeviceSynchronize(), "running");
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - Start)
        .count();
  };
  double StreamsMs = 1e30;
  for (int Round = 0; Round < 10; ++Round)
    StreamsMs = std::min(StreamsMs, Time(Launch));
  check(cudaMemset(A, 0xff, N * sizeof(float)), "cudaMemset");
  check(cudaMemset(Out, 0xff, Chains * sizeof(float)), "cudaMemset");

  double FirstMs = 0, LastMs = 0;
  std::string FirstLayout, LastLayout;
  for (int Round = 0; Round < Batches; ++Round) {
    smc::Batch Batch;
    Batch.begin();
    Launch();
    Batch.end();
    std::string Error;
    bool Ran = true;
    double Ms =
        Time([&] { Ran = Batch.run(smc::Batch::Mode::Search, &Error); });
    if (!Ran) {
      std::fprintf(stderr, "batch: %s\n", Error.c_str());
      return 1;
    }
    std::string Text = Batch.describe();
    std::string Layout = Text.substr(Text.find("layout"));
    Layout = Layout.substr(0, Layout.find('\n'));
    if (Round == 0) {
      FirstMs = Ms;
      FirstLayout = Layout;
    }
    LastMs = Ms;
    LastLayout = Layout;
  }

  bool Right = Download() == Reference && Reference.first[0] == 3.0f;
  std::printf("plain streams: %.3f ms (best of 10)\n", StreamsMs);
  std::printf("batch 1: %.3f ms (%s)\n", FirstMs, FirstLayout.c_str());
  std::printf("batch %d: %.3f ms (%s)\n", Batches, LastMs, LastLayout.c_str());
  std::printf("results %s\n", Right ? "right" : "WRONG");
  return Right ? 0 : 1;
}
