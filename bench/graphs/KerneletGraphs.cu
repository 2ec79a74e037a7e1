//===- KerneletGraphs.cu - The Kernelet mixes as graphs of four branches --===//
//
// smc_graph_bench's Kernelet cases: the eight mixes of smc_kernelet_bench
// (KerneletOptions.h), each workload's run() captured on a branch of its
// own, so that a mix is a graph of four independent branches (one run's
// memsets and launches form one chain).  The workloads come from
// smc_kernelet_bench's Bench (KerneletBench.h: set up once at the default
// size and seed, shared by the mixes).  A checked replay starts from
// outputs poisoned by resetOutputs; each workload's check() compares them
// with its CPU reference, for every executable graph.
//
// With --batch the same four runs also go through an smc::Batch in
// Mode::Search, as smc_kernelet_bench's search mode does: recorded on the
// Bench's four streams and run behind its gate kernel, which holds the
// streams until the host has queued everything, so that the makespan
// leaves out the host's work (Batch::run's host time is reported apart).
//===----------------------------------------------------------------------===//
#include "GraphCases.h"
#include "KerneletBench.h"
#include "KerneletOptions.h"
#include "Workload.h"
#include "smc/smc.h"

#include <chrono>
#include <stdexcept>

namespace smc::graphbench {
namespace {

namespace kt = smc::kernelet;
namespace wl = smc::workloads;

class KerneletMix : public GraphCase {
public:
  KerneletMix(std::shared_ptr<kt::Bench> Bench, unsigned Mix)
      : GraphCase(mixName(Mix), "kernelet"), Bench(std::move(Bench)), Mix(Mix) {
  }

  cudaGraph_t capture(BranchCapture &Capture) override {
    std::vector<StreamWork> Branches;
    for (wl::Workload *W : workloads())
      Branches.push_back([W](cudaStream_t Stream) { W->run(Stream); });
    return Capture.capture(Branches);
  }

  void prepareCheck(cudaStream_t Stream) override {
    for (wl::Workload *W : workloads())
      W->resetOutputs(Stream);
  }

  std::string keepReference() override { return check(); }

  std::string check() override {
    std::vector<wl::Workload *> Mix = workloads();
    for (unsigned I = 0; I < kt::NumStreams; ++I) {
      wl::CheckResult R = Mix[I]->check();
      if (!R.ok)
        return std::string(kt::MixNames[this->Mix][I]) + ": " + R.summary();
    }
    return "";
  }

  bool hasBatch() const override { return true; }

  double runBatch(std::string *Layout, double *HostUs) override {
    std::vector<wl::Workload *> Mix = workloads();
    return Bench->measure([&] {
      smc::Batch Batch;
      std::string Error;
      if (!Batch.begin(&Error))
        throw std::runtime_error("smc::Batch::begin: " + Error);
      for (unsigned I = 0; I < kt::NumStreams; ++I)
        Mix[I]->run(Bench->Streams[I]);
      Batch.end();
      auto Begin = std::chrono::steady_clock::now();
      if (!Batch.run(smc::Batch::Mode::Search, &Error))
        throw std::runtime_error("smc::Batch::run: " + Error);
      *HostUs = std::chrono::duration<double, std::micro>(
                    std::chrono::steady_clock::now() - Begin)
                    .count();
      *Layout = Batch.describe();
    });
  }

private:
  static std::string mixName(unsigned Mix) {
    std::string Name;
    for (const char *W : kt::MixNames[Mix])
      Name += std::string(Name.empty() ? "" : "+") + W;
    return Name;
  }

  // The mix's workloads, set up on first use.
  std::vector<wl::Workload *> workloads() {
    std::vector<wl::Workload *> Out;
    for (const char *W : kt::MixNames[Mix])
      Out.push_back(&Bench->workload(W));
    return Out;
  }

  std::shared_ptr<kt::Bench> Bench;
  unsigned Mix;
};

} // namespace

GraphCaseList kerneletCases() {
  auto Bench = std::make_shared<kt::Bench>();
  GraphCaseList Cases;
  for (unsigned M = 0; M < kt::NumMixes; ++M)
    Cases.push_back(std::make_unique<KerneletMix>(Bench, M));
  return Cases;
}

} // namespace smc::graphbench
