//===- TraceTest.cu - SMC_TRACE: every chunk, its SM and its time ---------===//
//
// A child process runs two SM-centric launches of one kernel under
// SMC_TRACE: the first confined to SMs 0-7, the second on every SM.  The
// trace it leaves at exit must hold, per launch, every chunk once (the
// chunks of its records add up to the grid, no chunk id twice), every span
// on an SM the launch may use and ending no earlier than it began, the
// kernel's name, and the runtime must say what it wrote.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace smctest;

// Each chunk spins for 20 us of %globaltimer and counts itself.
__global__ void tracedKernel(uint32_t *Counts) {
  if (threadIdx.x == 0)
    atomicAdd(&Counts[blockIdx.x], 1u);
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  while (__nvvm_read_ptx_sreg_globaltimer() - Begin < 20000) {
  }
}

namespace {

using Trace = SmcGpuTest;

constexpr unsigned ConfinedSms = 8;

unsigned tracedChunks() { return 6 * numSMs(); }

struct Span {
  unsigned Launch = 0, Chunk = 0, Chunks = 0, Sm = 0;
  std::string Kernel;
  double Begin = 0, End = 0;
};

// The lines of an SMC_TRACE file; false if its header is not the one
// documented.
bool parseTrace(const std::string &Text, std::vector<Span> &Spans) {
  std::istringstream In(Text);
  std::string Line;
  if (!std::getline(In, Line) ||
      Line != "launch,kernel,device,chunk,chunks,sm,worker,begin_us,end_us")
    return false;
  while (std::getline(In, Line)) {
    // launch,"kernel",device,chunk,chunks,sm,worker,begin,end
    size_t Open = Line.find('"'), Close = Line.rfind('"');
    if (Open == std::string::npos || Close <= Open)
      return false;
    Span S;
    S.Launch = unsigned(std::stoul(Line.substr(0, Open - 1)));
    S.Kernel = Line.substr(Open + 1, Close - Open - 1);
    int Device = 0;
    unsigned Worker = 0;
    if (std::sscanf(Line.c_str() + Close + 1, ",%d,%u,%u,%u,%u,%lf,%lf",
                    &Device, &S.Chunk, &S.Chunks, &S.Sm, &Worker, &S.Begin,
                    &S.End) != 7)
      return false;
    Spans.push_back(S);
  }
  return true;
}

} // namespace

int traceLaunches() {
  unsigned Chunks = tracedChunks();
  DeviceArray<uint32_t> Counts;
  if (allocateZeroed(Chunks, Counts) != cudaSuccess)
    return 2;
  smc::setPolicy(tracedKernel,
                 smc::Policy::smCentric(0, smRange(0, ConfinedSms)));
  tracedKernel<<<Chunks, 64>>>(Counts.get());
  // Every SM named: the grid is one wave, which the default policy would
  // run as the original (docs/light.md).
  smc::setPolicy(tracedKernel, smc::Policy::smCentric(0, smRange(0, numSMs())));
  tracedKernel<<<Chunks, 64>>>(Counts.get());
  if (cudaGetLastError() != cudaSuccess ||
      cudaDeviceSynchronize() != cudaSuccess)
    return 3;
  std::vector<uint32_t> Host;
  if (Counts.download(Host) != cudaSuccess)
    return 4;
  for (uint32_t C : Host)
    if (C != 2)
      return 5;
  return 0;
}

TEST_F(Trace, EveryChunkOnceOnItsSms) {
  ASSERT_GT(numSMs(), ConfinedSms);
  char Self[4096];
  ssize_t Len = readlink("/proc/self/exe", Self, sizeof Self - 1);
  ASSERT_GT(Len, 0);
  Self[Len] = '\0';
  TempFile TraceFile, Messages;
  std::string Command = "SMC_STATS= SMC_TRACE='" + TraceFile.Path + "' '" +
                        Self + "' --smc-trace 2>'" + Messages.Path + "'";
  ASSERT_EQ(std::system(Command.c_str()), 0) << Command << "\n"
                                             << Messages.read();
  EXPECT_NE(Messages.read().find("smc: SMC_TRACE: "), std::string::npos)
      << Messages.read();
  EXPECT_NE(
      Messages.read().find(" chunks of 2 launches in '" + TraceFile.Path + "'"),
      std::string::npos)
      << Messages.read();
  std::vector<Span> Spans;
  ASSERT_TRUE(parseTrace(TraceFile.read(), Spans)) << TraceFile.read();
  std::map<unsigned, std::vector<const Span *>> ByLaunch;
  for (const Span &S : Spans)
    ByLaunch[S.Launch].push_back(&S);
  ASSERT_EQ(ByLaunch.size(), 2u);
  unsigned Index = 0;
  for (auto &[Launch, Of] : ByLaunch) {
    bool Confined = Index++ == 0;
    unsigned Covered = 0;
    std::set<unsigned> Ids, SmsUsed;
    for (const Span *S : Of) {
      EXPECT_EQ(S->Kernel, "tracedKernel");
      EXPECT_LT(S->Chunk, tracedChunks());
      EXPECT_TRUE(Ids.insert(S->Chunk).second) << "chunk " << S->Chunk;
      EXPECT_GE(S->Chunks, 1u);
      EXPECT_LE(S->Begin, S->End);
      Covered += S->Chunks;
      SmsUsed.insert(S->Sm);
      if (Confined)
        EXPECT_LT(S->Sm, ConfinedSms) << "launch " << Launch;
    }
    EXPECT_EQ(Covered, tracedChunks()) << "launch " << Launch;
    if (!Confined)
      EXPECT_GT(*SmsUsed.rbegin(), ConfinedSms - 1)
          << "the second launch ran on SMs 0-7 only";
  }
}
