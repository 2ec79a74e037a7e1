//===- CoRunSetup.cu - The co-run harness's device and workloads ----------===//
//
// smc_corun_bench's (corun.cu) setup: the device, its streams, events and
// the run's context (initDevice), their release at the end, and each
// workload set up, checked alone (originals and __smc variants), its
// repetitions calibrated and its __smc variant profiled on k SMs x workers
// per SM (for the scheduler and the oracle's bound).
//===----------------------------------------------------------------------===//
#include "BenchCuda.h"
#include "CoRunHarness.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <stdexcept>

#ifndef SMC_VERSION
#define SMC_VERSION "unknown"
#endif

namespace smc::corun {
namespace {

std::string isoDate() {
  std::time_t Now = std::time(nullptr);
  char Buffer[32];
  std::strftime(Buffer, sizeof(Buffer), "%Y-%m-%dT%H:%M:%S%z",
                std::localtime(&Now));
  return Buffer;
}

} // namespace

void Harness::initDevice() {
  SMC_CUDA_CHECK(cudaGetDeviceProperties(&Prop, 0));
  NumSms = unsigned(Prop.multiProcessorCount);
  int Driver = 0, Runtime = 0;
  cudaDriverGetVersion(&Driver);
  cudaRuntimeGetVersion(&Runtime);
  SMC_CUDA_CHECK(cudaStreamCreateWithFlags(&GateStream, cudaStreamNonBlocking));
  SMC_CUDA_CHECK(cudaEventCreate(&Start));
  SMC_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void **>(&Flags),
                               2 * sizeof(unsigned), cudaHostAllocMapped));
  Flags[0] = Flags[1] = 0;
  SMC_CUDA_CHECK(cudaHostGetDevicePointer(
      reinterpret_cast<void **>(&DeviceFlags), Flags, 0));
  size_t Lanes = MinGroupSize;
  std::set<size_t> Sizes;
  for (const WorkloadGroup &G : Opt.Groups) {
    Lanes = std::max(Lanes, G.size());
    Sizes.insert(G.size());
  }
  Plain.resize(Lanes);
  PriorityStreams Priority = createPriorityStreams();
  Plain[0].Stream = Priority.Low;
  High.Stream = Priority.High;
  for (size_t I = 1; I < Plain.size(); ++I)
    SMC_CUDA_CHECK(
        cudaStreamCreateWithFlags(&Plain[I].Stream, cudaStreamNonBlocking));
  std::vector<Lane *> All = {&High};
  for (Lane &L : Plain)
    All.push_back(&L);
  for (Lane *L : All) {
    SMC_CUDA_CHECK(cudaEventCreate(&L->Begin));
    SMC_CUDA_CHECK(cudaEventCreate(&L->End));
  }
  if (wants("green") && !Green.init(0))
    GreenProblem = Green.reason();

  std::vector<std::string> Groups;
  for (const WorkloadGroup &G : Opt.Groups)
    Groups.push_back(G.name());
  // What the sweeps try, by group size.
  json OracleConfigs = json::object(), OracleWorkers = json::object();
  for (size_t Size : Sizes) {
    std::string Key = std::to_string(Size);
    OracleConfigs[Key] =
        oracleConfigs(NumSms, Opt.SplitStep, Opt.Workers, unsigned(Size))
            .size();
    OracleWorkers[Key] = oracleWorkers(Opt.Workers, unsigned(Size));
  }
  Context = {
      {"date", isoDate()},
      {"executable", Program},
      {"smc_version", SMC_VERSION},
      {"gpu", Prop.name},
      {"gpu_sm_count", NumSms},
      {"gpu_cc", std::to_string(Prop.major) + "." + std::to_string(Prop.minor)},
      {"cuda_driver", Driver},
      {"cuda_runtime", Runtime},
      {"module_loading", std::getenv("CUDA_MODULE_LOADING")
                             ? std::getenv("CUDA_MODULE_LOADING")
                             : ""},
      {"pairs", Groups}, // every group, whatever its size
      {"group_sizes", Sizes},
      {"triples", Opt.Triples},
      {"modes", Opt.Modes},
      {"quick", Opt.Quick},
      {"rounds", Opt.Rounds},
      {"target_ms", Opt.TargetMs},
      {"split_step", Opt.SplitStep},
      {"oracle_workers_per_sm", Opt.Workers},
      {"oracle_workers_per_sm_by_group_size", OracleWorkers},
      {"oracle_configs", OracleConfigs}, // by group size
      {"green_max_splits", MaxGreenSplits},
      {"profile_sms", profileSmCounts(NumSms, Opt.Quick)},
      {"check", Opt.Check == CheckPolicy::EveryGroup ? "pair" : "once"},
      {"sweep_s", Opt.SweepSeconds},
      {"budget_s", Opt.BudgetSeconds},
      {"metrics", "STP = sum T_alone/T_corun; ANTT = mean T_corun/T_alone; "
                  "T_alone = the originals alone on the whole GPU (median of "
                  "the group's alone rounds); T_corun from the common start "
                  "to the end of the workload's stream; medians over rounds; "
                  "sums and means over the group's workloads"},
      {"mps", "not measured: the harness has no MPS mode"},
  };
  json GreenJson = {{"available", GreenProblem.empty() && wants("green")}};
  if (!wants("green"))
    GreenJson["reason"] = "mode not selected";
  else if (!GreenProblem.empty())
    GreenJson["reason"] = GreenProblem;
  else {
    GreenJson["device_sms"] = Green.deviceSms();
    GreenJson["min_partition"] = Green.minPartition();
    GreenJson["alignment"] = Green.alignment();
  }
  Context["green_contexts"] = GreenJson;
  if (const char *Policy = std::getenv("SMC_POLICY"))
    Context["SMC_POLICY"] = Policy; // overrides nothing the harness sets
}

