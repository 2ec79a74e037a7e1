//===- sad.h - sad: sum of absolute differences for motion search ---------===//
//
// Parboil SAD's first stage (mb_sad_calc): for every 4 x 4 block of the
// current frame and every displacement (dx, dy) in [-range, range]^2, the
// sum of absolute differences to the reference frame displaced by (dx, dy),
// reference pixels clamped to the frame (as Parboil's texture reads are).
// One 64-thread block per 4 x 4 block (2-D grid): the current block is
// staged in shared memory behind a barrier, then the threads stride over the
// (2 range + 1)^2 displacements.  The current frame is the reference frame
// moved by (3, -2) plus noise.  Integer: exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_SAD_H
#define SMC_BENCH_WORKLOADS_SAD_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::sad {

struct Problem {
  int32_t width = 0, height = 0, range = 0; // width, height multiples of 4
  std::vector<uint8_t> cur, ref;            // width * height, row-major
  int32_t blocksX() const { return width / 4; }
  int32_t blocksY() const { return height / 4; }
  int32_t positions() const { return (2 * range + 1) * (2 * range + 1); }
};

Problem generate(const Params &params, uint64_t seed);
// SADs of the 4x4 blocks `blocks` (index by * blocksX + bx), positions()
// per block, position (dy + range) * (2 range + 1) + (dx + range).
void cpuReference(const Problem &problem, const std::vector<size_t> &blocks,
                  std::vector<uint16_t> &sads);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // sad.cu

} // namespace smc::workloads::sad

#endif // SMC_BENCH_WORKLOADS_SAD_H
