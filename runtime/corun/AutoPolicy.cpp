//===- AutoPolicy.cpp - What a launch of policy auto runs -----------------===//
//
// See AutoPolicy.h.
//===----------------------------------------------------------------------===//
#include "corun/AutoPolicy.h"

#include <algorithm>
#include <tuple>

namespace smc {
namespace {

bool overlaps(const KernelShare &A, const KernelShare &B) {
  return A.NumSms != 0 && B.NumSms != 0 && A.FirstSm < B.FirstSm + B.NumSms &&
         B.FirstSm < A.FirstSm + A.NumSms;
}

bool sameKernel(const CoRunKernel &A, const CoRunKernel &B) {
  return A.Name == B.Name && A.Priority == B.Priority;
}

} // namespace

std::string profileName(const std::string &Kernel, const unsigned Grid[3],
                        const unsigned Block[3]) {
  auto Dims = [](const unsigned D[3]) {
    return std::to_string(D[0]) + "x" + std::to_string(D[1]) + "x" +
           std::to_string(D[2]);
  };
  return Kernel + " grid=" + Dims(Grid) + " block=" + Dims(Block);
}

std::vector<unsigned> recordLadder(unsigned NumSms) {
  std::vector<unsigned> Ladder;
  for (unsigned Eighths : {8u, 6u, 4u, 2u, 1u}) {
    unsigned Sms = std::max(1u, NumSms * Eighths / 8);
    if (Ladder.empty() || Ladder.back() != Sms)
      Ladder.push_back(Sms);
  }
  return Ladder;
}

unsigned nextRecordSms(unsigned LaunchesRecorded, unsigned NumSms) {
  std::vector<unsigned> Ladder = recordLadder(NumSms);
  return Ladder[LaunchesRecorded % Ladder.size()];
}

unsigned launchesRecorded(const KernelProfile *Profile) {
  unsigned Launches = 0;
  if (Profile)
    for (const ScalingPoint &Point : Profile->points())
      Launches += Point.Samples;
  return Launches;
}

std::vector<CoRunKernel> decisionOrder(std::vector<CoRunKernel> Kernels) {
  std::sort(Kernels.begin(), Kernels.end(),
            [](const CoRunKernel &A, const CoRunKernel &B) {
              return std::tie(A.Name, A.Priority) <
                     std::tie(B.Name, B.Priority);
            });
  return Kernels;
}

bool sameCoRunner(const AutoFlight &A, const AutoFlight &B) {
  return A.Share == B.Share && sameKernel(A.Kernel, B.Kernel);
}

std::string coRunKey(const std::vector<CoRunKernel> &Kernels) {
  std::string Key;
  for (const CoRunKernel &K : decisionOrder(Kernels)) {
    Key += K.Priority == KernelPriority::High ? "!" : "";
    Key += K.Name;
    Key += '\n';
  }
  return Key;
}

AutoChoice chooseAuto(const std::vector<AutoFlight> &Others,
                      const CoRunKernel &Me, bool StreamBusy,
                      const CoRunDecision &Decision, unsigned NumSms) {
  AutoChoice Choice;
  if (Others.empty()) {
    Choice.Reason = "alone on the device: the original";
    return Choice;
  }
  if (Decision.Kind != CoRunKind::Partition) {
    Choice.Reason = "sharing: the original (" + Decision.Reason + ")";
    return Choice;
  }
  if (StreamBusy) {
    Choice.Reason = "queued behind its stream's own work, it may start after "
                    "the others end: the original";
    return Choice;
  }
  std::vector<CoRunKernel> Kernels;
  for (const AutoFlight &Other : Others)
    Kernels.push_back(Other.Kernel);
  Kernels.push_back(Me);
  std::vector<CoRunKernel> Order = decisionOrder(Kernels);
  if (Decision.Shares.size() != Order.size()) {
    Choice.Reason = "the decision is not for these kernels: the original";
    return Choice;
  }
  // Me's share: the first of Me's kernel that no confined launch in flight
  // holds (a kernel may run on two streams at once).
  const KernelShare *Mine = nullptr;
  for (size_t I = 0; I < Order.size(); ++I) {
    if (!sameKernel(Order[I], Me))
      continue;
    const KernelShare &Share = Decision.Shares[I];
    bool Held =
        std::any_of(Others.begin(), Others.end(), [&](const AutoFlight &Other) {
          return overlaps(Other.Share, Share);
        });
    if (!Mine || !Held)
      Mine = &Share;
    if (!Held)
      break;
  }
  if (!Mine || Mine->NumSms == 0 || Mine->FirstSm + Mine->NumSms > NumSms) {
    Choice.Reason = "no share of the device: the original";
    return Choice;
  }
  Choice.Confine = true;
  Choice.Share = *Mine;
  Choice.Reason = "partition: SMs " + std::to_string(Mine->FirstSm) + "-" +
                  std::to_string(Mine->FirstSm + Mine->NumSms - 1) + " (" +
                  Decision.Reason + ")";
  return Choice;
}

} // namespace smc
