//===- PolicyText.h - The SMC_POLICY grammar --------------------*- C++ -*-===//
//
// Parses policy text (the SMC_POLICY environment variable, setPolicyText())
// into rules and picks the rule that applies to a kernel.  Pure C++: no CUDA.
//
//   policy := rule (';' rule)* [';']
//   rule   := name '=' action
//   name   := '*' | source name (vecAdd, ns::scale<float>) | mangled name
//   action := 'original'
//           | 'smc'   ['(' opt (',' opt)* ')']   opt: workers=N, sms=LIST,
//                                                     order=ORDER
//           | 'slice' ['(' opt ')']              opt: size=N
//           | 'auto'          (the co-run scheduler decides per launch)
//           | 'locality'      (placements tried, the fastest kept)
//           | 'remap' ['(' opt (',' opt)* ')']  opt: ratio=R (0 < R <= 1),
//                                                     keys=inspector|random,
//                                                     control=adaptive|always
//   LIST   := item ('+' item)*,  item := N | A-B (inclusive)
//   ORDER  := contiguous | interleaved | cluster '(' DIR [',' SIZE] ')'
//   DIR    := x | y | tile
//   SIZE   := N (chunks per cluster) | WxH (tile only: W along x, H along y)
//
// order=cluster(...) is ChunkOrder::Cluster: clusters of neighbouring
// chunks kept whole on one SM (smc.h, Policy::clusterDir; ChunkClusters.h);
// without SIZE a cluster has as many chunks as the per-SM target.  Options
// are separated by the commas outside parentheses.  Whitespace around
// tokens is ignored.  Example:
//   SMC_POLICY='*=smc(workers=2); vecAdd=smc(sms=0-65+70,order=interleaved);
//               mm=smc(workers=2,order=cluster(tile,4));
//               ns::scale<float>=slice(size=64)'
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_POLICY_POLICYTEXT_H
#define SMC_RUNTIME_POLICY_POLICYTEXT_H

#include "smc/smc.h"

#include <string>
#include <vector>

namespace smc {

// One rule: the kernel name as written (normalized with normalizeKernelName)
// or "*", and its policy.
struct PolicyRule {
  std::string Name;
  Policy Policy;
};

// The largest SM id policy text accepts (a sanity bound; the launch checks
// ids against the device's SM count).
constexpr unsigned MaxPolicySmId = 65535;

// Parses `text`.  On success replaces the contents of `rules` with the rules
// in text order and returns true.  On error returns false, leaves `rules`
// unchanged and sets `error` to a message that starts with `origin` and names
// the bad part, e.g.
//   SMC_POLICY: in rule 'vecAdd=smc(workers=x)': 'x' is not a positive integer
bool parsePolicyText(const std::string &Text, std::vector<PolicyRule> &Rules,
                     std::string &Error,
                     const std::string &Origin = "SMC_POLICY");

// The policy of the rule that applies to a kernel with this source name and
// mangled name, or null if none does.  A rule naming the kernel beats "*";
// among rules of equal rank the last one wins.
const Policy *findPolicy(const std::vector<PolicyRule> &Rules,
                         const std::string &SourceName,
                         const std::string &MangledName);

} // namespace smc

#endif // SMC_RUNTIME_POLICY_POLICYTEXT_H
