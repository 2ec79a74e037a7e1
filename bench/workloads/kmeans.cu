//===- kmeans.cu - kmeans: assignment kernel and its GPU driver -----------===//
#include "kmeans.h"

#include "Check.h"
#include "CudaSupport.cuh"

#include <cfloat>
#include <cmath>

// One thread per point; block index linearised over a 2-D grid.
__global__ void kmeans_assign(const float *__restrict__ features,
                              const float *__restrict__ clusters,
                              int *__restrict__ membership, int npoints,
                              int nclusters, int nfeatures) {
  unsigned blockId = gridDim.x * blockIdx.y + blockIdx.x;
  unsigned pointId = blockId * blockDim.x + threadIdx.x;
  if (pointId < unsigned(npoints)) {
    int index = -1;
    float minDist = FLT_MAX;
    for (int c = 0; c < nclusters; ++c) {
      float dist = 0.0f;
      for (int f = 0; f < nfeatures; ++f) {
        float diff = features[size_t(f) * npoints + pointId] -
                     clusters[c * nfeatures + f];
        dist += diff * diff;
      }
      if (dist < minDist) {
        minDist = dist;
        index = c;
      }
    }
    membership[pointId] = index;
  }
}

namespace smc::workloads::kmeans {
namespace {

constexpr int kBlock = 256;
constexpr size_t kSampledPoints = 1 << 20;

class KmeansWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    points.clear();
    dFeature.upload(problem.feature);
    dCentre.upload(problem.centre);
    dMembership.allocate(size_t(problem.points));
  }

  void run(cudaStream_t stream) override {
    unsigned blocks = ceilDiv(problem.points, kBlock);
    unsigned perDim = unsigned(std::ceil(std::sqrt(double(blocks))));
    dim3 grid(perDim, perDim);
    kmeans_assign<<<grid, kBlock, 0, stream>>>(
        dFeature.get(), dCentre.get(), dMembership.get(), problem.points,
        problem.clusters, problem.features);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override {
    dMembership.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    std::vector<int32_t> got;
    dMembership.download(got);
    if (points.empty()) {
      points = sampleIndices(size_t(problem.points), kSampledPoints, 29);
      cpuReference(problem, points, reference);
    }
    std::vector<int32_t> sampled(points.size());
    for (size_t k = 0; k < points.size(); ++k)
      sampled[k] = got[points[k]];
    CheckResult r = compareExact(sampled, reference, "membership");
    if (points.size() < got.size()) {
      r.merge(checkAllInRange(got.data(), got.size(), 0, problem.clusters - 1,
                              "membership"));
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(points.size()) + " of " +
                  std::to_string(got.size()) + " points compared";
    }
    return r;
  }

  RunEstimate estimate() const override {
    double n = double(problem.points);
    return {n * (problem.features * 4 + 4),
            n * problem.clusters * problem.features * 3};
  }

private:
  Problem problem;
  std::vector<size_t> points;
  std::vector<int32_t> reference;
  DeviceBuffer<float> dFeature, dCentre;
  DeviceBuffer<int32_t> dMembership;
};

} // namespace

std::unique_ptr<Workload> create() {
  return std::make_unique<KmeansWorkload>();
}

} // namespace smc::workloads::kmeans
