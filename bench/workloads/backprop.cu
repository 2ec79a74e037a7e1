//===- backprop.cu - backprop: layer kernels and their GPU driver ---------===//
#include "backprop.h"

#include "Check.h"
#include "CudaSupport.cuh"

#define BP_WIDTH 16
#define BP_HEIGHT 16
#define BP_GRID_X 16

// Block row by = blockIdx.y * gridDim.x + blockIdx.x: input units
// by * 16 + 1 .. by * 16 + 16, all 16 hidden units; hid must be BP_WIDTH.
__global__ void bpnn_layerforward(const float *__restrict__ input,
                                  const float *__restrict__ weight,
                                  float *__restrict__ partialSum, int hid) {
  __shared__ float inputNode[BP_HEIGHT];
  __shared__ float weightMatrix[BP_HEIGHT][BP_WIDTH];
  int by = blockIdx.y * gridDim.x + blockIdx.x;
  int tx = threadIdx.x, ty = threadIdx.y;
  int index = (hid + 1) * BP_HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int indexIn = BP_HEIGHT * by + ty + 1;
  if (tx == 0)
    inputNode[ty] = input[indexIn];
  __syncthreads();
  weightMatrix[ty][tx] = weight[index] * inputNode[ty];
  __syncthreads();
  for (int stride = 1; stride < BP_HEIGHT; stride *= 2) {
    if (ty % (2 * stride) == 0)
      weightMatrix[ty][tx] += weightMatrix[ty + stride][tx];
    __syncthreads();
  }
  if (ty == 0)
    partialSum[by * hid + tx] = weightMatrix[0][tx];
}

// w' = w + ETA delta[j] x[i] + MOMENTUM dw; dw' = the change.  The bias row
// (input 0) is done by block 0's first row; column 0 is copied.
__global__ void
bpnn_adjust_weights(const float *__restrict__ delta, int hid,
                    const float *__restrict__ ly, const float *__restrict__ w,
                    const float *__restrict__ oldw, float *__restrict__ wOut,
                    float *__restrict__ oldwOut, float eta, float momentum) {
  int by = blockIdx.y * gridDim.x + blockIdx.x;
  int tx = threadIdx.x, ty = threadIdx.y;
  int index = (hid + 1) * BP_HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int indexY = BP_HEIGHT * by + ty + 1;
  int indexX = tx + 1;
  float change = eta * delta[indexX] * ly[indexY] + momentum * oldw[index];
  wOut[index] = w[index] + change;
  oldwOut[index] = change;
  if (tx == 0) { // column 0 of this row
    wOut[index - 1] = w[index - 1];
    oldwOut[index - 1] = oldw[index - 1];
  }
  if (ty == 0 && by == 0) {
    float biasChange = eta * delta[indexX] + momentum * oldw[indexX];
    wOut[indexX] = w[indexX] + biasChange;
    oldwOut[indexX] = biasChange;
    if (tx == 0) {
      wOut[0] = w[0];
      oldwOut[0] = oldw[0];
    }
  }
}

namespace smc::workloads::backprop {
namespace {

class BackpropWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    haveReference = false;
    dInput.upload(problem.input);
    dWeight.upload(problem.weight);
    dOldDelta.upload(problem.oldDelta);
    dDelta.upload(problem.delta);
    dPartial.allocate(size_t(problem.in / BP_HEIGHT) * kHidden);
    dWeightOut.allocate(problem.weight.size());
    dOldDeltaOut.allocate(problem.weight.size());
  }

  void run(cudaStream_t stream) override {
    dim3 block(BP_WIDTH, BP_HEIGHT);
    dim3 grid(BP_GRID_X, problem.in / (BP_HEIGHT * BP_GRID_X));
    bpnn_layerforward<<<grid, block, 0, stream>>>(dInput.get(), dWeight.get(),
                                                  dPartial.get(), kHidden);
    SMC_CUDA_CHECK_LAUNCH();
    bpnn_adjust_weights<<<grid, block, 0, stream>>>(
        dDelta.get(), kHidden, dInput.get(), dWeight.get(), dOldDelta.get(),
        dWeightOut.get(), dOldDeltaOut.get(), kEta, kMomentum);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override {
    dPartial.poison(stream);
    dWeightOut.poison(stream);
    dOldDeltaOut.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    if (!haveReference) {
      cpuReference(problem, reference);
      haveReference = true;
    }
    std::vector<float> partial, weight, oldDelta;
    dPartial.download(partial);
    dWeightOut.download(weight);
    dOldDeltaOut.download(oldDelta);
    CheckResult r =
        compareScaled(partial.data(), reference.partial.data(),
                      reference.partialMagnitude.data(), partial.size(), 1e-5,
                      1e-30, "|gpu-ref|/sum|terms|", "partialSum");
    const char *metric = "|gpu-ref|/max(|ref|,1)";
    r.merge(compareScaled(weight.data(), reference.weight.data(), nullptr,
                          weight.size(), 1e-6, 1.0, metric, "weight"));
    r.merge(compareScaled(oldDelta.data(), reference.oldDelta.data(), nullptr,
                          oldDelta.size(), 1e-6, 1.0, metric, "oldDelta"));
    return r;
  }

  RunEstimate estimate() const override {
    double entries = double(problem.weight.size());
    return {entries * 4 * 5 + double(problem.in) * 8, entries * 8};
  }

private:
  Problem problem;
  bool haveReference = false;
  Reference reference;
  DeviceBuffer<float> dInput, dWeight, dOldDelta, dDelta, dPartial, dWeightOut,
      dOldDeltaOut;
};

} // namespace

std::unique_ptr<Workload> create() {
  return std::make_unique<BackpropWorkload>();
}

} // namespace smc::workloads::backprop
