//===- RemapSort.cu - Remap tables sorted on the GPU ----------------------===//
//
// See RemapSort.h.  The sort is cub::DeviceRadixSort::SortPairs over all 32
// key bits: about 0.1 ms for a million jobs on an H200
// (docs/results/remap.md has the measurement), less than copying the keys
// to the host and back.
//===----------------------------------------------------------------------===//
#include "remap/RemapSort.h"

#include <cub/device/device_radix_sort.cuh>

#include <numeric>
#include <vector>

namespace smc {

bool allocateRemapBuffers(uint32_t Count, RemapBuffers &B, std::string &Error) {
  B = RemapBuffers();
  B.Count = Count;
  size_t Bytes = size_t(Count) * sizeof(uint32_t);
  cudaError_t Err = cub::DeviceRadixSort::SortPairs(
      nullptr, B.TempBytes, B.Keys, B.SortedKeys, B.Jobs, B.Table, int(Count));
  uint32_t **Arrays[] = {&B.Keys, &B.SortedKeys, &B.Jobs, &B.Table};
  for (uint32_t **Array : Arrays)
    if (Err == cudaSuccess)
      Err = cudaMalloc(reinterpret_cast<void **>(Array), Bytes);
  if (Err == cudaSuccess)
    Err = cudaMalloc(&B.Temp, B.TempBytes);
  if (Err == cudaSuccess) {
    std::vector<uint32_t> Jobs(Count);
    std::iota(Jobs.begin(), Jobs.end(), 0u);
    Err = cudaMemcpy(B.Jobs, Jobs.data(), Bytes, cudaMemcpyHostToDevice);
  }
  if (Err == cudaSuccess)
    return true;
  Error = std::string(cudaGetErrorName(Err)) + ": " + cudaGetErrorString(Err);
  cudaGetLastError();
  freeRemapBuffers(B);
  return false;
}

void freeRemapBuffers(RemapBuffers &B) {
  for (void *Pointer :
       {static_cast<void *>(B.Keys), static_cast<void *>(B.SortedKeys),
        static_cast<void *>(B.Jobs), static_cast<void *>(B.Table), B.Temp})
    if (Pointer)
      cudaFree(Pointer);
  B = RemapBuffers();
}

cudaError_t sortJobsByKey(RemapBuffers &B, cudaStream_t Stream) {
  return cub::DeviceRadixSort::SortPairs(B.Temp, B.TempBytes, B.Keys,
                                         B.SortedKeys, B.Jobs, B.Table,
                                         int(B.Count), 0, 32, Stream);
}

} // namespace smc
