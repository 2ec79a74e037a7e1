//===- search_replay.cpp - smc::Batch's layout search on measured grids ---===//
//
// smc_search_replay: runs LayoutSearch (runtime/batch/LayoutSearch.h), the
// search behind smc::Batch::Mode::Search, on the layouts that
// smc_kernelet_bench measured for its oracle (the JSON's "oracle_grid":
// every layout of a mix, each measured once on the GPU), instead of on the
// GPU.  Each trial is answered with the layout's measured time, times 1 +
// noise x a normal deviate (seeded); the layout the search keeps is scored
// by its measured time against the grid's fastest and against the streams
// layout.  So a change to the search can be judged on real landscapes in
// seconds, with no GPU, before it is measured on one.  What a grid cannot
// show: layouts whose time changes from run to run by more than the noise
// (docs/results/kernelet.md), and layouts outside the grid (the
// oracle measures balanced layouts; the search also moves a stream to the
// other lane): such a trial is answered with the grid's slowest time, so
// it costs the search a trial and wins nothing, and the "outside" column
// counts them (per search, averaged).
//
// USAGE: zcat kernelet.json.gz | smc_search_replay [--trials N]
//            [--confirm N] [--noise F] [--seeds K]
//   --trials N   the search's trial budget (default 96, as Batch's)
//   --confirm N  runs a would-be best must win (default 4, as Batch's)
//   --noise F    relative noise of a trial (default 0.01)
//   --seeds K    noise seeds per mix, averaged (default 20)
//===----------------------------------------------------------------------===//
#include "batch/LayoutSearch.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>

using smc::batch::Layout;
using smc::batch::LayoutSearch;
using smc::batch::Split;

namespace {

struct Options {
  unsigned Trials = 96;
  unsigned Confirm = 4;
  double Noise = 0.01;
  unsigned Seeds = 20;
};

Options parse(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (I + 1 >= Argc)
      throw std::runtime_error(A + ": unknown option or missing value");
    std::string V = Argv[++I];
    if (A == "--trials")
      O.Trials = unsigned(std::stoul(V));
    else if (A == "--confirm")
      O.Confirm = unsigned(std::stoul(V));
    else if (A == "--noise")
      O.Noise = std::stod(V);
    else if (A == "--seeds")
      O.Seeds = std::max(1u, unsigned(std::stoul(V)));
    else
      throw std::runtime_error("unknown option " + A);
  }
  return O;
}

Layout layoutOf(const nlohmann::json &P) {
  Layout L;
  for (unsigned Lane : {0u, 1u})
    for (unsigned S : P.at("lanes").at(Lane))
      L.Lanes[Lane].push_back(S);
  for (unsigned How : P.at("splits"))
    L.Splits.push_back(Split(How));
  return L;
}

} // namespace

int main(int Argc, char **Argv) {
  try {
    Options O = parse(Argc, Argv);
    nlohmann::json Data = nlohmann::json::parse(std::cin);
    std::printf("%-22s %7s %7s %9s %9s %9s %7s\n", "mix", "layouts", "streams",
                "best ms", "kept ms", "best/kept", "outside");
    double LogSum = 0;
    unsigned Mixes = 0;
    for (const nlohmann::json &Mix : Data.at("mixes")) {
      if (!Mix.contains("oracle_grid"))
        continue;
      std::map<Layout, double> Grid;
      double Best = 0, Slowest = 0;
      unsigned Streams = 0;
      for (const nlohmann::json &P : Mix.at("oracle_grid")) {
        Layout L = layoutOf(P);
        double Ms = P.at("ms");
        Grid[L] = Ms;
        Streams = unsigned(L.Splits.size());
        if (Best == 0 || Ms < Best)
          Best = Ms;
        Slowest = std::max(Slowest, Ms);
      }
      Layout Start = smc::batch::streamsLayout(Streams);
      if (!Grid.count(Start))
        throw std::runtime_error(Mix.value("mix", "?") +
                                 ": the grid lacks the streams layout");
      double KeptSum = 0;
      unsigned Outside = 0;
      for (unsigned Seed = 0; Seed < O.Seeds; ++Seed) {
        std::mt19937 Random(Seed);
        std::normal_distribution<double> Deviate(0, 1);
        LayoutSearch Search(Start, 0.02, O.Trials, O.Confirm, 20141201 + Seed);
        while (!Search.settled()) {
          auto It = Grid.find(Search.next());
          Outside += It == Grid.end();
          double Ms = It == Grid.end() ? Slowest : It->second;
          Search.measured(Ms * 1e-3 *
                          std::max(0.5, 1 + O.Noise * Deviate(Random)));
        }
        auto Kept = Grid.find(Search.best());
        if (Kept == Grid.end())
          throw std::runtime_error("kept a layout outside the grid: " +
                                   Search.best().text());
        KeptSum += Kept->second;
      }
      double Kept = KeptSum / O.Seeds;
      std::printf("%-22s %7zu %7.3f %9.3f %9.3f %9.3f %7.1f\n",
                  Mix.value("mix", "?").c_str(), Grid.size(), Grid.at(Start),
                  Best, Kept, Best / Kept, double(Outside) / O.Seeds);
      LogSum += std::log(Best / Kept);
      ++Mixes;
    }
    if (Mixes)
      std::printf("geomean best/kept over %u mixes: %.3f\n", Mixes,
                  std::exp(LogSum / Mixes));
    return 0;
  } catch (const std::exception &E) {
    std::fprintf(stderr, "smc_search_replay: %s\n", E.what());
    return 1;
  }
}
