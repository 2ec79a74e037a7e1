//===- recgather.cu - recgather: gather kernel and its GPU driver ---------===//
#include "recgather.h"

#include "Check.h"
#include "CudaSupport.cuh"

// One thread per job: the record its index names, field by field.
__global__ void recgather_distance(const int *__restrict__ index,
                                   const float *__restrict__ fields,
                                   const float *__restrict__ query,
                                   float *__restrict__ out, int records) {
  using namespace smc::workloads::recgather;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= records)
    return;
  int j = index[i];
  float sum = 0.0f;
#pragma unroll
  for (int f = 0; f < kFields; ++f) {
    float d = fields[f * records + j] - query[f];
    sum += d * d;
  }
  out[i] = sum;
}

namespace smc::workloads::recgather {
namespace {

constexpr int kBlock = 256;

class RecgatherWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    reference.clear();
    dIndex.upload(problem.index);
    dFields.upload(problem.fields);
    dQuery.upload(problem.query);
    dOut.allocate(problem.records());
  }

  void run(cudaStream_t stream) override {
    int n = int(problem.records());
    recgather_distance<<<ceilDiv(n, kBlock), kBlock, 0, stream>>>(
        dIndex.get(), dFields.get(), dQuery.get(), dOut.get(), n);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dOut.poison(stream); }

  CheckResult check() override {
    return checkExactFloatOutput(
        dOut, reference,
        [&](std::vector<double> &out) { cpuReference(problem, out); }, "out");
  }

  // Every field of every record the CTA's jobs name.
  bool chunkReads(ChunkReads &reads) const override {
    size_t n = problem.records();
    reads.byCta(n, kBlock, [&](size_t i) {
      for (size_t f = 0; f < kFields; ++f)
        reads.read((f * n + size_t(problem.index[i])) * sizeof(float));
    });
    return true;
  }

  RunEstimate estimate() const override {
    double n = double(problem.records());
    return {n * (4 + kFields * 4 + 4), n * kFields * 3};
  }

private:
  Problem problem;
  std::vector<double> reference;
  DeviceBuffer<int32_t> dIndex;
  DeviceBuffer<float> dFields, dQuery, dOut;
};

} // namespace

std::unique_ptr<Workload> create() {
  return std::make_unique<RecgatherWorkload>();
}

} // namespace smc::workloads::recgather
