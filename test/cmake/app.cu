//===- app.cu - The CMake consumer's program -------------------------------===//
//
// One kernel launched with <<<>>>; with a GPU it checks the result, without
// one it says so and exits 0.  The build test checks that the binary holds
// the kernel's __smc and __slice variants.
//===----------------------------------------------------------------------===//
#include "smc/smc.h"

#include <cstdio>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("consumer: no GPU\n");
    return 0;
  }
  smc::setPolicy(scale, smc::Policy::smCentric());
  const int n = 1000;
  float *x;
  cudaMallocManaged(&x, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    x[i] = float(i);
  scale<<<(n + 127) / 128, 128>>>(x, n);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i)
    if (x[i] != 2.0f * i) {
      std::printf("consumer: wrong result at %d\n", i);
      return 1;
    }
  std::printf("consumer: OK\n");
  return 0;
}
