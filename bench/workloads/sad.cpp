//===- sad.cpp - sad: inputs, CPU reference, self-check, registry ---------===//
#include "sad.h"

#include "Check.h"
#include "Random.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace smc::workloads::sad {

namespace {

constexpr int32_t kMotionX = 3, kMotionY = -2;

Problem makeFrames(int32_t width, int32_t height, int32_t range, int noise,
                   uint64_t seed) {
  if (width % 4 || height % 4 || width < 4 || height < 4 || range < 0 ||
      range > 64)
    throw std::invalid_argument(
        "sad: width, height multiples of 4, 0 <= range <= 64");
  Problem p;
  p.width = width;
  p.height = height;
  p.range = range;
  size_t pixels = size_t(width) * height;
  Rng rng(seed, 1), jitter(seed, 2);
  p.ref.resize(pixels);
  for (uint8_t &v : p.ref)
    v = uint8_t(rng.below(256));
  p.cur.resize(pixels);
  for (int32_t y = 0; y < height; ++y)
    for (int32_t x = 0; x < width; ++x) {
      int32_t sy = std::clamp(y + kMotionY, 0, height - 1);
      int32_t sx = std::clamp(x + kMotionX, 0, width - 1);
      int32_t v = p.ref[size_t(sy) * width + sx];
      if (noise)
        v += jitter.intIn(-noise, noise);
      p.cur[size_t(y) * width + x] = uint8_t(std::clamp(v, 0, 255));
    }
  return p;
}

} // namespace

Problem generate(const Params &params, uint64_t seed) {
  return makeFrames(int32_t(params.get("width")), int32_t(params.get("height")),
                    int32_t(params.get("range")), 4, seed);
}

void cpuReference(const Problem &p, const std::vector<size_t> &blocks,
                  std::vector<uint16_t> &sads) {
  int32_t side = 2 * p.range + 1;
  sads.resize(blocks.size() * size_t(p.positions()));
  for (size_t b = 0; b < blocks.size(); ++b) {
    int32_t x0 = int32_t(blocks[b] % size_t(p.blocksX())) * 4;
    int32_t y0 = int32_t(blocks[b] / size_t(p.blocksX())) * 4;
    for (int32_t dy = -p.range; dy <= p.range; ++dy)
      for (int32_t dx = -p.range; dx <= p.range; ++dx) {
        int32_t sum = 0;
        for (int32_t py = 0; py < 4; ++py)
          for (int32_t px = 0; px < 4; ++px) {
            int32_t ry = std::clamp(y0 + py + dy, 0, p.height - 1);
            int32_t rx = std::clamp(x0 + px + dx, 0, p.width - 1);
            sum +=
                std::abs(int32_t(p.cur[size_t(y0 + py) * p.width + x0 + px]) -
                         int32_t(p.ref[size_t(ry) * p.width + rx]));
          }
        sads[b * p.positions() + size_t(dy + p.range) * side + (dx + p.range)] =
            uint16_t(sum);
      }
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  // Without noise, every block away from the frame edge matches the
  // reference exactly at the motion vector, and nowhere else is lower.
  Params params = info().params(Size::Small);
  Problem p =
      makeFrames(int32_t(params.get("width")), int32_t(params.get("height")),
                 int32_t(params.get("range")), 0, seed);
  std::vector<size_t> blocks(size_t(p.blocksX()) * p.blocksY());
  for (size_t b = 0; b < blocks.size(); ++b)
    blocks[b] = b;
  std::vector<uint16_t> sads;
  cpuReference(p, blocks, sads);
  int32_t side = 2 * p.range + 1;
  size_t motion = size_t(kMotionY + p.range) * side + (kMotionX + p.range);
  size_t interior = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    int32_t x0 = int32_t(b % size_t(p.blocksX())) * 4;
    int32_t y0 = int32_t(b / size_t(p.blocksX())) * 4;
    bool inside = x0 + kMotionX >= 0 && x0 + 3 + kMotionX < p.width &&
                  y0 + kMotionY >= 0 && y0 + 3 + kMotionY < p.height;
    if (!inside)
      continue;
    ++interior;
    const uint16_t *row = &sads[b * p.positions()];
    if (row[motion] != 0)
      return failure("motion", "block " + std::to_string(b) + " has SAD " +
                                   std::to_string(row[motion]) +
                                   " at the motion vector");
  }
  for (uint16_t s : sads)
    if (s > 16 * 255)
      return failure("range", "SAD above 16 * 255");
  CheckResult r = success("invariants", interior);
  r.detail = "noise-free frames: SAD 0 at the motion vector in every "
             "interior block; all SADs <= 4080";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "sad",
      "4x4 sums of absolute differences over a motion search window "
      "(Parboil SAD mb_sad_calc)",
      2,
      Regularity::Regular,
      Locality::Streaming,
      PaperKernelet | PaperCtaClustering,
      FeatureSharedMemory | FeatureBarriers,
      {"sad_4x4"},
      {{"width", 176, 1920, 3840, "frame width (multiple of 4)"},
       {"height", 144, 1088, 2160, "frame height (multiple of 4)"},
       {"range", 16, 16, 16, "search range: displacements in [-r, r]^2"}},
      &create,
      &cpuSelfCheck,
      "SADs exact; Default/Large: 2048 sampled 4x4 blocks, all SADs <= 4080",
  };
  return entry;
}

} // namespace smc::workloads::sad
