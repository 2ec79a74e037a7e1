//===- CorpusJson.cpp - Timings of the corpus as JSON ---------------------===//
//
// Implements CorpusTimings.h: keeps the timing records of smc_corpus_tests
// and writes them with nlohmann-json when SMC_CORPUS_JSON names a file.
//===----------------------------------------------------------------------===//
#include "CorpusTimings.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <mutex>

namespace corpus {

namespace {
std::mutex RecordsMutex;
std::vector<TimingRecord> &records() {
  static std::vector<TimingRecord> All;
  return All;
}
} // namespace

void recordTiming(const TimingRecord &Record) {
  std::lock_guard<std::mutex> Lock(RecordsMutex);
  records().push_back(Record);
}

bool writeTimingsJson(const std::string &Path, const std::string &Device,
                      std::string &Error) {
  nlohmann::json Results = nlohmann::json::array();
  {
    std::lock_guard<std::mutex> Lock(RecordsMutex);
    for (const TimingRecord &R : records())
      Results.push_back({{"program", R.Program},
                         {"policy", R.Policy},
                         {"alone_ms", R.AloneMs},
                         {"alone_samples_ms", R.AloneSamplesMs},
                         {"corun_ms", R.CorunMs},
                         {"ratio", R.AloneMs > 0 ? R.CorunMs / R.AloneMs : 0.0},
                         {"corun_finished_first", R.CorunFinishedFirst}});
  }
  nlohmann::json Doc = {{"device", Device}, {"results", std::move(Results)}};
  std::ofstream Out(Path);
  if (!Out) {
    Error = "cannot open '" + Path + "' for writing";
    return false;
  }
  Out << Doc.dump(2) << "\n";
  Out.close();
  if (!Out) {
    Error = "cannot write '" + Path + "'";
    return false;
  }
  return true;
}

} // namespace corpus
