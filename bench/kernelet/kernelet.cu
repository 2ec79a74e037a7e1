//===- kernelet.cu - Mixes of suite workloads co-scheduled as slices ------===//
//
// smc_kernelet_bench: mixes of four workloads of the Kernelet paper's set
// (bs, mm, mriq, pc, sad, spmv, st, tea; bench/workloads, compiled with the
// SMC plugin), each workload's run() on a stream of its own, measured as
// the makespan of the whole mix in these modes:
//
//   fifo      every run() on one stream, originals: one kernel at a time
//   streams   each on its own stream, originals: the hardware's co-run
//   kernelet  recorded into an smc::Batch and run as the Kernelet model's
//             greedy co-schedule of slices (KerneletModel.h: planned from
//             Batch::launches() and the issue profiles, run as an explicit
//             plan, Batch::run(runs))
//   search    smc::Batch::Mode::Search after --search-runs batches of the
//             mix (each timed: the search's trajectory is in the JSON)
//   auto      with --profile: no batch, every launch of policy auto (the
//             co-run scheduler's SM partitions, from the profiles' scaling
//             curves: record them with scripts/smc-profile -n 2 --
//             smc_kernelet_bench --profile-run), after --auto-runs runs of
//             the mix (default 64) in which co-runs that recur are measured
//             until they settle: SMC without the batch API
//   oracle    the best measured plan of a grid: every way to put the four
//             streams on the batch's two lanes (which two go on lane 0,
//             whose CTAs are placed first, which follows which on a lane)
//             x per stream, its launches whole, in slices of half the CTAs
//             they fit on the GPU at once (at least the minimum slice:
//             slicing costs at most 2% of their time) or as persistent
//             workers, half as many per SM (1,944 layouts,
//             smc::Batch::balancedLayouts; --oracle-splits 5 adds a
//             quarter and three quarters of the workers: 15,000 layouts);
//             its best plan (or kernelet's or search's, if that measured
//             faster) is re-measured
//   slices, partitions, combined
//             with --combined: the best measured plans of a second grid,
//             every order x per stream whole, in slices, or as an SM
//             partition (all its workers on its lane's half of the SMs,
//             Split::Partition; 1,944 layouts): the best with slices but
//             no partition (Kernelet's mechanism, measured rather than
//             modelled), with partitions but no slices, and with both
//             (slicing and SM partitions combined), each re-measured
//
// Each mix first measures every oracle layout once (with the model's
// prediction for it), then lets the search settle; then a warm-up round
// and --rounds rounds of the five modes, interleaved in a random order per
// round; medians.  A gate kernel holds the mix's
// streams until the host has queued everything, so host work does not
// count in the makespan; the host time of Batch::run (planning and
// enqueueing) is reported per launch.  Every workload's outputs are
// checked against its CPU reference after the first run of every mode.
//
// USAGE: smc_kernelet_bench [--profile FILE] [--rounds N] [--json FILE]
//                           [--mixes N] [--first-mix K] [--search-runs N]
//                           [--no-oracle] [--combined] [--auto-runs N]
//                           [--oracle-splits 2|3|5|6]
//                           [--profile-run [--profile-repeats N]]
//   --profile FILE  the "issue" profiles (scripts/smc-profile --ncu -o FILE
//                   -- smc_kernelet_bench --profile-run), loaded into the
//                   runtime and read by the model; without them kernelet
//                   runs every launch whole, one after another
//   --profile-run   runs each workload N times (default 6), alone, and
//                   exits: what smc-profile (--ncu or not) measures
//   --first-mix K   starts at mix K (0-7), for --mixes N mixes: a run of
//                   the whole oracle split over processes (plot_kernelet.py
//                   takes their JSON files together)
// This file is compiled without the plugin; the workloads' launches go
// through the SMC runtime.  The mixes and options: KerneletOptions.h; the
// streams, the gate and --profile-run: KerneletBench.h.
//===----------------------------------------------------------------------===//
#include "BenchCuda.h"
#include "KerneletBench.h"
#include "KerneletOptions.h"
#include "KerneletPlan.h"
#include "Workload.h"
#include "smc/smc.h"

#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using nlohmann::json;
namespace kt = smc::kernelet;
namespace wl = smc::workloads;
using kt::Bench;
using kt::MixNames;
using kt::NumMixes;
using kt::NumStreams;
using kt::Options;

