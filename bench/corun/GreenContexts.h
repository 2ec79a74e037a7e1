//===- GreenContexts.h - Two-way SM splits with CUDA green contexts -------===//
//
// The green-context mode of smc_corun_bench: the device's SMs split in two
// by cuDevSmResourceSplitByCount (the driver rounds a request up to its
// minimum partition and alignment: 8 SMs in steps of 8 on Hopper), one
// green context on each part (cuGreenCtxCreate) and a stream in each
// (cuGreenCtxStreamCreate).  Kernels launched on those streams with the
// runtime API run on their context's SMs only.  Each stream has its own
// timing events, created in its green context (an event must be recorded
// in its own context).  The driver functions are looked up through the
// CUDA runtime, so nothing links against libcuda; where the driver or the
// device lacks green contexts, available() is false and reason() says why.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_CORUN_GREENCONTEXTS_H
#define SMC_BENCH_CORUN_GREENCONTEXTS_H

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <string>

namespace smc::corun {

class GreenContexts {
public:
  // The two streams of a split and what the driver granted.
  struct Split {
    unsigned RequestedSms = 0;            // asked for the first context
    unsigned FirstSms = 0, SecondSms = 0; // granted
    cudaStream_t First = nullptr, Second = nullptr;
    cudaEvent_t FirstBegin = nullptr, FirstEnd = nullptr;
    cudaEvent_t SecondBegin = nullptr, SecondEnd = nullptr;
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

  // The split whose first context has at least Sms SMs and whose second
  // has the rest; made on first use and kept until the process ends.  Null,
  // with Error set, if the driver refuses it.
  const Split *split(unsigned Sms, std::string &Error);

private:
  struct Driver;
  std::unique_ptr<Driver> Api;
  int Device = 0;
  bool Available = false;
  std::string Reason = "not initialized";
  unsigned DeviceSms = 0, MinPartition = 0, Alignment = 0;
  std::map<unsigned, Split> Splits;
};

} // namespace smc::corun

#endif // SMC_BENCH_CORUN_GREENCONTEXTS_H
