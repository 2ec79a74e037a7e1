//===- launch_path.h - Launch-path benchmarks of smc_bench ------*- C++ -*-===//
//
// launch_path.cpp is compiled without the SMC plugin, so that its
// cudaLaunchKernel calls stay plain; smc_bench.cu (compiled with the plugin)
// defines the empty kernel and hands its host symbol over.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_LAUNCH_PATH_H
#define SMC_BENCH_LAUNCH_PATH_H

/// The host symbol (stub address) of an empty kernel compiled with the
/// plugin, so that it has SMC variants.
const void *emptyKernelSymbol();

/// Which launch-path cases to register: those without stream priorities, or
/// one of the two with them (smc_entry_smc_yielding, smc_entry_smc_urgent)
/// beside plain cudaLaunchKernel: their yielding, once on, stays on for the
/// process.
enum class LaunchPathCases { WithoutPriorities, Yielding, Urgent };

/// Registers launch_path/{cudaLaunchKernel, smc_entry_original,
/// smc_entry_smc, smc_entry_slice, ...}: host time per launch of the empty
/// kernel through plain cudaLaunchKernel and through the SMC runtime entry
/// (launch_path.cpp lists every case), those of \p Cases.
void registerLaunchPathBenchmarks(unsigned NumSMs, LaunchPathCases Cases);

#endif // SMC_BENCH_LAUNCH_PATH_H
