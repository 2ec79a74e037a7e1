//===- Partitions.h - Live SM partitions of streams -------------*- C++ -*-===//
//
// smc::setStreamSMs and smc::clearStreamSMs, and what they do to a launch
// on a partitioned stream.  A partition has a table of live targets on the
// device (PartitionRules.h) that every SM-centric launch on the stream
// points its descriptor at: setStreamSMs rewrites the table through the
// device's own non-blocking stream while launches run, and their workers
// follow it at chunk boundaries (runtime/device/SmcWorker.cu).  A launch on
// a partitioned stream is planned for the partition's SMs (the policy's SM
// set and workers replaced; auto and locality become the default SM-centric
// policy) and claims one chunk at a time, so that a change takes effect at
// the next chunk boundary.  When setStreamSMs grows a partition while the
// stream's last launch runs, a top-up grid joins that launch (TopUps.h).
// The Partitions lock (base/Locks.h) guards every partition.
//
// The decision-maker's part in a launch (dispatch/Dispatcher.cpp):
//   propose   the stream's partition, if any: SM set, live targets,
//             claims of one chunk, a tag for top-ups;
//   after     records the launch as the partition's last (its event, its
//             SMs held, what a top-up needs).
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PARTITION_PARTITIONS_H
#define SMC_RUNTIME_PARTITION_PARTITIONS_H

#include "core/Launch.h"

#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

namespace smc {

struct StreamPartition;

struct Partitions {
  // What one launch took from its stream's partition.
  struct Ticket {
    StreamPartition *Partition = nullptr; // null: the stream has none
    // The partition's SM set when the launch was decided.
    std::shared_ptr<const std::vector<unsigned>> Sms;
  };
  static void propose(Launch &L, Ticket &T);
  static void before(Launch &, Ticket &) {}
  static void after(Launch &L, Ticket &T, cudaError_t Err);
};

} // namespace smc

#endif // SMC_RUNTIME_PARTITION_PARTITIONS_H
