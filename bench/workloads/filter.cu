//===- filter.cu - filter: filter kernel and its GPU driver ---------------===//
#include "filter.h"

#include "Check.h"
#include "CudaSupport.cuh"

// One thread per element: the value picks the expensive series or the
// cheap product.
__global__ void filter_series(const float *__restrict__ x,
                              float *__restrict__ out, int n) {
  using namespace smc::workloads::filter;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  float result;
  if (v > kThreshold) {
    float a = v - kThreshold;
    float acc = 0.0f;
    for (int k = 1; k <= kTerms; ++k) {
      float kf = float(k);
      acc += expf(-0.05f * kf * a) * cosf(0.3f * kf * v) / kf;
    }
    result = acc;
  } else {
    result = v * (1.0f - v);
  }
  out[i] = result;
}

namespace smc::workloads::filter {
namespace {

constexpr int kBlock = 256;
constexpr size_t kSampledElements = size_t(1) << 20;
constexpr double kTolerance = 1e-5;

class FilterWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    elements.clear();
    reference.clear();
    magnitude.clear();
    dX.upload(problem.x);
    dOut.allocate(problem.x.size());
  }

  void run(cudaStream_t stream) override {
    int n = int(problem.x.size());
    filter_series<<<ceilDiv(n, kBlock), kBlock, 0, stream>>>(dX.get(),
                                                             dOut.get(), n);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dOut.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dOut.download(got);
    size_t n = problem.x.size();
    if (elements.empty()) {
      elements = sampleIndices(n, kSampledElements, 83);
      cpuReference(problem, elements, reference, magnitude);
    }
    std::vector<float> sampled(elements.size());
    for (size_t k = 0; k < elements.size(); ++k)
      sampled[k] = got[elements[k]];
    CheckResult r = compareScaled(sampled.data(), reference.data(),
                                  magnitude.data(), sampled.size(), kTolerance,
                                  1e-6, "|gpu-ref|/sum|terms|", "out");
    if (elements.size() < n) {
      r.merge(checkAllFinite(got.data(), got.size(), "out"));
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(elements.size()) + " of " + std::to_string(n) +
                  " elements compared";
    }
    return r;
  }

  RunEstimate estimate() const override {
    double n = double(problem.x.size()), above = 0;
    for (float v : problem.x)
      above += v > kThreshold;
    // Each expensive element: 64 terms of exp, cos, a division and ~5
    // flops, counted as ~40 flops each.
    return {n * 8, above * kTerms * 40 + (n - above) * 2};
  }

private:
  Problem problem;
  std::vector<size_t> elements;
  std::vector<double> reference, magnitude;
  DeviceBuffer<float> dX, dOut;
};

} // namespace

std::unique_ptr<Workload> create() {
  return std::make_unique<FilterWorkload>();
}

} // namespace smc::workloads::filter
