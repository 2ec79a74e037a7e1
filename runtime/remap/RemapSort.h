//===- RemapSort.h - Remap tables sorted on the GPU -------------*- C++ -*-===//
//
// The device buffers of one configuration's remap and the sort that turns
// the inspector's keys into the remap table: CUB's radix sort of (key, job)
// pairs, which is stable, so that the table is what remapTableFromKeys
// (RemapTables.h) computes on the host.  RemapSort.cu is the runtime's one
// CUDA translation unit.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_REMAP_REMAPSORT_H
#define SMC_RUNTIME_REMAP_REMAPSORT_H

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace smc {

// Device memory for remapping Count jobs.
struct RemapBuffers {
  uint32_t Count = 0;
  uint32_t *Keys = nullptr;       // the inspector writes them
  uint32_t *SortedKeys = nullptr; // the sort's key output (unused after)
  uint32_t *Jobs = nullptr;       // 0, 1, ..., Count - 1
  uint32_t *Table = nullptr;      // the remap table the variant reads
  void *Temp = nullptr;           // CUB's temporary storage
  size_t TempBytes = 0;
};

// Allocates B for Count jobs (synchronous: cudaMalloc and one copy).  False,
// with Error set and nothing left allocated, on failure.
bool allocateRemapBuffers(uint32_t Count, RemapBuffers &B, std::string &Error);

// Frees what B holds.
void freeRemapBuffers(RemapBuffers &B);

// Queues on Stream: B.Table = B.Jobs sorted by B.Keys, stably.
cudaError_t sortJobsByKey(RemapBuffers &B, cudaStream_t Stream);

} // namespace smc

#endif // SMC_RUNTIME_REMAP_REMAPSORT_H
