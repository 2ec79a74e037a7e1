//===- TenantChild.h - A child process of smc_gpu_tests --------*- CUDA -*-===//
//
// The tenants tests (TenantsTest.cu, TenantYieldsTest.cu) run processes
// that share the GPU as children of this binary: `Child` forks and execs it
// with one --smc-tenant-* argument (main runs tenantChild), SMC_TENANTS=on
// and no SMC_STATS (the parent's records are its own), its stdin and stdout
// piped to the test.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_GPU_TENANTCHILD_H
#define SMC_TEST_GPU_TENANTCHILD_H

#include <cuda_runtime.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace smctest {

inline std::string selfPath() {
  char Self[4096];
  ssize_t Len = readlink("/proc/self/exe", Self, sizeof Self - 1);
  if (Len <= 0)
    return "";
  Self[Len] = '\0';
  return Self;
}

// A child process of this binary (see above).
class Child {
public:
  explicit Child(const std::string &Mode) {
    int In[2], Out[2];
    if (pipe(In) != 0 || pipe(Out) != 0)
      return;
    std::string Self = selfPath();
    Pid = fork();
    if (Pid == 0) {
      dup2(In[0], 0);
      dup2(Out[1], 1);
      close(In[1]);
      close(Out[0]);
      setenv("SMC_TENANTS", "on", 1);
      unsetenv("SMC_STATS");
      execl(Self.c_str(), Self.c_str(), Mode.c_str(), (char *)nullptr);
      _exit(127);
    }
    close(In[0]);
    close(Out[1]);
    ToChild = In[1];
    FromChild = fdopen(Out[0], "r");
  }
  ~Child() {
    if (Pid > 0 && !Reaped)
      kill(SIGKILL);
    if (FromChild)
      fclose(FromChild);
    if (ToChild >= 0)
      close(ToChild);
  }
  // Its next line ("" at its end).
  std::string line() {
    char Buffer[4096];
    if (!FromChild || !fgets(Buffer, sizeof Buffer, FromChild))
      return "";
    return Buffer;
  }
  // Writes Line ("go\n") to its stdin.
  bool say(const std::string &Line) {
    return ToChild >= 0 &&
           write(ToChild, Line.data(), Line.size()) == ssize_t(Line.size());
  }
  // Kills it (a crash: nothing of it runs after) and reaps it.
  void kill(int Signal = SIGKILL) {
    ::kill(Pid, Signal);
    wait();
  }
  // Closes its stdin and waits for its end: its exit status, or -1.
  int finish() {
    if (ToChild >= 0)
      close(ToChild);
    ToChild = -1;
    return wait();
  }

private:
  int wait() {
    int Status = 0;
    if (!Reaped)
      waitpid(Pid, &Status, 0);
    Reaped = true;
    return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
  }
  pid_t Pid = -1;
  int ToChild = -1;
  FILE *FromChild = nullptr;
  bool Reaped = false;
};

// Whether this process's contexts are MPS clients.  Tests that kill a
// process while its kernels run skip under MPS: there the server tears
// down every client (measured on an H200 with plain CUDA kernels too,
// docs/testing.md), which says nothing of SMC.
inline bool underMps() {
  int Mps = 0;
  return cudaDeviceGetAttribute(&Mps, cudaDevAttrMpsEnabled, 0) ==
             cudaSuccess &&
         Mps != 0;
}
#define SMC_SKIP_KILLS_UNDER_MPS()                                             \
  do {                                                                         \
    if (::smctest::underMps())                                                 \
      GTEST_SKIP() << "kills a process mid-kernel: under MPS the server "      \
                      "then tears down every client";                          \
  } while (0)

} // namespace smctest

// The children of TenantYieldsTest.cu (tenantChild runs them for the modes
// it does not know); 2 for a mode nobody knows.
int tenantYieldsChild(const char *Mode);

#endif // SMC_TEST_GPU_TENANTCHILD_H
