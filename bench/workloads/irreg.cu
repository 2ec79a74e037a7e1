//===- irreg.cu - irreg: edge-flux kernel and its GPU driver --------------===//
#include "irreg.h"

#include "Check.h"
#include "CudaSupport.cuh"

// One thread per edge; the fluxes are scattered to both end nodes.
__global__ void irreg_edge_flux(const int *__restrict__ left,
                                const int *__restrict__ right,
                                const float *__restrict__ weight,
                                const float *__restrict__ x, float *y,
                                int numEdges) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= numEdges)
    return;
  int a = left[e];
  int b = right[e];
  float flux = weight[e] * (x[a] - x[b]);
  atomicAdd(&y[a], flux);
  atomicAdd(&y[b], -flux);
}

namespace smc::workloads::irreg {
namespace {

constexpr int kBlock = 256;

class IrregWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    reference.clear();
    dLeft.upload(problem.left);
    dRight.upload(problem.right);
    dWeight.upload(problem.weight);
    dX.upload(problem.x);
    dY.allocate(problem.x.size());
  }

  void run(cudaStream_t stream) override {
    dY.zero(stream);
    int edges = int(problem.left.size());
    irreg_edge_flux<<<ceilDiv(edges, kBlock), kBlock, 0, stream>>>(
        dLeft.get(), dRight.get(), dWeight.get(), dX.get(), dY.get(), edges);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dY.poison(stream); }

  CheckResult check() override {
    return checkExactFloatOutput(
        dY, reference,
        [&](std::vector<double> &out) { cpuReference(problem, out); }, "y");
  }

  // x at both ends of the CTA's edges (y is updated by atomics, which L2
  // serves).
  bool chunkReads(ChunkReads &reads) const override {
    reads.byCta(problem.left.size(), kBlock, [&](size_t e) {
      reads.read(uint64_t(problem.left[e]) * sizeof(float));
      reads.read(uint64_t(problem.right[e]) * sizeof(float));
    });
    return true;
  }

  RunEstimate estimate() const override {
    double edges = double(problem.left.size());
    return {edges * 12 + double(problem.nodes) * 12, edges * 4};
  }

private:
  Problem problem;
  std::vector<double> reference;
  DeviceBuffer<int32_t> dLeft, dRight;
  DeviceBuffer<float> dWeight, dX, dY;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<IrregWorkload>(); }

} // namespace smc::workloads::irreg
