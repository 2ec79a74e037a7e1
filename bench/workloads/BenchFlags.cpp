//===- BenchFlags.cpp - The bench harness's own flags ---------------------===//
//
// The command line of smc_bench and smc_suite_bench that the harness
// (BenchHarness.h) reads before Google Benchmark does: --size, and whether
// the run only lists the benchmarks.  No CUDA calls.
//===----------------------------------------------------------------------===//
#include "BenchHarness.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace smc::workloads {

bool takeSizeFlag(const char *programName, const char *envVar, int &argc,
                  char **argv, Size &size) {
  const char *text = envVar ? std::getenv(envVar) : nullptr;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc)
      text = argv[++i];
    else if (std::strncmp(argv[i], "--size=", 7) == 0)
      text = argv[i] + 7;
    else
      argv[out++] = argv[i];
  }
  argc = out;
  argv[argc] = nullptr;
  if (text && !parseSize(text, size)) {
    std::fprintf(stderr, "%s: bad size '%s' (small, default or large)\n",
                 programName, text);
    return false;
  }
  return true;
}

namespace {
// Google Benchmark's reading of a boolean flag's value.
bool truthy(std::string value) {
  for (char &c : value)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return !(value == "0" || value == "f" || value == "n" || value == "false" ||
           value == "no" || value == "off");
}

} // namespace

bool listOnly(int argc, char **argv) {
  const char *env = std::getenv("BENCHMARK_LIST_TESTS");
  bool list = env && truthy(env);
  const char *flag = "--benchmark_list_tests";
  size_t len = std::strlen(flag);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], flag, len) != 0)
      continue;
    if (argv[i][len] == '\0')
      list = true;
    else if (argv[i][len] == '=')
      list = truthy(argv[i] + len + 1);
  }
  return list;
}

} // namespace smc::workloads
