//===- reduce.cu - reduce: reduction kernel and its GPU driver ------------===//
#include "reduce.h"

#include "Check.h"
#include "CudaSupport.cuh"

#define REDUCE_BLOCK 256

// out[blockIdx.x] = sum of this block's share of in[0, n).  blockDim.x must
// be REDUCE_BLOCK.
__global__ void reduce_sum(const int *__restrict__ in, int *__restrict__ out,
                           unsigned n) {
  __shared__ int sdata[REDUCE_BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (REDUCE_BLOCK * 2) + tid;
  unsigned gridSize = REDUCE_BLOCK * 2 * gridDim.x;
  int sum = 0;
  while (i < n) {
    sum += in[i];
    if (i + REDUCE_BLOCK < n)
      sum += in[i + REDUCE_BLOCK];
    i += gridSize;
  }
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = REDUCE_BLOCK / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    sum += sdata[tid + 32];
    for (int offset = 16; offset > 0; offset >>= 1)
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
  }
  if (tid == 0)
    out[blockIdx.x] = sum;
}

namespace smc::workloads::reduce {
namespace {

class ReduceWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    haveReference = false;
    dValues.upload(problem.values);
    dPartial.allocate(kPartialBlocks);
    dResult.allocate(1);
  }

  void run(cudaStream_t stream) override {
    reduce_sum<<<kPartialBlocks, REDUCE_BLOCK, 0, stream>>>(
        dValues.get(), dPartial.get(), unsigned(problem.values.size()));
    SMC_CUDA_CHECK_LAUNCH();
    reduce_sum<<<1, REDUCE_BLOCK, 0, stream>>>(dPartial.get(), dResult.get(),
                                               kPartialBlocks);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override {
    dPartial.poison(stream);
    dResult.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    if (!haveReference) {
      std::vector<int64_t> wide = blockPartials(problem, kPartialBlocks);
      partials.assign(wide.begin(), wide.end());
      total = int32_t(cpuReference(problem));
      haveReference = true;
    }
    std::vector<int32_t> gotPartials, gotResult;
    dPartial.download(gotPartials);
    dResult.download(gotResult);
    CheckResult r = compareExact(gotResult, std::vector<int32_t>{total}, "sum");
    r.merge(compareExact(gotPartials, partials, "partial"));
    return r;
  }

  RunEstimate estimate() const override {
    double n = double(problem.values.size());
    return {n * 4 + kPartialBlocks * 8, n};
  }

private:
  Problem problem;
  bool haveReference = false;
  std::vector<int32_t> partials;
  int32_t total = 0;
  DeviceBuffer<int32_t> dValues, dPartial, dResult;
};

} // namespace

std::unique_ptr<Workload> create() {
  return std::make_unique<ReduceWorkload>();
}

} // namespace smc::workloads::reduce
