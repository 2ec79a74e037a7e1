//===- DecisionMakersTest.cpp - The dispatcher's order --------------------===//
//
// DecisionMakers (runtime/dispatch/DecisionMakers.h): proposals and the
// work queued before a kernel run in the makers' order, the work after it
// in reverse, and each maker gets its own ticket for the launch.
//===----------------------------------------------------------------------===//
#include "dispatch/DecisionMakers.h"

#include <gtest/gtest.h>

#include <string>

using namespace smc;

namespace {

struct FakeLaunch {
  std::string Steps;
};

template <char Name> struct Maker {
  struct Ticket {
    int Proposed = 0;
  };
  static void propose(FakeLaunch &L, Ticket &T) {
    ++T.Proposed;
    L.Steps += std::string("p") + Name;
  }
  static void before(FakeLaunch &L, Ticket &T) {
    EXPECT_EQ(T.Proposed, 1) << "the ticket is the one proposed with";
    L.Steps += std::string("b") + Name;
  }
  static void after(FakeLaunch &L, Ticket &T, int Err) {
    EXPECT_EQ(T.Proposed, 1);
    L.Steps += std::string("a") + Name + std::to_string(Err);
  }
};

} // namespace

TEST(DecisionMakers, ProposeAndBeforeInOrderAfterInReverse) {
  FakeLaunch L;
  DecisionMakers<Maker<'A'>, Maker<'B'>, Maker<'C'>> Makers;
  Makers.propose(L);
  Makers.before(L);
  L.Steps += "|launch|";
  Makers.after(L, 7);
  EXPECT_EQ(L.Steps, "pApBpCbAbBbC|launch|aC7aB7aA7");
}

TEST(DecisionMakers, OneMaker) {
  FakeLaunch L;
  DecisionMakers<Maker<'X'>> Makers;
  Makers.propose(L);
  Makers.before(L);
  Makers.after(L, 0);
  EXPECT_EQ(L.Steps, "pXbXaX0");
}
