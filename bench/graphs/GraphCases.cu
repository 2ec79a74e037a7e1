//===- GraphCases.cu - Stream captures of branches, result comparisons ----===//
//
// The BranchCapture of smc_graph_bench's cases (GraphCases.h): an origin
// stream forks up to MaxBranches branch streams and joins them again, all
// inside one stream capture, with every launch captured as the original
// kernel unless told otherwise; and the comparisons the cases' checks
// share.  Compiled with the SMC plugin, as every file of the benchmark.
//===----------------------------------------------------------------------===//
#include "CudaSupport.cuh"
#include "GraphCases.h"
#include "smc/smc.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace smc::graphbench {

BranchCapture::BranchCapture(bool CaptureOriginals)
    : CaptureOriginals(CaptureOriginals) {
  SMC_CUDA_CHECK(cudaStreamCreateWithFlags(&Origin, cudaStreamNonBlocking));
  for (cudaStream_t &S : Streams)
    SMC_CUDA_CHECK(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
  SMC_CUDA_CHECK(cudaEventCreateWithFlags(&Fork, cudaEventDisableTiming));
  for (cudaEvent_t &E : Ends)
    SMC_CUDA_CHECK(cudaEventCreateWithFlags(&E, cudaEventDisableTiming));
}

BranchCapture::~BranchCapture() {
  // Never throws from a destructor: errors are ignored.
  for (cudaEvent_t E : Ends)
    cudaEventDestroy(E);
  cudaEventDestroy(Fork);
  for (cudaStream_t S : Streams)
    cudaStreamDestroy(S);
  cudaStreamDestroy(Origin);
}

cudaGraph_t BranchCapture::capture(const std::vector<StreamWork> &Branches,
                                   const StreamWork &Join) {
  if (Branches.empty() || Branches.size() > MaxBranches)
    throw std::runtime_error("a graph of " + std::to_string(Branches.size()) +
                             " branches (1 to " + std::to_string(MaxBranches) +
                             ")");
  if (CaptureOriginals)
    smc::setPolicy("*", smc::Policy::original());
  cudaGraph_t Graph = nullptr;
  try {
    SMC_CUDA_CHECK(cudaStreamBeginCapture(Origin, cudaStreamCaptureModeGlobal));
    SMC_CUDA_CHECK(cudaEventRecord(Fork, Origin));
    for (size_t I = 0; I < Branches.size(); ++I) {
      SMC_CUDA_CHECK(cudaStreamWaitEvent(Streams[I], Fork, 0));
      Branches[I](Streams[I]);
      SMC_CUDA_CHECK(cudaEventRecord(Ends[I], Streams[I]));
      SMC_CUDA_CHECK(cudaStreamWaitEvent(Origin, Ends[I], 0));
    }
    if (Join)
      Join(Origin);
    SMC_CUDA_CHECK(cudaStreamEndCapture(Origin, &Graph));
  } catch (...) {
    // Leaves the origin stream out of capture mode for the next case.
    cudaGraph_t Broken = nullptr;
    if (cudaStreamEndCapture(Origin, &Broken) == cudaSuccess && Broken)
      cudaGraphDestroy(Broken);
    if (CaptureOriginals)
      smc::clearPolicies();
    throw;
  }
  if (CaptureOriginals)
    smc::clearPolicies();
  return Graph;
}

GraphCase::~GraphCase() = default;

std::string compareBits(const void *Got, const void *Want, size_t Bytes,
                        size_t ElementBytes, const std::string &What) {
  if (std::memcmp(Got, Want, Bytes) == 0)
    return "";
  const auto *G = static_cast<const unsigned char *>(Got);
  const auto *W = static_cast<const unsigned char *>(Want);
  size_t Byte = 0;
  while (Byte < Bytes && G[Byte] == W[Byte])
    ++Byte;
  size_t Differ = 0;
  for (size_t E = Byte / ElementBytes; E < Bytes / ElementBytes; ++E)
    Differ += std::memcmp(G + E * ElementBytes, W + E * ElementBytes,
                          ElementBytes) != 0;
  return What + ": " + std::to_string(Differ) + " of " +
         std::to_string(Bytes / ElementBytes) +
         " elements differ from the graph as instantiated, the first at " +
         std::to_string(Byte / ElementBytes);
}

std::string findNaN(const std::vector<float> &Values, const std::string &What) {
  for (size_t I = 0; I < Values.size(); ++I)
    if (std::isnan(Values[I]))
      return What + ": element " + std::to_string(I) + " is NaN (not written)";
  return "";
}

} // namespace smc::graphbench
