//===- bs.cu - bs: Black-Scholes kernel and its GPU driver ----------------===//
#include "bs.h"

#include "Check.h"
#include "CudaSupport.cuh"

namespace {

__device__ inline float bsCnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
              a4 = -1.821255978f, a5 = 1.330274429f;
  const float rsqrt2pi = 0.39894228040143267793994605993438f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float value = rsqrt2pi * expf(-0.5f * d * d) *
                (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0f - value : value;
}

} // namespace

__global__ void bs_price(float *__restrict__ call, float *__restrict__ put,
                         const float *__restrict__ stock,
                         const float *__restrict__ strike,
                         const float *__restrict__ years, float riskFree,
                         float volatility, int options) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < options;
       i += blockDim.x * gridDim.x) {
    float s = stock[i], x = strike[i], t = years[i];
    float sqrtT = sqrtf(t);
    float d1 = (logf(s / x) + (riskFree + 0.5f * volatility * volatility) * t) /
               (volatility * sqrtT);
    float d2 = d1 - volatility * sqrtT;
    float cndD1 = bsCnd(d1), cndD2 = bsCnd(d2);
    float expRT = expf(-riskFree * t);
    call[i] = s * cndD1 - x * expRT * cndD2;
    put[i] = x * expRT * (1.0f - cndD2) - s * (1.0f - cndD1);
  }
}

namespace smc::workloads::bs {
namespace {

constexpr int kBlock = 256;
constexpr int kGrid = 1024;
constexpr size_t kSampledOptions = 1 << 20;
constexpr double kTolerance = 1e-5;

class BsWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    options.clear();
    dStock.upload(problem.stock);
    dStrike.upload(problem.strike);
    dYears.upload(problem.years);
    dCall.allocate(problem.options());
    dPut.allocate(problem.options());
  }

  void run(cudaStream_t stream) override {
    bs_price<<<kGrid, kBlock, 0, stream>>>(
        dCall.get(), dPut.get(), dStock.get(), dStrike.get(), dYears.get(),
        kRiskFree, kVolatility, int(problem.options()));
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override {
    dCall.poison(stream);
    dPut.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> gotCall, gotPut;
    dCall.download(gotCall);
    dPut.download(gotPut);
    if (options.empty()) {
      options = sampleIndices(problem.options(), kSampledOptions, 19);
      cpuReference(problem, options, wantCall, wantPut);
      scale.resize(options.size());
      for (size_t k = 0; k < options.size(); ++k)
        scale[k] =
            double(problem.stock[options[k]]) + problem.strike[options[k]];
    }
    std::vector<float> sampledCall(options.size()), sampledPut(options.size());
    for (size_t k = 0; k < options.size(); ++k) {
      sampledCall[k] = gotCall[options[k]];
      sampledPut[k] = gotPut[options[k]];
    }
    const char *metric = "|gpu-ref|/(S+X)";
    CheckResult r =
        compareScaled(sampledCall.data(), wantCall.data(), scale.data(),
                      options.size(), kTolerance, 0, metric, "call");
    r.merge(compareScaled(sampledPut.data(), wantPut.data(), scale.data(),
                          options.size(), kTolerance, 0, metric, "put"));
    if (options.size() < gotCall.size()) {
      r.merge(checkAllFinite(gotCall.data(), gotCall.size(), "call"));
      r.merge(checkAllFinite(gotPut.data(), gotPut.size(), "put"));
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(options.size()) + " of " +
                  std::to_string(gotCall.size()) + " options compared";
    }
    return r;
  }

  RunEstimate estimate() const override {
    double n = double(problem.options());
    return {n * 20, n * 60};
  }

private:
  Problem problem;
  std::vector<size_t> options;
  std::vector<double> wantCall, wantPut, scale;
  DeviceBuffer<float> dStock, dStrike, dYears, dCall, dPut;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<BsWorkload>(); }

} // namespace smc::workloads::bs
