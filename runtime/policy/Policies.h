//===- Policies.h - Which policy each kernel launches under -----*- C++ -*-===//
//
// The policies set through the smc.h API (by symbol, by name, as text) and
// SMC_POLICY (policy/Config.h), and the order in which they apply: the
// kernel's symbol, then the API's names, then SMC_POLICY, then the default
// (SM-centric at the original's occupancy on every SM).  Policies are
// interned, so that a prepared launch is cached under a small id; every
// change bumps an epoch that makes cached launches stale.  The Policies
// lock (base/Locks.h) guards the tables; no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_POLICY_POLICIES_H
#define SMC_RUNTIME_POLICY_POLICIES_H

#include "smc/smc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace smc {

// The epoch every policy change bumps.
uint64_t currentPolicyEpoch();
// Makes every cached prepared launch stale.
void policiesChanged();

// The id of the policy a kernel with this host symbol, source name and
// mangled name has now.
uint32_t policyIdOf(const void *Symbol, const std::string &Source,
                    const std::string &Mangled);
// The id of `P` (interned), and the policy of an id (which lives as long as
// the process).
uint32_t policyIdFor(const Policy &P);
const Policy &policyById(uint32_t Id);
// The id of policy `Id` confined to the SMs `Sms`, with `WorkersPerSM`
// workers per SM unless 0: an SM-centric policy with that SM set; auto and
// locality become the default SM-centric policy there (keeping `urgent`,
// `reserve` and the latency target);
// original and slice policies are returned unchanged.
uint32_t confinedPolicyId(uint32_t Id, const std::vector<unsigned> &Sms,
                          unsigned WorkersPerSM = 0);

// Whether some policy set by the API or SMC_POLICY has `urgent` (or
// `reserve`, or a latency target).
bool urgentPolicySet();
// Whether `P` has a tail-latency target (Policy::p99Ratio, p99Micros).
bool hasLatencyTarget(const Policy &P);

} // namespace smc

#endif // SMC_RUNTIME_POLICY_POLICIES_H
