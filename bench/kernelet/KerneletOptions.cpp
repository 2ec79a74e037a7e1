//===- KerneletOptions.cpp - The command line of smc_kernelet_bench -------===//
//
// Parses smc_kernelet_bench's options (KerneletOptions.h; their meaning in
// kernelet.cu's USAGE).
//===----------------------------------------------------------------------===//
#include "KerneletOptions.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace smc::kernelet {

Options parseOptions(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&]() -> std::string {
      if (I + 1 >= Argc)
        throw std::runtime_error(A + " needs a value");
      return Argv[++I];
    };
    if (A == "--profile")
      O.Profile = Value();
    else if (A == "--json")
      O.Json = Value();
    else if (A == "--rounds")
      O.Rounds = unsigned(std::stoul(Value()));
    else if (A == "--mixes")
      O.Mixes = std::min(O.Mixes, unsigned(std::stoul(Value())));
    else if (A == "--first-mix")
      O.FirstMix = unsigned(std::stoul(Value()));
    else if (A == "--oracle-splits")
      O.OracleSplits = unsigned(std::stoul(Value()));
    else if (A == "--search-runs")
      O.SearchRuns = unsigned(std::stoul(Value()));
    else if (A == "--auto-runs")
      O.AutoRuns = unsigned(std::stoul(Value()));
    else if (A == "--no-oracle")
      O.Oracle = false;
    else if (A == "--combined")
      O.Combined = true;
    else if (A == "--profile-run")
      O.ProfileRun = true;
    else if (A == "--profile-repeats")
      O.ProfileRepeats = unsigned(std::stoul(Value()));
    else
      throw std::runtime_error("unknown option " + A);
  }
  return O;
}

} // namespace smc::kernelet
