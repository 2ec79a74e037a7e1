//===- mcubes.cu - mcubes: classify and generate kernels, GPU driver ------===//
#include "mcubes.h"

#include "Check.h"
#include "CudaSupport.cuh"

// The field index of corner k of the voxel whose corner 0 is at `base`.
__device__ inline int mcubesCorner(int base, int k, int px, int plane) {
  return base + (k >> 2) * plane + ((k >> 1) & 1) * px + (((k + 1) >> 1) & 1);
}

// One thread per voxel: its case (bit k: corner k below iso) and its
// triangle count.
__global__ void mcubes_classify(const float *__restrict__ field,
                                const int *__restrict__ caseTris,
                                int *__restrict__ caseId,
                                int *__restrict__ triCount, int dx, int dy,
                                int n, float iso) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = i % dx, y = i / dx % dy, z = i / dx / dy;
  int px = dx + 1, plane = px * (dy + 1);
  int base = (z * (dy + 1) + y) * px + x;
  int c = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    c |= (field[mcubesCorner(base, k, px, plane)] < iso) << k;
  caseId[i] = c;
  triCount[i] = caseTris[c];
}

// One thread per voxel: its case's triangles, each vertex interpolated
// along its cube edge, into the voxel's slot of 5 triangles.
__global__ void mcubes_generate(const int *__restrict__ caseId,
                                const int *__restrict__ caseTris,
                                const int *__restrict__ caseEdges,
                                const float *__restrict__ field,
                                float *__restrict__ tris, int dx, int dy, int n,
                                float iso) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int c = caseId[i];
  int count = caseTris[c];
  int x = i % dx, y = i / dx % dy, z = i / dx / dy;
  int px = dx + 1, plane = px * (dy + 1);
  int base = (z * (dy + 1) + y) * px + x;
  float *slot = tris + size_t(i) * 45;
  for (int t = 0; t < count; ++t) {
#pragma unroll
    for (int v = 0; v < 3; ++v) {
      int e = caseEdges[c * 15 + 3 * t + v];
      int a = e < 8 ? e : e - 8;
      int b = e < 8 ? (e & 4) | ((e + 1) & 3) : e - 4;
      float va = field[mcubesCorner(base, a, px, plane)];
      float vb = field[mcubesCorner(base, b, px, plane)];
      float s = (iso - va) / (vb - va);
      int ax = ((a + 1) >> 1) & 1, ay = (a >> 1) & 1, az = a >> 2;
      int bx = ((b + 1) >> 1) & 1, by = (b >> 1) & 1, bz = b >> 2;
      float *out = slot + 9 * t + 3 * v;
      out[0] = float(x + ax) + s * float(bx - ax);
      out[1] = float(y + ay) + s * float(by - ay);
      out[2] = float(z + az) + s * float(bz - az);
    }
  }
}

namespace smc::workloads::mcubes {
namespace {

constexpr int kBlock = 256;
constexpr size_t kSampledVoxels = size_t(1) << 18;
constexpr double kTolerance = 1e-5;

class McubesWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    voxels.clear();
    reference.clear();
    wantCase.clear();
    wantCount.clear();
    dCaseTris.upload(caseTable().count);
    dCaseEdges.upload(caseTable().edges);
    dField.upload(problem.field);
    dCase.allocate(problem.voxels());
    dCount.allocate(problem.voxels());
    dTris.allocate(problem.voxels() * kSlotFloats);
  }

  void run(cudaStream_t stream) override {
    int n = int(problem.voxels());
    mcubes_classify<<<ceilDiv(n, kBlock), kBlock, 0, stream>>>(
        dField.get(), dCaseTris.get(), dCase.get(), dCount.get(), problem.dx,
        problem.dy, n, kIso);
    SMC_CUDA_CHECK_LAUNCH();
    mcubes_generate<<<ceilDiv(n, kBlock), kBlock, 0, stream>>>(
        dCase.get(), dCaseTris.get(), dCaseEdges.get(), dField.get(),
        dTris.get(), problem.dx, problem.dy, n, kIso);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override {
    dCase.poison(stream);
    dCount.poison(stream);
    dTris.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    std::vector<int32_t> gotCase, gotCount;
    std::vector<float> got;
    dCase.download(gotCase);
    dCount.download(gotCount);
    dTris.download(got);
    size_t n = problem.voxels();
    if (voxels.empty()) {
      cpuClassify(problem, wantCase, wantCount);
      voxels = sampleIndices(n, kSampledVoxels, 73);
      cpuTriangles(problem, voxels, reference);
    }
    CheckResult r = compareExact(gotCase, wantCase, "caseId");
    r.merge(compareExact(gotCount, wantCount, "triCount"));
    // The sampled voxels' triangles (up to their count) ...
    std::vector<float> sampled;
    std::vector<double> want;
    for (size_t k = 0; k < voxels.size(); ++k)
      for (int j = 0; j < kTriFloats * wantCount[voxels[k]]; ++j) {
        sampled.push_back(got[voxels[k] * kSlotFloats + size_t(j)]);
        want.push_back(reference[k * kSlotFloats + size_t(j)]);
      }
    r.merge(compareScaled(sampled.data(), want.data(), nullptr, sampled.size(),
                          kTolerance, 1.0, "|gpu-ref|/max(|ref|,1)", "tris"));
    // ... and every vertex of every voxel inside that voxel.
    CheckResult inside;
    inside.metric = "in voxel";
    for (size_t i = 0; i < n; ++i) {
      int corner[3] = {int(i % size_t(problem.dx)),
                       int(i / size_t(problem.dx) % size_t(problem.dy)),
                       int(i / size_t(problem.dx) / size_t(problem.dy))};
      for (int j = 0; j < kTriFloats * wantCount[i]; ++j) {
        ++inside.checked;
        float v = got[i * kSlotFloats + size_t(j)];
        if (v >= float(corner[j % 3]) && v <= float(corner[j % 3] + 1))
          continue;
        if (inside.failures++ == 0)
          inside.detail = "voxel " + std::to_string(i) + " vertex outside";
        inside.maxError = 1;
      }
    }
    inside.ok = inside.failures == 0;
    r.merge(inside);
    if (voxels.size() < n)
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(voxels.size()) + " of " + std::to_string(n) +
                  " voxels' triangles compared";
    return r;
  }

  RunEstimate estimate() const override {
    double n = double(problem.voxels());
    // Field once per launch, case and count out, case in, ~2.5 triangles
    // per voxel out; ~12 flops per vertex.
    return {n * (4 + 8 + 4 + 4 + 2.5 * 36), n * 2.5 * 3 * 12};
  }

private:
  Problem problem;
  std::vector<size_t> voxels;
  std::vector<double> reference;
  std::vector<int32_t> wantCase, wantCount;
  DeviceBuffer<int32_t> dCaseTris, dCaseEdges, dCase, dCount;
  DeviceBuffer<float> dField, dTris;
};

} // namespace

std::unique_ptr<Workload> create() {
  return std::make_unique<McubesWorkload>();
}

} // namespace smc::workloads::mcubes
