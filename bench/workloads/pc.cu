//===- pc.cu - pc: pointer-chasing kernel and its GPU driver --------------===//
#include "pc.h"

#include "Check.h"
#include "CudaSupport.cuh"

// One chain per thread.
__global__ void pc_chase(const int2 *__restrict__ table,
                         const int *__restrict__ start, int *__restrict__ end,
                         unsigned *__restrict__ sum, int chains, int hops) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= chains)
    return;
  int cur = start[c];
  unsigned acc = 0;
  for (int h = 0; h < hops; ++h) {
    int2 node = table[cur];
    acc += unsigned(node.y);
    cur = node.x;
  }
  end[c] = cur;
  sum[c] = acc;
}

namespace smc::workloads::pc {
namespace {

constexpr int kBlock = 256;
constexpr size_t kSampledChains = 65536;

class PcWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    chains.clear();
    dTable.upload(problem.table);
    dStart.upload(problem.start);
    dEnd.allocate(problem.start.size());
    dSum.allocate(problem.start.size());
  }

  void run(cudaStream_t stream) override {
    int count = int(problem.start.size());
    pc_chase<<<ceilDiv(count, kBlock), kBlock, 0, stream>>>(
        reinterpret_cast<const int2 *>(dTable.get()), dStart.get(), dEnd.get(),
        dSum.get(), count, problem.hops);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override {
    dEnd.poison(stream);
    dSum.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    std::vector<int32_t> gotEnd;
    std::vector<uint32_t> gotSum;
    dEnd.download(gotEnd);
    dSum.download(gotSum);
    if (chains.empty()) {
      chains = sampleIndices(problem.start.size(), kSampledChains, 11);
      cpuReference(problem, chains, wantEnd, wantSum);
    }
    std::vector<int32_t> sampledEnd(chains.size());
    std::vector<uint32_t> sampledSum(chains.size());
    for (size_t k = 0; k < chains.size(); ++k) {
      sampledEnd[k] = gotEnd[chains[k]];
      sampledSum[k] = gotSum[chains[k]];
    }
    CheckResult r = compareExact(sampledEnd, wantEnd, "end");
    r.merge(compareExact(sampledSum, wantSum, "sum"));
    if (chains.size() < gotEnd.size()) {
      r.merge(checkAllInRange(gotEnd.data(), gotEnd.size(), 0,
                              problem.nodes - 1, "end"));
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(chains.size()) + " of " +
                  std::to_string(gotEnd.size()) + " chains compared";
    }
    return r;
  }

  // table[cur] (an int2) at every hop of the CTA's chains, followed on the
  // host.
  bool chunkReads(ChunkReads &reads) const override {
    reads.byCta(problem.start.size(), kBlock, [&](size_t c) {
      for (int32_t h = 0, cur = problem.start[c]; h < problem.hops; ++h) {
        reads.read(uint64_t(cur) * 8);
        cur = problem.table[2 * size_t(cur)];
      }
    });
    return true;
  }

  RunEstimate estimate() const override {
    double chainCount = double(problem.start.size());
    // Every hop is a dependent 8-byte load from a random node.
    return {chainCount * (4 + 8 + double(problem.hops) * 8),
            chainCount * problem.hops};
  }

private:
  Problem problem;
  std::vector<size_t> chains;
  std::vector<int32_t> wantEnd;
  std::vector<uint32_t> wantSum;
  DeviceBuffer<int32_t> dTable, dStart, dEnd;
  DeviceBuffer<uint32_t> dSum;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<PcWorkload>(); }

} // namespace smc::workloads::pc