void Harness::releaseDevice() {
  // Nothing may be in flight on what is destroyed; after a sticky error
  // the context is gone and there is nothing to release.
  if (cudaDeviceSynchronize() != cudaSuccess) {
    cudaGetLastError();
    std::fprintf(stderr, "%s: the device failed; nothing released\n", Program);
    return;
  }
  unsigned Failed = Green.release();
  std::vector<Lane *> All = {&High};
  for (Lane &L : Plain)
    All.push_back(&L);
  for (Lane *L : All) {
    for (cudaEvent_t *E : {&L->Begin, &L->End})
      if (*E) {
        Failed += cudaEventDestroy(*E) != cudaSuccess;
        *E = nullptr;
      }
    if (L->Stream) {
      smc::clearStreamSMs(L->Stream);
      Failed += cudaStreamDestroy(L->Stream) != cudaSuccess;
      L->Stream = nullptr;
    }
  }
  if (Start)
    Failed += cudaEventDestroy(Start) != cudaSuccess;
  if (GateStream)
    Failed += cudaStreamDestroy(GateStream) != cudaSuccess;
  if (Flags)
    Failed += cudaFreeHost(Flags) != cudaSuccess;
  Start = nullptr;
  GateStream = nullptr;
  Flags = DeviceFlags = nullptr;
  cudaGetLastError();
  if (Failed)
    std::fprintf(stderr, "%s: %u streams, events or contexts not released\n",
                 Program, Failed);
}

CheckRecord Harness::check(SuiteWorkload &W) {
  CheckRecord R;
  R.Workload = W.name();
  try {
    wl::CheckResult Result = W.Instance->check();
    R.Ok = Result.ok;
    R.Summary = Result.summary();
  } catch (const std::exception &E) {
    R.Summary = std::string("check threw: ") + E.what();
  }
  return R;
}

SuiteWorkload &Harness::workload(const std::string &Name) {
  std::unique_ptr<SuiteWorkload> &Slot = Workloads[Name];
  if (Slot)
    return *Slot;
  auto W = std::make_unique<SuiteWorkload>();
  W->Info = wl::findWorkload(Name);
  W->Class = findClassified(Name);
  if (!W->Info || !W->Class)
    throw std::runtime_error("no workload '" + Name + "'");
  std::fprintf(stderr, "%s: setting up %s [%s]\n", Program, Name.c_str(),
               W->Info->params(wl::Size::Default).str().c_str());
  usePolicy({W.get()}, Variant::Original); // setup kernels run as they are
  W->Instance = wl::setUpWorkload(*W->Info, wl::Size::Default);
  // Uploads from pageable memory may still be in flight.
  SMC_CUDA_CHECK(cudaDeviceSynchronize());
  Slot = std::move(W);
  WorkloadOrder.push_back(Name);
  calibrate(*Slot);
  if (wants("smc-oracle") || wants("smc-scheduler") || wants("smc-trials"))
    profile(*Slot);
  return *Slot;
}

void Harness::calibrate(SuiteWorkload &W) {
  for (Variant V : {Variant::Original, Variant::SmCentric}) {
    usePolicy({&W}, V);
    W.Reps = 1;
    for (int I = 0; I < 2; ++I) // warm-up: modules, plans
      runAlone(W);
    W.Instance->resetOutputs(Plain[0].Stream);
    runAlone(W);
    CheckRecord C = check(W);
    C.Summary =
        (V == Variant::Original ? "originals alone: " : "__smc alone: ") +
        C.Summary;
    if (!C.Ok)
      Failures.push_back(W.name() + ": " + C.Summary);
    W.AloneChecks.push_back(C);
  }
  usePolicy({&W}, Variant::Original);
  W.RunMs = median({runAlone(W), runAlone(W), runAlone(W)});
  W.Reps = repsFor(W.RunMs, Opt.TargetMs);
  W.AloneMs = median({runAlone(W), runAlone(W), runAlone(W)});
  std::fprintf(stderr, "%s: %s: %.3f ms a run, %u runs alone %.3f ms\n",
               Program, W.name().c_str(), W.RunMs, W.Reps, W.AloneMs);
}

void Harness::profile(SuiteWorkload &W) {
  usePolicy({&W}, Variant::SmCentric);
  W.Profile = smc::KernelProfile(W.name(), Prop.name, NumSms);
  for (unsigned Sms : profileSmCounts(NumSms, Opt.Quick))
    for (unsigned Workers : Opt.Workers) {
      std::string Error;
      if (!smc::setStreamSMs(Plain[0].Stream, smRange(0, Sms), Workers, &Error))
        throw std::runtime_error(Error);
      double Ms = runAlone(W);
      smc::clearStreamSMs(Plain[0].Stream);
      if (std::isfinite(Ms))
        W.Profile.addSample({Sms, Workers, Ms / 1e3, 1});
    }
}

} // namespace smc::corun
