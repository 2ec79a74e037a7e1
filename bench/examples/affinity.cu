//===- affinity.cu - Affinity-based placement of a sparse matrix product --===//
//
// A CSR sparse matrix times a vector, one warp per row, whose rows read the
// vector mostly near the diagonal (a band, as in many discretized problems).
// The program is its own inspector: from the column indices it lists the
// vector's cache lines each CTA (chunk) reads, and smc::placeByAffinity
// places the chunks so that those that share lines run on the same SM.
// Prints what the placement chose and cost, the kernel's time as the
// original, as the SM-centric variant in its default (interleaved) order
// and as placed (events, best of 20 each, taken in turns), and whether the
// results are right: the same bytes as the original kernel's.
//
//   scripts/smc-clang++ -O2 -mllvm -smc-transforms=smc \
//       bench/examples/affinity.cu -o affinity && ./affinity
//===----------------------------------------------------------------------===//
#include "smc/smc.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

__global__ void spmvRows(const float *Vals, const int *Cols, const int *RowPtr,
                         const float *X, float *Y, int Rows) {
  int Lane = threadIdx.x & 31;
  int Row = int((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  if (Row >= Rows)
    return;
  float Sum = 0.0f;
  for (int K = RowPtr[Row] + Lane; K < RowPtr[Row + 1]; K += 32)
    Sum += Vals[K] * X[Cols[K]];
  for (int Offset = 16; Offset > 0; Offset >>= 1)
    Sum += __shfl_down_sync(0xffffffffu, Sum, Offset);
  if (Lane == 0)
    Y[Row] = Sum;
}

static bool check(cudaError_t Err, const char *What) {
  if (Err != cudaSuccess)
    std::fprintf(stderr, "affinity: %s: %s\n", What, cudaGetErrorString(Err));
  return Err == cudaSuccess;
}

template <typename T> static T *upload(const std::vector<T> &Host) {
  T *Device = nullptr;
  if (check(cudaMalloc(&Device, Host.size() * sizeof(T)), "cudaMalloc"))
    check(cudaMemcpy(Device, Host.data(), Host.size() * sizeof(T),
                     cudaMemcpyHostToDevice),
          "upload");
  return Device;
}

int main() {
  // 2^21 rows of 24 entries, 80% of them within 512 columns of the
  // diagonal.  Small integers: every sum is exact, in any order.
  const int Rows = 1 << 21, PerRow = 24, Block = 256;
  const int RowsPerCta = Block / 32;
  std::mt19937 Rng(7);
  std::vector<int> RowPtr(Rows + 1, 0), Cols;
  std::vector<float> Vals, X(Rows);
  for (int R = 0; R < Rows; ++R) {
    for (int K = 0; K < PerRow; ++K) {
      int C = Rng() % 10 < 8 ? (R + int(Rng() % 1025) - 512 + Rows) % Rows
                             : int(Rng() % Rows);
      Cols.push_back(C);
      Vals.push_back(float(int(Rng() % 9) - 4));
    }
    RowPtr[R + 1] = int(Cols.size());
  }
  for (float &V : X)
    V = float(int(Rng() % 9) - 4);
  const float *DVals = upload(Vals), *DX = upload(X);
  const int *DCols = upload(Cols), *DRowPtr = upload(RowPtr);
  float *DY = nullptr;
  if (!check(cudaMalloc(&DY, Rows * sizeof(float)), "cudaMalloc"))
    return 1;
  unsigned Ctas = (Rows + RowsPerCta - 1) / RowsPerCta;
  auto Launch = [&] {
    spmvRows<<<Ctas, Block>>>(DVals, DCols, DRowPtr, DX, DY, Rows);
  };
  auto Result = [&] {
    std::vector<float> Y(Rows);
    check(
        cudaMemcpy(Y.data(), DY, Rows * sizeof(float), cudaMemcpyDeviceToHost),
        "download");
    return Y;
  };

  // The reference: the original kernel.
  smc::setPolicy(spmvRows, smc::Policy::original());
  Launch();
  std::vector<float> Reference = Result();

  // The inspector: the lines of X that each CTA's rows read.
  auto Inspect = [&] {
    smc::ChunkFootprint F;
    F.begin.push_back(0);
    for (int First = 0; First < Rows; First += RowsPerCta) {
      for (int R = First; R < std::min(First + RowsPerCta, Rows); ++R)
        for (int K = RowPtr[R]; K < RowPtr[R + 1]; ++K)
          F.blocks.push_back(uint64_t(Cols[K]) * sizeof(float) / 128);
      F.begin.push_back(F.blocks.size());
    }
    return F;
  };
  smc::AffinityReport Report =
      smc::placeByAffinity(spmvRows, /*signature=*/1, Inspect);
  if (!Report.ok) {
    std::fprintf(stderr, "affinity: %s\n", Report.error.c_str());
    return 1;
  }
  const char *Order = Report.order == smc::ChunkOrder::Table ? "table"
                      : Report.order == smc::ChunkOrder::Contiguous
                          ? "contiguous"
                          : "interleaved";
  std::printf("placement: %u chunks on %u SMs, order %s; affinity kept: "
              "%.3f (interleaved order %.3f, contiguous %.3f)\n",
              Report.chunks, Report.parts, Order, Report.keptAffinity,
              Report.interleavedAffinity, Report.contiguousAffinity);
  std::printf("placement cost: inspect %.0f ms, graph %.0f ms, partition "
              "%.0f ms\n",
              Report.inspectSeconds * 1e3, Report.graphSeconds * 1e3,
              Report.partitionSeconds * 1e3);
  check(cudaMemset(DY, 0xff, Rows * sizeof(float)), "cudaMemset");
  Launch();
  bool Right = Result() == Reference;

  // Times: best of 20 of each form, taken in turns.  The placed form is set
  // by placeByAffinity again, which its cache answers.
  bool Cached = true;
  auto SetForm = [&](int F) {
    if (F == 0)
      smc::setPolicy(spmvRows, smc::Policy::original());
    else if (F == 1)
      smc::setPolicy(spmvRows, smc::Policy::smCentric());
    else
      Cached = smc::placeByAffinity(spmvRows, 1, Inspect).cached && Cached;
  };
  const char *Names[3] = {"original", "smc (interleaved)", "smc (placed)"};
  float Best[3] = {1e30f, 1e30f, 1e30f};
  cudaEvent_t Start, Stop;
  cudaEventCreate(&Start);
  cudaEventCreate(&Stop);
  for (int Round = 0; Round < 20; ++Round)
    for (int F = 0; F < 3; ++F) {
      SetForm(F);
      Launch(); // a warm-up that also loads the variant
      cudaEventRecord(Start);
      Launch();
      cudaEventRecord(Stop);
      float Ms = 0;
      if (!check(cudaEventSynchronize(Stop), "running"))
        return 1;
      cudaEventElapsedTime(&Ms, Start, Stop);
      Best[F] = std::min(Best[F], Ms);
      Right = Right && Result() == Reference;
    }
  for (int F = 0; F < 3; ++F)
    std::printf("%-18s %.3f ms\n", Names[F], Best[F]);
  std::printf("placeByAffinity again: %s\n", Cached ? "cached" : "rebuilt");
  std::printf("results %s\n", Right ? "right" : "WRONG");
  return Right && Cached ? 0 : 1;
}
