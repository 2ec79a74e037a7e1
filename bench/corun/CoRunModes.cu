//===- CoRunModes.cu - One co-run of a group, in each mode ----------------===//
//
// How smc_corun_bench (corun.cu) co-runs a group: the gate kernel that
// gives every stream a common start, the jobs queued behind it (in turn,
// or recorded into an smc::Batch), a gate that timed out run again, and
// each mode's streams, SM shares, green contexts and policies.
//
// This file is compiled without the SMC plugin (the gate kernel is launched
// as it is); the workloads' launches go through the SMC runtime.
//===----------------------------------------------------------------------===//
#include "BenchCuda.h"
#include "CoRunHarness.h"

#include <cmath>
#include <stdexcept>

// Holds its stream until the host sets *Release to Generation or later, or
// for TimeoutNs at most (then *TimedOut = Generation).
__global__ void gateKernel(const volatile unsigned *Release,
                           unsigned Generation, unsigned long long TimeoutNs,
                           volatile unsigned *TimedOut) {
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  while (*Release < Generation) {
    if (__nvvm_read_ptx_sreg_globaltimer() - Begin > TimeoutNs) {
      *TimedOut = Generation;
      return;
    }
    __nanosleep(1000);
  }
}

namespace smc::corun {
namespace {

constexpr unsigned long long GateTimeoutNs = 200'000'000; // 200 ms
constexpr int GateAttempts = 3;

} // namespace

void Harness::usePolicy(const std::vector<SuiteWorkload *> &Ws, Variant V) {
  std::string Key = V == Variant::Original ? "original" : "smc";
  for (const SuiteWorkload *W : Ws)
    Key += ":" + W->name();
  if (Key == PolicyKey)
    return;
  // Policies of earlier pairs are dropped, so that the lookup stays short.
  smc::clearPolicies();
  smc::Policy P = V == Variant::Original ? smc::Policy::original()
                                         : smc::Policy::smCentric();
  for (const SuiteWorkload *W : Ws)
    for (const std::string &Kernel : W->Info->kernelNames)
      smc::setPolicy(Kernel, P);
  PolicyKey = Key;
}

std::vector<double> Harness::runJobsOnce(const std::vector<Job> &Jobs,
                                         bool &TimedOut) {
  unsigned Gen = ++Generation;
  gateKernel<<<1, 1, 0, GateStream>>>(DeviceFlags, Gen, GateTimeoutNs,
                                      DeviceFlags + 1);
  SMC_CUDA_CHECK(cudaGetLastError());
  SMC_CUDA_CHECK(cudaEventRecord(Start, GateStream));
  std::vector<cudaStream_t> Streams;
  for (const Job &J : Jobs) {
    if (std::find(Streams.begin(), Streams.end(), J.Stream) != Streams.end())
      continue;
    Streams.push_back(J.Stream);
    SMC_CUDA_CHECK(cudaStreamWaitEvent(J.Stream, Start, 0));
    SMC_CUDA_CHECK(cudaEventRecord(J.Begin, J.Stream));
  }
  if (Streams.size() == 1) { // serial: one workload after the other
    for (const Job &J : Jobs) {
      for (unsigned R = 0; R < J.W->Reps; ++R)
        J.W->Instance->run(J.Stream);
      SMC_CUDA_CHECK(cudaEventRecord(J.End, J.Stream));
    }
  } else {
    // Batching: events act at once while launches are recorded, so the
    // ends are recorded after run(), when each stream waits for its last
    // launch.
    smc::Batch Batch;
    std::string Error;
    if (Batched) {
      Batch.setObjective(*Batched);
      if (!Batch.begin(&Error))
        throw std::runtime_error("smc::Batch: " + Error);
    }
    unsigned Most = 0;
    for (const Job &J : Jobs)
      Most = std::max(Most, J.W->Reps);
    for (unsigned R = 0; R < Most; ++R)
      for (const Job &J : Jobs) {
        if (R >= J.W->Reps)
          continue;
        J.W->Instance->run(J.Stream);
        if (R + 1 == J.W->Reps && !Batched)
          SMC_CUDA_CHECK(cudaEventRecord(J.End, J.Stream));
      }
    if (Batched) {
      Batch.end();
      if (!Batch.run(smc::Batch::Mode::Search, &Error))
        throw std::runtime_error("smc::Batch: " + Error);
      LastLayout = Batch.describe();
      for (const Job &J : Jobs)
        SMC_CUDA_CHECK(cudaEventRecord(J.End, J.Stream));
    }
  }
  __atomic_store_n(&Flags[0], Gen, __ATOMIC_SEQ_CST);
  for (const Job &J : Jobs)
    SMC_CUDA_CHECK(cudaEventSynchronize(J.End));
  TimedOut = __atomic_load_n(&Flags[1], __ATOMIC_SEQ_CST) == Gen;
  std::vector<double> Ms;
  for (const Job &J : Jobs)
    Ms.push_back(elapsedMs(J.Begin, J.End));
  return Ms;
}

std::vector<double> Harness::runJobs(const std::vector<Job> &Jobs) {
  for (int Attempt = 1;; ++Attempt) {
    bool TimedOut = false;
    std::vector<double> Ms = runJobsOnce(Jobs, TimedOut);
    if (!TimedOut)
      return Ms;
    ++GateTimeouts;
    if (Attempt == GateAttempts) {
      ++UnreleasedRuns;
      return std::vector<double>(Jobs.size(), NAN);
    }
  }
}

double Harness::runAlone(SuiteWorkload &W) {
  return runJobs({{&W, Plain[0].Stream, Plain[0].Begin, Plain[0].End}})[0];
}

std::vector<double> Harness::runOnLanes(GroupRun &P, bool FirstHigh) {
  if (P.size() > Plain.size())
    throw std::runtime_error(P.Group.name() + ": more workloads than streams");
  std::vector<Job> Jobs;
  for (size_t I = 0; I < P.size(); ++I) {
    const Lane &L = I == 0 && FirstHigh ? High : Plain[I];
    Jobs.push_back({P.Members[I], L.Stream, L.Begin, L.End});
  }
  return runJobs(Jobs);
}

std::vector<double>
Harness::runShares(GroupRun &P, const std::vector<smc::KernelShare> &Shares) {
  if (Shares.size() != P.size() || P.size() > Plain.size())
    throw std::runtime_error(P.Group.name() + ": " +
                             std::to_string(Shares.size()) + " SM shares for " +
                             std::to_string(P.size()) + " workloads");
  usePolicy(P.Members, Variant::SmCentric);
  auto ClearAll = [&] {
    for (size_t I = 0; I < P.size(); ++I)
      smc::clearStreamSMs(Plain[I].Stream);
  };
  for (size_t I = 0; I < P.size(); ++I) {
    std::string Error;
    if (!smc::setStreamSMs(Plain[I].Stream,
                           smRange(Shares[I].FirstSm, Shares[I].NumSms),
                           Shares[I].WorkersPerSm, &Error)) {
      ClearAll();
      throw std::runtime_error(Error);
    }
  }
  std::vector<double> Ms;
  try {
    Ms = runOnLanes(P);
  } catch (...) {
    ClearAll();
    throw;
  }
  ClearAll();
  return Ms;
}

std::vector<double> Harness::runDecision(GroupRun &P,
                                         const smc::CoRunDecision &D) {
  if (D.Kind == smc::CoRunKind::Partition)
    return runShares(P, D.Shares);
  usePolicy(P.Members, Variant::Original);
  return runOnLanes(P);
}

std::vector<double> Harness::runGreen(GroupRun &P,
                                      const GreenContexts::Split &S) {
  if (S.Streams.size() != P.size())
    throw std::runtime_error("green contexts: a split of " +
                             std::to_string(S.Streams.size()) + " for " +
                             std::to_string(P.size()) + " workloads");
  usePolicy(P.Members, Variant::Original);
  std::vector<Job> Jobs;
  for (size_t I = 0; I < P.size(); ++I)
    Jobs.push_back({P.Members[I], S.Streams[I], S.Begins[I], S.Ends[I]});
  return runJobs(Jobs);
}

std::vector<double> Harness::runMode(GroupRun &P, const std::string &Mode) {
  if (Mode == "smc-shared") {
    usePolicy(P.Members, Variant::SmCentric);
    return runOnLanes(P);
  }
  if (Mode == "smc-oracle")
    return runShares(P, P.OracleShares);
  if (Mode == "batch-search" || Mode == "batch-turnaround") {
    usePolicy(P.Members, Variant::Original);
    Batched = Mode == "batch-search" ? smc::Batch::Objective::Makespan
                                     : smc::Batch::Objective::Turnaround;
    try {
      std::vector<double> Ms = runOnLanes(P);
      Batched.reset();
      return Ms;
    } catch (...) {
      Batched.reset();
      throw;
    }
  }
  if (Mode == "smc-scheduler")
    return runDecision(P, P.Decision);
  if (Mode == "smc-trials")
    return runDecision(P, P.Trials);
  if (Mode == "green") {
    std::string Error;
    const GreenContexts::Split *S = Green.split(P.GreenSms, Error);
    if (!S)
      throw std::runtime_error("green contexts: " + Error);
    return runGreen(P, *S);
  }
  usePolicy(P.Members, Variant::Original);
  if (Mode == "serial") {
    // One stream, one common Begin; each workload's End after its runs.
    std::vector<Job> Jobs;
    for (size_t I = 0; I < P.size(); ++I)
      Jobs.push_back(
          {P.Members[I], Plain[0].Stream, Plain[0].Begin, Plain[I].End});
    return runJobs(Jobs);
  }
  if (Mode == "priority")
    return runOnLanes(P, /*FirstHigh=*/true);
  return runOnLanes(P); // streams
}

} // namespace smc::corun