namespace {

// A layout's Split per stream (smc::Batch::Split): 0 whole, 1 slices, 2-4
// half, a quarter, three quarters of the workers, 5 partition.
std::vector<int> Splits(const smc::Batch::Layout &L) {
  std::vector<int> Out;
  for (smc::Batch::Split How : L.splits)
    Out.push_back(int(How));
  return Out;
}

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

int run(const Options &O) {
  cudaDeviceProp Prop;
  SMC_CUDA_CHECK(cudaGetDeviceProperties(&Prop, 0));
  std::string Error;
  if (!O.Profile.empty() && !smc::loadProfiles(O.Profile, &Error))
    throw std::runtime_error(Error);
  // The same profiles for the Kernelet model.
  smc::ProfileSet Profiles;
  if (!O.Profile.empty()) {
    std::ifstream In(O.Profile);
    std::string Text((std::istreambuf_iterator<char>(In)),
                     std::istreambuf_iterator<char>());
    if (!Profiles.load(Text, Error))
      throw std::runtime_error(O.Profile + ": " + Error);
  }
  // The model of a recorded batch's launches on this device.
  auto ModelOf = [&](const smc::Batch &Batch) {
    return kt::batchModel(Batch.launches(), Profiles,
                          unsigned(Prop.multiProcessorCount),
                          unsigned(Prop.maxThreadsPerMultiProcessor));
  };
  Bench B;
  json Out;
  Out["device"] = Prop.name;
  Out["sms"] = Prop.multiProcessorCount;
  Out["rounds"] = O.Rounds;
  Out["profile"] = O.Profile;
  Out["mixes"] = json::array();
  std::printf("%s, %d SMs\n", Prop.name, Prop.multiProcessorCount);
  std::printf("%-22s %8s %8s %8s %8s %8s %7s %7s %7s %7s %8s\n", "mix",
              "fifo ms", "streams", "kernelet", "search", "oracle", "str/k",
              "str/s", "orc/s", "pred", "run us/l");
  for (unsigned M = O.FirstMix; M < std::min(O.FirstMix + O.Mixes, NumMixes);
       ++M) {
    std::vector<wl::Workload *> Mix;
    std::string Name;
    for (const char *W : MixNames[M]) {
      Mix.push_back(&B.workload(W));
      Name += std::string(Name.empty() ? "" : "+") + W;
    }
    auto Record = [&](smc::Batch &Batch) {
      if (!Batch.begin(&Error))
        throw std::runtime_error(Error);
      for (unsigned I = 0; I < NumStreams; ++I)
        Mix[I]->run(B.Streams[I]);
      Batch.end();
    };
    auto Originals = [&](bool OneStream) {
      smc::setPolicy("*", smc::Policy::original());
      for (unsigned I = 0; I < NumStreams; ++I)
        Mix[I]->run(B.Streams[OneStream ? 0 : I]);
    };
    double RunHostUs = 0, Predicted = 0;
    unsigned Launches = 0;
    auto Kernelet = [&]() {
      smc::Batch Batch;
      Record(Batch);
      Launches = Batch.size();
      auto T0 = std::chrono::steady_clock::now();
      kt::BatchModel Model = ModelOf(Batch);
      kt::Schedule Plan = kt::planGreedy(Model.Device, Model.Launches);
      if (!Batch.run(Plan.Runs, &Error))
        throw std::runtime_error(Error);
      RunHostUs = std::chrono::duration<double, std::micro>(
                      std::chrono::steady_clock::now() - T0)
                      .count();
      Predicted = Plan.PredictedSeconds;
    };
    json MixJson;
    MixJson["mix"] = Name;

    // A grid of layouts, each measured once: the plans, their times and
    // layouts, as JSON under Key.
    struct GridPoint {
      std::vector<smc::Batch::SliceRun> Plan;
      double Ms = 0;
      smc::Batch::Layout Layout;
    };
    auto MeasureGrid = [&](const std::vector<smc::Batch::Layout> &Layouts,
                           const char *Key, std::vector<double> *Errors) {
      smc::Batch Probe;
      Record(Probe);
      kt::BatchModel Model = ModelOf(Probe);
      std::vector<GridPoint> Points;
      json PlansJson = json::array();
      for (const smc::Batch::Layout &Layout : Layouts) {
        std::vector<smc::Batch::SliceRun> Plan = Probe.layoutRuns(Layout);
        double Pred = kt::predictRuns(Model, Plan);
        double Ms = B.measure([&] {
          smc::Batch Batch;
          Record(Batch);
          if (!Batch.run(Plan, &Error))
            throw std::runtime_error(Error);
        });
        if (Pred > 0 && Errors)
          Errors->push_back(std::abs(Pred * 1e3 - Ms) / Ms);
        PlansJson.push_back({{"ms", Ms},
                             {"predicted_ms", Pred * 1e3},
                             {"lanes", {Layout.lanes[0], Layout.lanes[1]}},
                             {"splits", Splits(Layout)}});
        Points.push_back({std::move(Plan), Ms, Layout});
      }
      SMC_CUDA_CHECK(cudaDeviceSynchronize());
      MixJson[Key] = PlansJson;
      return Points;
    };
    // The fastest point whose every split is one of Allowed.
    auto Fastest = [](const std::vector<GridPoint> &Points,
                      std::vector<smc::Batch::Split> Allowed) {
      const GridPoint *Best = nullptr;
      for (const GridPoint &P : Points) {
        bool Fits = std::all_of(
            P.Layout.splits.begin(), P.Layout.splits.end(), [&](auto How) {
              return std::find(Allowed.begin(), Allowed.end(), How) !=
                     Allowed.end();
            });
        if (Fits && (!Best || P.Ms < Best->Ms))
          Best = &P;
      }
      return Best;
    };

    // The oracle's grid, each layout once.
    std::vector<smc::Batch::SliceRun> Best;
    std::vector<double> PlanErrors;
    if (O.Oracle) {
      std::vector<GridPoint> Points =
          MeasureGrid(smc::Batch::balancedLayouts(NumStreams, O.OracleSplits),
                      "oracle_grid", &PlanErrors);
      std::vector<smc::Batch::Split> Any;
      for (unsigned K = 0; K < O.OracleSplits; ++K)
        Any.push_back(smc::Batch::Split(K));
      if (const GridPoint *P = Fastest(Points, Any))
        Best = P->Plan;
    }

    // Slices and SM partitions: each alone and combined.
    using Split = smc::Batch::Split;
    std::map<std::string, std::vector<smc::Batch::SliceRun>> CombinedPlans;
    if (O.Combined) {
      std::vector<GridPoint> Points = MeasureGrid(
          smc::Batch::balancedLayouts(
              NumStreams, {Split::Whole, Split::Slices, Split::Partition}),
          "combined_grid", nullptr);
      const std::pair<const char *, std::vector<Split>> Spaces[] = {
          {"slices", {Split::Whole, Split::Slices}},
          {"partitions", {Split::Whole, Split::Partition}},
          {"combined", {Split::Whole, Split::Slices, Split::Partition}}};
      for (const auto &[Mode, Allowed] : Spaces)
        if (const GridPoint *P = Fastest(Points, Allowed)) {
          CombinedPlans[Mode] = P->Plan;
          MixJson[std::string(Mode) + "_layout"] = {
              {"lanes", {P->Layout.lanes[0], P->Layout.lanes[1]}},
              {"splits", Splits(P->Layout)},
              {"grid_ms", P->Ms}};
        }
    }

    // The online search, from its first batch until it settles: what a
    // program that runs the mix again and again gets.
    auto Search = [&]() {
      smc::Batch Batch;
      Record(Batch);
      if (!Batch.run(smc::Batch::Mode::Search, &Error))
        throw std::runtime_error(Error);
      return Batch.describe();
    };
    json SearchTrials = json::array();
    std::string SearchLayout;
    for (unsigned Trial = 0; Trial < O.SearchRuns; ++Trial) {
      double Ms = B.measure([&] { SearchLayout = Search(); });
      SearchTrials.push_back(Ms);
    }
    MixJson["search_trials_ms"] = SearchTrials;
    MixJson["search_layout"] = SearchLayout;
    // Policy auto: each launch of the four streams decides between sharing
    // and an SM partition from the profiles' scaling curves, and a co-run
    // that recurs is measured until it settles (CoRunTrials.h): --auto-runs
    // runs of the mix before the rounds.
    auto AutoRun = [&]() {
      smc::setPolicy("*", smc::Policy::automatic());
      for (unsigned I = 0; I < NumStreams; ++I)
        Mix[I]->run(B.Streams[I]);
    };
    if (!O.Profile.empty()) {
      json AutoTrials = json::array();
      for (unsigned Run = 0; Run < O.AutoRuns; ++Run) {
        AutoTrials.push_back(B.measure(AutoRun));
        smc::clearPolicies();
      }
      MixJson["auto_trials_ms"] = AutoTrials;
    }

    std::map<std::string, std::vector<double>> Times;
    std::vector<std::string> Modes = {"fifo", "streams", "kernelet", "search"};
    if (!O.Profile.empty())
      Modes.push_back("auto");
    if (!Best.empty())
      Modes.push_back("oracle");
    for (const auto &[Mode, Plan] : CombinedPlans)
      Modes.push_back(Mode);
    std::map<std::string, bool> Checked;
    std::vector<double> KerneletPredicted;
    for (unsigned Round = 0; Round <= O.Rounds; ++Round) {
      std::shuffle(Modes.begin(), Modes.end(), B.Random);
      for (const std::string &Mode : Modes) {
        double Ms = B.measure([&] {
          if (Mode == "fifo" || Mode == "streams")
            Originals(Mode == "fifo");
          else if (Mode == "kernelet")
            Kernelet();
          else if (Mode == "search")
            Search();
          else if (Mode == "auto")
            AutoRun();
          else {
            // The oracle, or a best plan of the combined grid.
            smc::Batch Batch;
            Record(Batch);
            if (!Batch.run(Mode == "oracle" ? Best : CombinedPlans.at(Mode),
                           &Error))
              throw std::runtime_error(Error);
          }
        });
        smc::clearPolicies();
        if (!Checked[Mode]) {
          Checked[Mode] = true;
          for (unsigned I = 0; I < NumStreams; ++I) {
            wl::CheckResult R = Mix[I]->check();
            if (!R.ok)
              throw std::runtime_error(Name + " " + Mode + ": " +
                                       MixNames[M][I] +
                                       " wrong: " + R.summary());
          }
        }
        if (Round == 0)
          continue; // warm-up
        Times[Mode].push_back(Ms);
        if (Mode == "kernelet")
          KerneletPredicted.push_back(Predicted * 1e3);
      }
    }
    double Fifo = median(Times["fifo"]), Streams = median(Times["streams"]),
           Kern = median(Times["kernelet"]), Orc = median(Times["oracle"]),
           Srch = median(Times["search"]), Auto = median(Times["auto"]);
    // The oracle includes the model's and the search's own plans.
    if (Orc > 0 && Kern < Orc)
      Orc = Kern;
    if (Orc > 0 && Srch > 0 && Srch < Orc)
      Orc = Srch;
    double Pred = median(KerneletPredicted);
    double PredErr = Pred > 0 ? std::abs(Pred - Kern) / Kern : -1;
    MixJson["fifo_ms"] = Fifo;
    MixJson["streams_ms"] = Streams;
    MixJson["kernelet_ms"] = Kern;
    if (Orc > 0)
      MixJson["oracle_ms"] = Orc;
    MixJson["search_ms"] = Srch;
    if (Auto > 0)
      MixJson["auto_ms"] = Auto;
    for (const auto &[Mode, Plan] : CombinedPlans)
      MixJson[Mode + "_ms"] = median(Times[Mode]);
    MixJson["kernelet_predicted_ms"] = Pred;
    MixJson["kernelet_prediction_error"] = PredErr;
    MixJson["oracle_grid_prediction_error_median"] = median(PlanErrors);
    MixJson["run_host_us_per_launch"] = Launches ? RunHostUs / Launches : 0;
    MixJson["launches"] = Launches;
    MixJson["times"] = Times;
    Out["mixes"].push_back(MixJson);
    std::printf(
        "%-22s %8.3f %8.3f %8.3f %8.3f %8.3f %7.3f %7.3f %7.3f %7.3f %8.2f\n",
        Name.c_str(), Fifo, Streams, Kern, Srch, Orc, Streams / Kern,
        Streams / Srch, Orc / Srch, PredErr,
        Launches ? RunHostUs / Launches : 0.0);
    if (!CombinedPlans.empty())
      std::printf("%-22s slices %.3f ms, partitions %.3f ms, combined %.3f "
                  "ms (streams / mode: %.3f, %.3f, %.3f)\n",
                  "", median(Times["slices"]), median(Times["partitions"]),
                  median(Times["combined"]), Streams / median(Times["slices"]),
                  Streams / median(Times["partitions"]),
                  Streams / median(Times["combined"]));
    std::fflush(stdout);
    if (!O.Json.empty())
      std::ofstream(O.Json) << Out.dump(2) << "\n";
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  try {
    Options O = kt::parseOptions(Argc, Argv);
    return O.ProfileRun ? kt::profileRun(O.ProfileRepeats) : run(O);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "smc_kernelet_bench: %s\n", E.what());
    return 1;
  }
}
