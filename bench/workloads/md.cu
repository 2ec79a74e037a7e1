//===- md.cu - md: Lennard-Jones kernel and its GPU driver ----------------===//
#include "md.h"

#include "Check.h"
#include "CudaSupport.cuh"

// One thread per atom, SHOC's compute_lj_force.
__global__ void md_lj_forces(float4 *__restrict__ force,
                             const float4 *__restrict__ position,
                             int neighCount, const int *__restrict__ neighList,
                             float cutsq, float lj1, float lj2, int numAtoms) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= numAtoms)
    return;
  float4 ipos = position[i];
  float4 f = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int k = 0; k < neighCount; ++k) {
    int j = neighList[k * numAtoms + i];
    float4 jpos = position[j];
    float delx = ipos.x - jpos.x;
    float dely = ipos.y - jpos.y;
    float delz = ipos.z - jpos.z;
    float r2inv = delx * delx + dely * dely + delz * delz;
    if (r2inv < cutsq) {
      r2inv = 1.0f / r2inv;
      float r6inv = r2inv * r2inv * r2inv;
      float forceC = r2inv * r6inv * (lj1 * r6inv - lj2);
      f.x += delx * forceC;
      f.y += dely * forceC;
      f.z += delz * forceC;
    }
  }
  force[i] = f;
}

namespace smc::workloads::md {
namespace {

constexpr int kBlock = 128;
constexpr double kTolerance = 1e-5;
constexpr size_t kSampledAtoms = 1 << 21;

class MdWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    atoms.clear();
    dPosition.upload(problem.position);
    dNeighbor.upload(problem.neighbor);
    dForce.allocate(problem.position.size());
  }

  void run(cudaStream_t stream) override {
    md_lj_forces<<<ceilDiv(problem.atoms, kBlock), kBlock, 0, stream>>>(
        reinterpret_cast<float4 *>(dForce.get()),
        reinterpret_cast<const float4 *>(dPosition.get()), kNeighbors,
        dNeighbor.get(), kCutoffSquared, kLj1, kLj2, problem.atoms);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dForce.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dForce.download(got);
    if (atoms.empty()) {
      atoms = sampleIndices(size_t(problem.atoms), kSampledAtoms, 53);
      cpuReference(problem, atoms, reference, magnitude);
    }
    std::vector<float> sampled(4 * atoms.size());
    for (size_t a = 0; a < atoms.size(); ++a)
      for (int c = 0; c < 4; ++c)
        sampled[4 * a + c] = got[4 * atoms[a] + c];
    CheckResult r = compareScaled(sampled.data(), reference.data(),
                                  magnitude.data(), sampled.size(), kTolerance,
                                  1e-30, "|gpu-ref|/sum|terms|", "force");
    if (atoms.size() < size_t(problem.atoms)) {
      r.merge(checkAllFinite(got.data(), got.size(), "force"));
      r.detail += (r.detail.empty() ? "" : "; ") +
                  std::to_string(atoms.size()) + " of " +
                  std::to_string(problem.atoms) + " atoms compared";
    }
    return r;
  }

  // position[j] (a float4) of every neighbour j of the CTA's atoms.
  bool chunkReads(ChunkReads &reads) const override {
    size_t n = size_t(problem.atoms);
    reads.byCta(n, kBlock, [&](size_t i) {
      for (int k = 0; k < kNeighbors; ++k)
        reads.read(uint64_t(problem.neighbor[size_t(k) * n + i]) * 16);
    });
    return true;
  }

  RunEstimate estimate() const override {
    double atoms = double(problem.atoms);
    return {atoms * (16 + 16 + kNeighbors * 4), atoms * kNeighbors * 15};
  }

private:
  Problem problem;
  std::vector<size_t> atoms;
  std::vector<double> reference, magnitude;
  DeviceBuffer<float> dPosition, dForce;
  DeviceBuffer<int32_t> dNeighbor;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<MdWorkload>(); }

} // namespace smc::workloads::md
