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
  std::string Device;
  int Result = smctest::gpuTestMain(Argc, Argv, "smc_corpus_tests", Device);
  if (Result == 77 || ::testing::GTEST_FLAG(list_tests))
    return Result;
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
