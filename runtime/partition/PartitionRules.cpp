//===- PartitionRules.cpp - The arithmetic of live SM partitions ----------===//
//
// Live target tables and the workers a grown partition adds; see
// PartitionRules.h.
//===----------------------------------------------------------------------===//
#include "partition/PartitionRules.h"

#include <algorithm>

namespace smc {

bool liveTargets(const std::vector<unsigned> &Sms, unsigned WorkersPerSM,
                 unsigned NumSMs, std::vector<uint32_t> &Targets,
                 std::string &Error) {
  if (Sms.empty()) {
    Error = "the SM set is empty";
    return false;
  }
  std::vector<uint32_t> Result(NumSMs, 0);
  uint32_t Inside = WorkersPerSM ? WorkersPerSM : LiveTargetUncapped;
  for (unsigned Sm : Sms) {
    if (Sm >= NumSMs) {
      Error = "SM " + std::to_string(Sm) + " is out of range: the device has " +
              std::to_string(NumSMs) + " SMs (0-" + std::to_string(NumSMs - 1) +
              ")";
      return false;
    }
    Result[Sm] = Inside;
  }
  Targets = std::move(Result);
  return true;
}

uint32_t grownWorkers(const std::vector<unsigned> &OldSms,
                      unsigned OldWorkersPerSM,
                      const std::vector<unsigned> &NewSms,
                      unsigned NewWorkersPerSM, uint32_t PlanTarget) {
  auto Allowed = [PlanTarget](unsigned WorkersPerSM) {
    return WorkersPerSM ? std::min<uint32_t>(WorkersPerSM, PlanTarget)
                        : PlanTarget;
  };
  uint32_t Extra = 0;
  for (unsigned Sm : NewSms) {
    uint32_t Want = Allowed(NewWorkersPerSM);
    uint32_t Had = std::binary_search(OldSms.begin(), OldSms.end(), Sm)
                       ? Allowed(OldWorkersPerSM)
                       : 0;
    Extra += Want > Had ? Want - Had : 0;
  }
  return Extra;
}

} // namespace smc
