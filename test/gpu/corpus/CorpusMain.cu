//===- CorpusMain.cu - Entry point of smc_corpus_tests --------------------===//
//
// Runs the library-code corpus, or, where no CUDA GPU can be used, prints
// "SKIPPED: no CUDA GPU (<reason>)" and exits with 77, which ctest counts as
// a skip (SKIP_RETURN_CODE), never as a pass.  With SMC_CORPUS_JSON=<file>
// it writes the timings of every program and policy to <file> at the end.
//
// USAGE: smc_corpus_tests [--gtest_filter=Library/Corpus.Run/cub_*]
//===----------------------------------------------------------------------===//
#include "CorpusTimings.h"
#include "GpuTest.h"

#include <cstdio>
#include <cstdlib>

int main(int Argc, char **Argv) {
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
    std::printf("smc_corpus_tests: cannot use device 0\n");
    return 1;
  }
  std::string Device = "device 0";
  cudaDeviceProp Prop;
  if (cudaGetDeviceProperties(&Prop, 0) == cudaSuccess) {
    Device = std::string(Prop.name) + ", sm_" + std::to_string(Prop.major) +
             std::to_string(Prop.minor) + ", " +
             std::to_string(Prop.multiProcessorCount) + " SMs";
    std::printf("smc_corpus_tests: device 0 is %s\n", Device.c_str());
  }
  for (const char *Var : {"SMC_DISABLE", "SMC_POLICY"})
    if (const char *Value = std::getenv(Var); Value && *Value)
      std::printf("smc_corpus_tests: warning: %s=%s is set; the tests set "
                  "their own policies and it may override them\n",
                  Var, Value);
  int Result = RUN_ALL_TESTS();

  if (const char *Path = std::getenv("SMC_CORPUS_JSON"); Path && *Path) {
    std::string Error;
    if (!corpus::writeTimingsJson(Path, Device, Error)) {
      std::printf("smc_corpus_tests: SMC_CORPUS_JSON: %s\n", Error.c_str());
      return 1;
    }
    std::printf("smc_corpus_tests: timings written to %s\n", Path);
  }
  return Result;
}
