//===- SharedBoard.cpp - The tenant board in shared memory ----------------===//
//
// Opening and mapping a board; see SharedBoard.h.
//===----------------------------------------------------------------------===//
#include "tenants/SharedBoard.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace smc::tenants {

std::string boardName(const std::string &Uuid) {
  return "/smc-tenants-" + Uuid;
}

Board *mapBoard(const std::string &Name, bool File, std::string &Error) {
  int Fd = File ? open(Name.c_str(), O_RDWR | O_CREAT, 0666)
                : shm_open(Name.c_str(), O_RDWR | O_CREAT, 0666);
  if (Fd < 0) {
    Error = "cannot open " + Name + ": " + std::strerror(errno);
    return nullptr;
  }
  fchmod(Fd, 0666); // past the umask: other users' processes share the GPU
  struct stat St{};
  if (fstat(Fd, &St) != 0 || (St.st_size < off_t(sizeof(Board)) &&
                              ftruncate(Fd, off_t(sizeof(Board))) != 0)) {
    Error = "cannot size " + Name + ": " + std::strerror(errno);
    close(Fd);
    return nullptr;
  }
  void *At =
      mmap(nullptr, sizeof(Board), PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  close(Fd);
  if (At == MAP_FAILED) {
    Error = "cannot map " + Name + ": " + std::strerror(errno);
    return nullptr;
  }
  auto *B = static_cast<Board *>(At);
  initBoard(*B);
  if (B->Version != BoardVersion) {
    Error = Name + " is a board of another SMC version (" +
            std::to_string(B->Version) + ")";
    munmap(At, sizeof(Board));
    return nullptr;
  }
  return B;
}

} // namespace smc::tenants
