//===- Recording.h - Launches recorded into an smc::Batch -------*- C++ -*-===//
//
// What the dispatcher asks of smc::Batch before anything else: whether this
// thread records its launches into a batch (between Batch::begin() and
// end()), and the recording of one launch instead of running it.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BATCH_RECORDING_H
#define SMC_RUNTIME_BATCH_RECORDING_H

#include "core/Launch.h"

#include <cuda_runtime_api.h>

namespace smc {

// Whether this thread records its launches into an smc::Batch.
bool batchRecording();
// Records `Req` into this thread's batch (batchRecording() true).
cudaError_t recordIntoBatch(const LaunchRequest &Req);

} // namespace smc

#endif // SMC_RUNTIME_BATCH_RECORDING_H
