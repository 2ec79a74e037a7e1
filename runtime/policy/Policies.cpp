//===- Policies.cpp - Which policy each kernel launches under -------------===//
//
// The policy tables and the smc.h calls that change them; see Policies.h.
//===----------------------------------------------------------------------===//
#include "policy/Policies.h"

#include "base/Forever.h"
#include "base/KernelName.h"
#include "base/Locks.h"
#include "policy/Config.h"
#include "policy/PolicyText.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <unordered_map>

namespace smc {
namespace {

struct PolicyTables {
  OrderedMutex Mutex{LockLevel::Policies}; // guards the rest
  std::unordered_map<const void *, Policy> BySymbol;
  std::vector<PolicyRule> ByName;
  // Interned: a policy's index is its id.  A deque, so that a policy keeps
  // its address while others are added.
  std::deque<Policy> Interned;
  // Bumped by every change; prepared launches cached under an older epoch
  // are looked up again.
  std::atomic<uint64_t> Epoch{0};
};

bool samePolicy(const Policy &A, const Policy &B) {
  return A.variant == B.variant && A.workersPerSM == B.workersPerSM &&
         A.sms == B.sms && A.order == B.order && A.chunkToSM == B.chunkToSM &&
         A.clusterDir == B.clusterDir && A.clusterSize == B.clusterSize &&
         A.clusterWidth == B.clusterWidth &&
         A.clusterHeight == B.clusterHeight && A.sliceSize == B.sliceSize &&
         A.urgent == B.urgent && A.reserve == B.reserve &&
         A.p99Ratio == B.p99Ratio && A.p99Micros == B.p99Micros &&
         A.remapRatio == B.remapRatio && A.remapKeys == B.remapKeys &&
         A.remapControl == B.remapControl;
}

// The Policies lock held.
uint32_t intern(PolicyTables &T, const Policy &P) {
  for (size_t I = 0; I < T.Interned.size(); ++I)
    if (samePolicy(T.Interned[I], P))
      return uint32_t(I);
  T.Interned.push_back(P);
  return uint32_t(T.Interned.size() - 1);
}

} // namespace

uint64_t currentPolicyEpoch() {
  return forever<PolicyTables>().Epoch.load(std::memory_order_acquire);
}

void policiesChanged() {
  forever<PolicyTables>().Epoch.fetch_add(1, std::memory_order_acq_rel);
}

uint32_t policyIdOf(const void *Symbol, const std::string &Source,
                    const std::string &Mangled) {
  const Config &C = config();
  PolicyTables &T = forever<PolicyTables>();
  Guard Lock(T.Mutex);
  if (C.PolicyBroken)
    return intern(T, Policy::original());
  auto BySymbol = T.BySymbol.find(Symbol);
  if (BySymbol != T.BySymbol.end())
    return intern(T, BySymbol->second);
  if (const Policy *P = findPolicy(T.ByName, Source, Mangled))
    return intern(T, *P);
  if (const Policy *P = findPolicy(C.PolicyRules, Source, Mangled))
    return intern(T, *P);
  return intern(T, Policy()); // SM-centric at the original's occupancy
}

uint32_t policyIdFor(const Policy &P) {
  PolicyTables &T = forever<PolicyTables>();
  Guard Lock(T.Mutex);
  return intern(T, P);
}

const Policy &policyById(uint32_t Id) {
  PolicyTables &T = forever<PolicyTables>();
  Guard Lock(T.Mutex);
  return T.Interned[Id];
}

uint32_t confinedPolicyId(uint32_t Id, const std::vector<unsigned> &Sms,
                          unsigned WorkersPerSM) {
  Policy P = policyById(Id);
  if (P.variant == Variant::Auto || P.variant == Variant::Locality) {
    Policy Confined;
    Confined.urgent = P.urgent;
    Confined.reserve = P.reserve;
    Confined.p99Ratio = P.p99Ratio;
    Confined.p99Micros = P.p99Micros;
    P = Confined;
  }
  if (P.variant != Variant::SMCentric)
    return Id;
  P.sms = Sms;
  if (WorkersPerSM != 0)
    P.workersPerSM = WorkersPerSM;
  return policyIdFor(P);
}

namespace {

// Whether some policy set by the API or SMC_POLICY satisfies Has.
template <typename Pred> bool somePolicySet(Pred Has) {
  auto Rule = [&](const PolicyRule &R) { return Has(R.Policy); };
  const std::vector<PolicyRule> &Env = config().PolicyRules;
  PolicyTables &T = forever<PolicyTables>();
  Guard Lock(T.Mutex);
  return std::any_of(T.ByName.begin(), T.ByName.end(), Rule) ||
         std::any_of(Env.begin(), Env.end(), Rule) ||
         std::any_of(T.BySymbol.begin(), T.BySymbol.end(),
                     [&](const auto &Entry) { return Has(Entry.second); });
}

} // namespace

bool urgentPolicySet() {
  return somePolicySet([](const Policy &P) {
    return P.urgent || P.reserve || hasLatencyTarget(P);
  });
}

bool hasLatencyTarget(const Policy &P) {
  return P.p99Ratio > 0 || P.p99Micros > 0;
}

//===----------------------------------------------------------------------===//
// Public API (smc.h)
//===----------------------------------------------------------------------===//

void setPolicyForSymbol(const void *KernelSymbol, const Policy &Policy) {
  PolicyTables &T = forever<PolicyTables>();
  {
    Guard Lock(T.Mutex);
    T.BySymbol[KernelSymbol] = Policy;
  }
  policiesChanged();
}

void setPolicy(const std::string &Name, const Policy &Policy) {
  std::string Normalized = normalizeKernelName(Name);
  PolicyTables &T = forever<PolicyTables>();
  {
    Guard Lock(T.Mutex);
    // The last rule for a name wins, so an earlier one for the same name
    // can go: a program that sets a kernel's policy at every launch (as
    // placeByAffinity does) does not grow the list.
    T.ByName.erase(std::remove_if(T.ByName.begin(), T.ByName.end(),
                                  [&](const PolicyRule &Rule) {
                                    return Rule.Name == Normalized;
                                  }),
                   T.ByName.end());
    T.ByName.push_back({Normalized, Policy});
  }
  policiesChanged();
}

bool setPolicyText(const std::string &Text, std::string *Error) {
  std::vector<PolicyRule> Rules;
  std::string Message;
  if (!parsePolicyText(Text, Rules, Message, "smc::setPolicyText")) {
    if (Error)
      *Error = Message;
    return false;
  }
  PolicyTables &T = forever<PolicyTables>();
  {
    Guard Lock(T.Mutex);
    T.ByName.insert(T.ByName.end(), Rules.begin(), Rules.end());
  }
  policiesChanged();
  return true;
}

void clearPolicies() {
  PolicyTables &T = forever<PolicyTables>();
  {
    Guard Lock(T.Mutex);
    T.BySymbol.clear();
    T.ByName.clear();
  }
  policiesChanged();
}

} // namespace smc
