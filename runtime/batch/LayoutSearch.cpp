//===- LayoutSearch.cpp - Measured search for recurring batches -----------===//
//
// Layouts of streams on two lanes, their slice runs, and the hill climbing
// over them.  See LayoutSearch.h.
//===----------------------------------------------------------------------===//
#include "batch/LayoutSearch.h"

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace smc::batch {

bool Layout::operator==(const Layout &O) const {
  return Lanes[0] == O.Lanes[0] && Lanes[1] == O.Lanes[1] && Splits == O.Splits;
}

bool Layout::operator<(const Layout &O) const {
  return std::tie(Lanes[0], Lanes[1], Splits) <
         std::tie(O.Lanes[0], O.Lanes[1], O.Splits);
}

std::string Layout::text() const {
  std::string Out;
  for (unsigned Lane : {0u, 1u}) {
    Out += Lane ? " | lane 1:" : "lane 0:";
    for (unsigned S : Lanes[Lane]) {
      Split How = S < Splits.size() ? Splits[S] : Split::Whole;
      Out += " " + std::to_string(S) +
             (How == Split::Slices        ? "s"
              : How == Split::Workers     ? "w"
              : How == Split::FewWorkers  ? "f"
              : How == Split::ManyWorkers ? "m"
              : How == Split::Partition   ? "p"
                                          : "");
    }
  }
  return Out;
}

bool validLayout(const Layout &L, unsigned Streams) {
  if (L.Splits.size() != Streams)
    return false;
  std::vector<unsigned> Seen(Streams, 0);
  for (const std::vector<unsigned> &Lane : L.Lanes)
    for (unsigned S : Lane)
      if (S >= Streams || Seen[S]++)
        return false;
  return std::all_of(Seen.begin(), Seen.end(),
                     [](unsigned N) { return N == 1; });
}

Layout streamsLayout(unsigned Streams) {
  Layout L;
  L.Splits.assign(Streams, Split::Whole);
  for (unsigned S = 0; S < Streams; ++S)
    L.Lanes[S % 2].push_back(S);
  return L;
}

std::vector<Layout> balancedLayouts(unsigned Streams, unsigned Splits) {
  std::vector<Split> Choices;
  for (unsigned K = 0; K < std::min(std::max(Splits, 1u), NumSplits); ++K)
    Choices.push_back(Split(K));
  return balancedLayouts(Streams, Choices);
}

std::vector<Layout> balancedLayouts(unsigned Streams,
                                    const std::vector<Split> &SplitChoices) {
  std::vector<Layout> Out;
  unsigned Splits = unsigned(SplitChoices.size());
  if (Streams == 0 || Streams > 8 || Splits == 0)
    return Out;
  uint32_t Choices = 1;
  for (unsigned S = 0; S < Streams; ++S)
    Choices *= Splits;
  // Lane 0 holds half of the streams (either half, when they are odd):
  // the lanes are not interchangeable (lane 0's CTAs are placed first).
  unsigned Half = Streams / 2, OtherHalf = Streams - Half;
  for (uint32_t Mask = 0; Mask < (1u << Streams); ++Mask) {
    unsigned OnLane0 = unsigned(__builtin_popcount(Mask));
    if (OnLane0 != Half && OnLane0 != OtherHalf)
      continue;
    Layout Base;
    Base.Splits.assign(Streams, Split::Whole);
    for (unsigned S = 0; S < Streams; ++S)
      Base.Lanes[(Mask >> S) & 1 ? 0 : 1].push_back(S);
    std::vector<unsigned> A = Base.Lanes[0];
    do {
      std::vector<unsigned> B = Base.Lanes[1];
      do {
        for (uint32_t Choice = 0; Choice < Choices; ++Choice) {
          Layout L;
          L.Lanes[0] = A;
          L.Lanes[1] = B;
          for (uint32_t S = 0, Rest = Choice; S < Streams; ++S, Rest /= Splits)
            L.Splits.push_back(SplitChoices[Rest % Splits]);
          Out.push_back(std::move(L));
        }
      } while (std::next_permutation(B.begin(), B.end()));
    } while (std::next_permutation(A.begin(), A.end()));
  }
  return Out;
}

std::vector<Layout> neighbours(const Layout &L) {
  std::vector<Layout> Out;
  auto Add = [&](Layout N) {
    if (!(N == L) && std::find(Out.begin(), Out.end(), N) == Out.end())
      Out.push_back(std::move(N));
  };
  for (size_t S = 0; S < L.Splits.size(); ++S)
    for (unsigned K = 0; K < SearchSplits; ++K) {
      Layout N = L;
      N.Splits[S] = Split(K);
      Add(std::move(N));
    }
  // The lanes swapped: which lane's CTAs are placed first.
  Layout Mirror = L;
  std::swap(Mirror.Lanes[0], Mirror.Lanes[1]);
  Add(std::move(Mirror));
  // One stream moved to the end of the other lane: streams that share a
  // lane run one after the other (with two streams, one after the other is
  // what serializing them gives, and it beats every side-by-side layout
  // of some pairs).
  for (unsigned Lane : {0u, 1u})
    for (size_t P = 0; P < L.Lanes[Lane].size(); ++P) {
      Layout N = L;
      N.Lanes[Lane].erase(N.Lanes[Lane].begin() + P);
      N.Lanes[1 - Lane].push_back(L.Lanes[Lane][P]);
      Add(std::move(N));
    }
  // Every place: (lane, position).
  std::vector<std::pair<unsigned, size_t>> Places;
  for (unsigned Lane : {0u, 1u})
    for (size_t P = 0; P < L.Lanes[Lane].size(); ++P)
      Places.push_back({Lane, P});
  for (size_t I = 0; I < Places.size(); ++I)
    for (size_t J = I + 1; J < Places.size(); ++J) {
      Layout N = L;
      std::swap(N.Lanes[Places[I].first][Places[I].second],
                N.Lanes[Places[J].first][Places[J].second]);
      Add(std::move(N));
    }
  return Out;
}

std::vector<SliceRun> layoutRuns(const PlanDevice &M,
                                 const std::vector<PendingLaunch> &Launches,
                                 const Layout &L) {
  std::vector<SliceRun> Runs;
  size_t Positions = std::max(L.Lanes[0].size(), L.Lanes[1].size());
  unsigned Sms = std::max(M.NumSms, 1u);
  for (size_t P = 0; P < Positions; ++P)
    for (unsigned Lane : {0u, 1u}) {
      if (P >= L.Lanes[Lane].size())
        continue;
      unsigned Stream = L.Lanes[Lane][P];
      for (unsigned I = 0; I < Launches.size(); ++I) {
        const PendingLaunch &Launch = Launches[I];
        const KernelTraits &T = Launch.Traits;
        if (Launch.Stream != Stream || T.Ctas == 0)
          continue;
        Split How = Stream < L.Splits.size() ? L.Splits[Stream] : Split::Whole;
        unsigned Half = (T.CtasPerSm + 1) / 2;
        uint64_t Slice = T.Ctas;
        unsigned Workers = 0, SmFirst = 0, SmCount = 0;
        if (How == Split::Slices && Launch.Sliceable && Launch.Known &&
            checkTraits(T)) {
          uint64_t Least = minSliceCtas(M, T);
          if (2 * Least <= T.Ctas)
            Slice = std::min<uint64_t>(std::max(uint64_t(Half) * Sms, Least),
                                       T.Ctas);
        } else if (How == Split::Partition && Launch.Workers &&
                   T.CtasPerSm > 0 && Sms > 1) {
          Workers = workersPerSmFit(Launch);
          SmFirst = Lane ? Sms / 2 : 0;
          SmCount = Lane ? Sms - Sms / 2 : Sms / 2;
          Slice = std::min<uint64_t>(uint64_t(Workers) * SmCount, T.Ctas);
        } else if (How >= Split::Workers && How <= Split::ManyWorkers &&
                   Launch.Workers && T.CtasPerSm > 0) {
          unsigned Quarters = How == Split::FewWorkers    ? 1
                              : How == Split::ManyWorkers ? 3
                                                          : 2;
          Workers = (workersPerSmFit(Launch) * Quarters + 3) / 4;
          Slice = std::min<uint64_t>(uint64_t(Workers) * Sms, T.Ctas);
        }
        Runs.push_back(
            {I, Lane, 0, T.Ctas, unsigned(Slice), Workers, SmFirst, SmCount});
      }
    }
  return Runs;
}

LayoutSearch::LayoutSearch(Layout Start, double MinGain, unsigned MaxTrials,
                           unsigned ConfirmRuns, unsigned Seed)
    : Best(Start), Climb(std::move(Start)), Seed(Seed), MinGain(MinGain),
      MaxTrials(MaxTrials), ConfirmRuns(std::max(ConfirmRuns, 1u)) {
  markTried(Climb);
}

bool LayoutSearch::tried(const Layout &L) const {
  return std::binary_search(Tried.begin(), Tried.end(), L);
}

void LayoutSearch::markTried(const Layout &L) {
  if (!tried(L))
    Tried.insert(std::upper_bound(Tried.begin(), Tried.end(), L), L);
}

const Layout &LayoutSearch::next() const {
  if (Settled)
    return Best;
  if (Confirming)
    return *Confirming;
  if (ClimbSeconds == 0)
    return Climb;
  return Candidates[NextCandidate];
}

void LayoutSearch::measured(double Seconds) {
  if (Settled || !(Seconds > 0))
    return;
  ++Trials;
  if (Confirming) {
    // Its slowest run: a layout whose time depends on which kernel the
    // hardware places first must not win on its lucky runs.
    ConfirmSlowest = std::max(ConfirmSlowest, Seconds);
    bool Beats = fasterBy(ConfirmSlowest, BestSeconds, MinGain);
    if (Beats && ++ConfirmSamples < ConfirmRuns) {
      Settled = Trials >= MaxTrials;
      return;
    }
    if (Beats) {
      Best = *Confirming;
      BestSeconds = ConfirmSlowest;
    }
    Confirming.reset();
    Settled = Trials >= MaxTrials;
    return;
  }
  Layout Ran = next();
  markTried(Ran);
  if (BestSeconds == 0) {
    Best = Ran;
    BestSeconds = Seconds;
  } else if (fasterBy(Seconds, BestSeconds, MinGain)) {
    if (ConfirmRuns > 1) {
      Confirming = Ran; // run it again before it becomes the best
      ConfirmSlowest = Seconds;
      ConfirmSamples = 1;
    } else {
      Best = Ran;
      BestSeconds = Seconds;
    }
  }
  if (ClimbSeconds == 0) {
    ClimbSeconds = Seconds;
  } else if (fasterBy(Seconds, ClimbSeconds, MinGain)) {
    // The first neighbour that beats the climb's layout: the climb moves.
    Climb = std::move(Ran);
    ClimbSeconds = Seconds;
  } else if (++NextCandidate < Candidates.size()) {
    Settled = Trials >= MaxTrials;
    return;
  } else if (!restart()) { // every neighbour measured, none faster: stuck
    Settled = !Confirming;
    return;
  }
  Settled = Trials >= MaxTrials ||
            (ClimbSeconds > 0 && !listCandidates() && !Confirming);
}

bool LayoutSearch::listCandidates() {
  Candidates.clear();
  for (Layout &N : neighbours(Climb))
    if (!tried(N))
      Candidates.push_back(std::move(N));
  // In a random order (fixed seed): neighbours() lists one stream's splits
  // after another's, and a climb would try the first streams' first.
  for (size_t I = Candidates.size(); I > 1; --I)
    std::swap(Candidates[I - 1], Candidates[nextRandom() % I]);
  NextCandidate = 0;
  return !Candidates.empty() || restart();
}

unsigned LayoutSearch::nextRandom() {
  Seed = Seed * 1103515245u + 12345u;
  return Seed >> 8;
}

bool LayoutSearch::restart() {
  std::vector<Layout> Far;
  for (const Layout &Near : neighbours(Best))
    for (Layout &N : neighbours(Near))
      if (!tried(N) && std::find(Far.begin(), Far.end(), N) == Far.end())
        Far.push_back(std::move(N));
  if (Far.empty())
    return false;
  Climb = Far[nextRandom() % Far.size()];
  ClimbSeconds = 0;
  Candidates.clear();
  NextCandidate = 0;
  markTried(Climb);
  ++Climbs;
  return true;
}

} // namespace smc::batch
