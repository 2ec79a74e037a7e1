//===- PolicyRegistry.cpp - Which policy each kernel launches under -------===//
//
// The policies set through the smc.h API (by symbol, by name, as text) and
// SMC_POLICY, and the order in which they apply: the kernel's symbol, then
// the API's names, then SMC_POLICY, then the default (SM-centric at the
// original's occupancy on every SM).  Policies are interned so that a
// prepared launch can be cached under a small id; every change bumps an
// epoch that makes cached launches stale.
//===----------------------------------------------------------------------===//
#include "KernelName.h"
#include "RuntimeState.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace smc {
namespace {

// Bumped by every policy change; prepared launches cached under an older
// epoch are looked up again.
std::atomic<uint64_t> policyEpoch{0};

// SMC_POLICY, parsed on first use.
struct EnvironmentPolicy {
  bool broken = false; // parse error: every kernel runs the original
  std::vector<PolicyRule> rules;
};

const EnvironmentPolicy &environmentPolicy() {
  static const EnvironmentPolicy *env = [] {
    auto *e = new EnvironmentPolicy;
    const char *text = std::getenv("SMC_POLICY");
    if (!text || text[std::strspn(text, " \t\r\n")] == '\0')
      return e;
    std::string error;
    if (!parsePolicyText(text, e->rules, error)) {
      e->broken = true;
      std::fprintf(stderr, "smc: %s; every kernel runs the original\n",
                   error.c_str());
    }
    return e;
  }();
  return *env;
}

bool samePolicy(const Policy &a, const Policy &b) {
  return a.variant == b.variant && a.workersPerSM == b.workersPerSM &&
         a.sms == b.sms && a.order == b.order && a.chunkToSM == b.chunkToSM &&
         a.sliceSize == b.sliceSize;
}

uint32_t internPolicy(const Policy &policy) {
  std::vector<Policy> &policies = globals().policies;
  for (size_t i = 0; i < policies.size(); ++i)
    if (samePolicy(policies[i], policy))
      return uint32_t(i);
  policies.push_back(policy);
  return uint32_t(policies.size() - 1);
}

Policy resolvePolicy(const KernelEntry &k) {
  Globals &g = globals();
  const EnvironmentPolicy &env = environmentPolicy();
  if (env.broken)
    return Policy::original();
  auto bySymbol = g.symbolPolicies.find(k.symbol);
  if (bySymbol != g.symbolPolicies.end())
    return bySymbol->second;
  if (const Policy *p = findPolicy(g.namePolicies, k.source, k.mangled))
    return *p;
  if (const Policy *p = findPolicy(env.rules, k.source, k.mangled))
    return *p;
  return Policy(); // SM-centric at the original's occupancy, every SM
}

} // namespace

uint64_t currentPolicyEpoch() {
  return policyEpoch.load(std::memory_order_acquire);
}

void policiesChanged() { policyEpoch.fetch_add(1, std::memory_order_acq_rel); }

uint32_t policyIdOf(const KernelEntry &k) {
  return internPolicy(resolvePolicy(k));
}

const Policy &policyById(uint32_t id) { return globals().policies[id]; }

//===----------------------------------------------------------------------===//
// Public API (smc.h)
//===----------------------------------------------------------------------===//

void setPolicyForSymbol(const void *kernelSymbol, const Policy &policy) {
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.symbolPolicies[kernelSymbol] = policy;
  policiesChanged();
}

void setPolicy(const std::string &name, const Policy &policy) {
  Globals &g = globals();
  std::string normalized = normalizeKernelName(name);
  std::lock_guard<std::mutex> lock(g.mutex);
  g.namePolicies.push_back({normalized, policy});
  policiesChanged();
}

bool setPolicyText(const std::string &text, std::string *error) {
  std::vector<PolicyRule> rules;
  std::string message;
  if (!parsePolicyText(text, rules, message, "smc::setPolicyText")) {
    if (error)
      *error = message;
    return false;
  }
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.namePolicies.insert(g.namePolicies.end(), rules.begin(), rules.end());
  policiesChanged();
  return true;
}

void clearPolicies() {
  Globals &g = globals();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.symbolPolicies.clear();
  g.namePolicies.clear();
  policiesChanged();
}

} // namespace smc
