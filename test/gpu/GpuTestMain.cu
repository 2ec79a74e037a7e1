//===- GpuTestMain.cu - Entry point of smc_gpu_tests ----------------------===//
//
// Runs the GPU tests, or, where no CUDA GPU can be used, prints
// "SKIPPED: no CUDA GPU (<reason>)" and exits with 77, which ctest counts as
// a skip (SKIP_RETURN_CODE), never as a pass.
//
// (--smc-exit-in-flight, --smc-auto-record, --smc-trace and
// --smc-tenant-* run the child of a
// lifetime test, of a profile recording test, of the SMC_TRACE test and of
// the tenants test instead.)
//
// USAGE: smc_gpu_tests [--gtest_filter=...]
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <string>

int main(int Argc, char **Argv) {
  if (Argc == 2 && std::string(Argv[1]) == "--smc-exit-in-flight")
    return exitWithLaunchesInFlight();
  if (Argc == 2 && std::string(Argv[1]) == "--smc-auto-record")
    return recordAutoLaunches();
  if (Argc == 2 && std::string(Argv[1]) == "--smc-trace")
    return traceLaunches();
  if (Argc == 2 && std::string(Argv[1]).rfind("--smc-tenant-", 0) == 0)
    return tenantChild(Argv[1]);
  std::string Device;
  return smctest::gpuTestMain(Argc, Argv, "smc_gpu_tests", Device);
}
