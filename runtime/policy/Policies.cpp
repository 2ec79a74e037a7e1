//===- PolicyRegistry.cpp - Which policy each kernel launches under -------===//
//
// The policies set through the smc.h API (by symbol, by name, as text) and
// SMC_POLICY, and the order in which they apply: the kernel's symbol, then
// the API's names, then SMC_POLICY, then the default (SM-centric at the
// original's occupancy on every SM).  Policies are interned so that a
// prepared launch can be cached under a small id; every change bumps an
// epoch that makes cached launches stale.
//===----------------------------------------------------------------------===//
#include "base/KernelName.h"
#include "core/RuntimeState.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace smc {
namespace {

// Bumped by every policy change; prepared launches cached under an older
// epoch are looked up again.
std::atomic<uint64_t> PolicyEpoch{0};

// SMC_POLICY, parsed on first use.
struct EnvironmentPolicy {
  bool Broken = false; // parse error: every kernel runs the original
  std::vector<PolicyRule> Rules;
};

const EnvironmentPolicy &environmentPolicy() {
  static const EnvironmentPolicy *Env = [] {
    auto *E = new EnvironmentPolicy;
    const char *Text = std::getenv("SMC_POLICY");
    if (!Text || Text[std::strspn(Text, " \t\r\n")] == '\0')
      return E;
    std::string Error;
    if (!parsePolicyText(Text, E->Rules, Error)) {
      E->Broken = true;
      std::fprintf(stderr, "smc: %s; every kernel runs the original\n",
                   Error.c_str());
    }
    return E;
  }();
  return *Env;
}

bool samePolicy(const Policy &A, const Policy &B) {
  return A.variant == B.variant && A.workersPerSM == B.workersPerSM &&
         A.sms == B.sms && A.order == B.order && A.chunkToSM == B.chunkToSM &&
         A.clusterDir == B.clusterDir && A.clusterSize == B.clusterSize &&
         A.clusterWidth == B.clusterWidth &&
         A.clusterHeight == B.clusterHeight && A.sliceSize == B.sliceSize &&
         A.urgent == B.urgent;
}

uint32_t internPolicy(const Policy &P) {
  std::vector<Policy> &Policies = globals().Policies;
  for (size_t I = 0; I < Policies.size(); ++I)
    if (samePolicy(Policies[I], P))
      return uint32_t(I);
  Policies.push_back(P);
  return uint32_t(Policies.size() - 1);
}

Policy resolvePolicy(const KernelEntry &K) {
  Globals &G = globals();
  const EnvironmentPolicy &Env = environmentPolicy();
  if (Env.Broken)
    return Policy::original();
  auto BySymbol = G.SymbolPolicies.find(K.Symbol);
  if (BySymbol != G.SymbolPolicies.end())
    return BySymbol->second;
  if (const Policy *P = findPolicy(G.NamePolicies, K.Source, K.Mangled))
    return *P;
  if (const Policy *P = findPolicy(Env.Rules, K.Source, K.Mangled))
    return *P;
  return Policy(); // SM-centric at the original's occupancy, every SM
}

} // namespace

uint64_t currentPolicyEpoch() {
  return PolicyEpoch.load(std::memory_order_acquire);
}

void policiesChanged() { PolicyEpoch.fetch_add(1, std::memory_order_acq_rel); }

uint32_t policyIdOf(const KernelEntry &K) {
  return internPolicy(resolvePolicy(K));
}

const Policy &policyById(uint32_t Id) { return globals().Policies[Id]; }

uint32_t confinedPolicyId(uint32_t Id, const std::vector<unsigned> &Sms,
                          unsigned WorkersPerSM) {
  Policy P = policyById(Id);
  // Policy auto confined (its share, or a partitioned stream's SMs), or
  // locality on a partitioned stream: the default SM-centric policy there.
  if (P.variant == Variant::Auto || P.variant == Variant::Locality) {
    bool Urgent = P.urgent;
    P = Policy();
    P.urgent = Urgent;
  }
  if (P.variant != Variant::SMCentric)
    return Id;
  P.sms = Sms;
  if (WorkersPerSM != 0)
    P.workersPerSM = WorkersPerSM;
  return internPolicy(P);
}

uint32_t policyIdFor(const Policy &P) { return internPolicy(P); }

bool urgentPolicySet() {
  auto Urgent = [](const PolicyRule &Rule) { return Rule.Policy.urgent; };
  const Globals &G = globals();
  const std::vector<PolicyRule> &Env = environmentPolicy().Rules;
  return std::any_of(G.NamePolicies.begin(), G.NamePolicies.end(), Urgent) ||
         std::any_of(Env.begin(), Env.end(), Urgent) ||
         std::any_of(G.SymbolPolicies.begin(), G.SymbolPolicies.end(),
                     [](const auto &Entry) { return Entry.second.urgent; });
}

uint32_t partitionedPolicyId(uint32_t Id, const StreamPartition &Partition) {
  return confinedPolicyId(Id, Partition.Sms, Partition.WorkersPerSM);
}

//===----------------------------------------------------------------------===//
// Public API (smc.h)
//===----------------------------------------------------------------------===//

void setPolicyForSymbol(const void *KernelSymbol, const Policy &Policy) {
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  G.SymbolPolicies[KernelSymbol] = Policy;
  policiesChanged();
}

void setPolicy(const std::string &Name, const Policy &Policy) {
  Globals &G = globals();
  std::string Normalized = normalizeKernelName(Name);
  std::lock_guard<std::mutex> Lock(G.Mutex);
  // The last rule for a name wins, so an earlier one for the same name can
  // go: a program that sets a kernel's policy at every launch (as
  // placeByAffinity does) does not grow the list.
  G.NamePolicies.erase(std::remove_if(G.NamePolicies.begin(),
                                      G.NamePolicies.end(),
                                      [&](const PolicyRule &Rule) {
                                        return Rule.Name == Normalized;
                                      }),
                       G.NamePolicies.end());
  G.NamePolicies.push_back({Normalized, Policy});
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
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  G.NamePolicies.insert(G.NamePolicies.end(), Rules.begin(), Rules.end());
  policiesChanged();
  return true;
}

void clearPolicies() {
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  G.SymbolPolicies.clear();
  G.NamePolicies.clear();
  policiesChanged();
}

} // namespace smc
