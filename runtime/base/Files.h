//===- Files.h - The files the runtime reads and writes ---------*- C++ -*-===//
//
// The runtime reads kernel profiles (SMC_PROFILE, smc::loadProfiles, an
// SMC_PROFILE_RECORD file it adds to) and writes what it records
// (SMC_STATS, SMC_TRACE, SMC_PROFILE_RECORD) at exit, from host data alone:
// no CUDA call runs at exit.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_BASE_FILES_H
#define SMC_RUNTIME_BASE_FILES_H

#include <string>

namespace smc {

// The whole of the file at `Path` in `Text`; false when it cannot be read.
bool readTextFile(const std::string &Path, std::string &Text);

// When `Path` names a file (not empty): keeps it in `Kept` and has `Write`
// run at exit, where it writes the file.  Whether it does.
bool writeAtExit(const std::string &Path, std::string &Kept, void (*Write)());

} // namespace smc

#endif // SMC_RUNTIME_BASE_FILES_H
