//===- GpuTestMain.cu - Entry point of smc_gpu_tests ----------------------===//
//
// Runs the GPU tests, or, where no CUDA GPU can be used, prints
// "SKIPPED: no CUDA GPU (<reason>)" and exits with 77, which ctest counts as
// a skip (SKIP_RETURN_CODE), never as a pass.
//
// (--smc-exit-in-flight runs the child of a lifetime test instead.)
//
// USAGE: smc_gpu_tests [--gtest_filter=...]
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int Argc, char **Argv) {
  if (Argc == 2 && std::string(Argv[1]) == "--smc-exit-in-flight")
    return exitWithLaunchesInFlight();
  ::testing::InitGoogleTest(&Argc, Argv);
  if (::testing::GTEST_FLAG(list_tests))
    return RUN_ALL_TESTS();

  int Count = 0;
  cudaError_t Err = cudaGetDeviceCount(&Count);
  if (Err != cudaSuccess || Count == 0) {
    std::printf("SKIPPED: no CUDA GPU (%s)\n",
                Err != cudaSuccess ? cudaGetErrorString(Err)
                                   : "cudaGetDeviceCount found 0 devices");
    std::fflush(stdout);
    return 77;
  }
  if (cudaSetDevice(0) != cudaSuccess) {
    std::printf("smc_gpu_tests: cannot use device 0\n");
    return 1;
  }
  cudaDeviceProp Prop;
  if (cudaGetDeviceProperties(&Prop, 0) == cudaSuccess)
    std::printf("smc_gpu_tests: device 0 is %s, sm_%d%d, %d SMs\n", Prop.name,
                Prop.major, Prop.minor, Prop.multiProcessorCount);
  for (const char *Var : {"SMC_DISABLE", "SMC_POLICY"})
    if (const char *Value = std::getenv(Var); Value && *Value)
      std::printf("smc_gpu_tests: warning: %s=%s is set; the tests set their "
                  "own policies and the placement tests fail where it "
                  "overrides them\n",
                  Var, Value);
  return RUN_ALL_TESTS();
}
