//===- DecisionMakers.h - Composing decision-makers -------------*- C++ -*-===//
//
// A decision-maker is a type with a Ticket (its state for one launch) and
// three static steps, in the style of CUTLASS's tile-scheduler strategy
// types:
//
//   static void propose(Launch &, Ticket &);   its part of the decision
//   static void before(Launch &, Ticket &);    work queued ahead of the
//                                              kernel on its stream
//   static void after(Launch &, Ticket &, cudaError_t);
//                                              work queued after it, and
//                                              the records of what ran
//
// DecisionMakers<A, B, C> runs the proposals and the befores in the order
// given and the afters in reverse, so that what a maker queued around the
// kernel nests inside what the makers before it queued (a trial's timing
// around an urgent launch's writes).  No CUDA here: the Launch type is a
// template parameter, so the unit tests compose fake makers.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_DISPATCH_DECISIONMAKERS_H
#define SMC_RUNTIME_DISPATCH_DECISIONMAKERS_H

#include <cstddef>
#include <tuple>
#include <utility>

namespace smc {

template <typename... Makers> class DecisionMakers {
public:
  template <typename LaunchT> void propose(LaunchT &L) {
    (Makers::propose(L, std::get<typename Makers::Ticket>(Tickets)), ...);
  }
  template <typename LaunchT> void before(LaunchT &L) {
    (Makers::before(L, std::get<typename Makers::Ticket>(Tickets)), ...);
  }
  template <typename LaunchT, typename ErrorT>
  void after(LaunchT &L, ErrorT Err) {
    afterInReverse(L, Err, std::index_sequence_for<Makers...>());
  }

private:
  template <typename LaunchT, typename ErrorT, size_t... I>
  void afterInReverse(LaunchT &L, ErrorT Err, std::index_sequence<I...>) {
    (afterOne<sizeof...(Makers) - 1 - I>(L, Err), ...);
  }
  template <size_t I, typename LaunchT, typename ErrorT>
  void afterOne(LaunchT &L, ErrorT Err) {
    using Maker = std::tuple_element_t<I, std::tuple<Makers...>>;
    Maker::after(L, std::get<I>(Tickets), Err);
  }

  std::tuple<typename Makers::Ticket...> Tickets;
};

} // namespace smc

#endif // SMC_RUNTIME_DISPATCH_DECISIONMAKERS_H
