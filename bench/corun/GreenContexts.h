//===- GreenContexts.h - N-way SM splits with CUDA green contexts ---------===//
//
// The green-context mode of smc_corun_bench: the device's SMs split among
// N kernels (2 to 4) by cuDevSmResourceSplitByCount (the driver rounds a
// request up to its minimum partition and alignment: 8 SMs in steps of 8
// on Hopper), one green context on each part (cuGreenCtxCreate) and a
// stream in each (cuGreenCtxStreamCreate).  Kernels launched on those
// streams with the runtime API run on their context's SMs only.  Each
// stream has its own timing events, created in its green context (an event
// must be recorded in its own context).
//
// A split of N parts is made in N - 1 steps: the first part is split off
// the device's SMs, the next off the remainder, and so on; the last part
// is the final remainder.  The driver does not split a split's output
// again, but does split the SM resource of a green context made on it
// (cuGreenCtxGetDevResource), so each remainder that is split again gets
// such a holder context first.  For two parts this is one split, as
// before.
//
// The driver functions are looked up through the CUDA runtime, so nothing
// links against libcuda; where the driver or the device lacks green
// contexts, available() is false and reason() says why.  Every context,
// stream and event made is destroyed by release() (and the destructor).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_GREENCONTEXTS_H
#define SMC_BENCH_CORUN_GREENCONTEXTS_H

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace smc::corun {

class GreenContexts {
public:
  // The N streams of a split and what the driver granted; index i is the
  // i-th part.
  struct Split {
    std::vector<unsigned> RequestedSms; // asked for the first N - 1 parts
    std::vector<unsigned> GrantedSms;   // every part's, N
    std::vector<cudaStream_t> Streams;
    std::vector<cudaEvent_t> Begins, Ends;
  };

  GreenContexts();
  ~GreenContexts();
  GreenContexts(const GreenContexts &) = delete;
  GreenContexts &operator=(const GreenContexts &) = delete;

  // Looks up the driver functions and the SM resource of Device (after the
  // runtime has initialized it); false, with reason() set, where green
  // contexts cannot be used.
  bool init(int Device);
  bool available() const { return Available; }
  const std::string &reason() const { return Reason; }
  // The device's SM resource: SMs, the smallest partition, the alignment.
  unsigned deviceSms() const { return DeviceSms; }
  unsigned minPartition() const { return MinPartition; }
  unsigned alignment() const { return Alignment; }

  // The split of Sms.size() + 1 parts whose part i has at least Sms[i] SMs
  // and whose last part has the rest; made on first use and kept until
  // release().  Null, with Error set, if the driver refuses it (a refused
  // split is not tried again: the same Error).
  const Split *split(const std::vector<unsigned> &Sms, std::string &Error);
  // The splits made so far.
  size_t splitsMade() const { return Splits.size(); }
  // Destroys every event, stream and green context made (after the work
  // queued on them is done: the caller synchronizes); the count of driver
  // calls that failed.
  unsigned release();

private:
  struct Driver;
  // A split's green contexts and holders (see above), for release().
  struct Made;
  std::unique_ptr<Driver> Api;
  int Device = 0;
  bool Available = false;
  std::string Reason = "not initialized";
  unsigned DeviceSms = 0, MinPartition = 0, Alignment = 0;
  std::map<std::vector<unsigned>, Split> Splits;
  std::map<std::vector<unsigned>, std::string> Refused;
  std::vector<Made> Owned;
};

} // namespace smc::corun

#endif // SMC_BENCH_CORUN_GREENCONTEXTS_H
