//===- KerneletSearch.cpp - Measured search for recurring batches ---------===//
//
// Layouts of streams on two lanes, their slice runs, and the hill climbing
// over them.  See KerneletSearch.h.
//===----------------------------------------------------------------------===//
#include "KerneletSearch.h"

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace smc::kernelet {

bool Layout::operator==(const Layout &O) const {
  return Lanes[0] == O.Lanes[0] && Lanes[1] == O.Lanes[1] && Sliced == O.Sliced;
}

bool Layout::operator<(const Layout &O) const {
  return std::tie(Lanes[0], Lanes[1], Sliced) <
         std::tie(O.Lanes[0], O.Lanes[1], O.Sliced);
}

std::string Layout::text() const {
  std::string Out;
  for (unsigned Lane : {0u, 1u}) {
    Out += Lane ? " | lane 1:" : "lane 0:";
    for (unsigned S : Lanes[Lane])
      Out +=
          " " + std::to_string(S) + (S < Sliced.size() && Sliced[S] ? "s" : "");
  }
  return Out;
}

bool validLayout(const Layout &L, unsigned Streams) {
  if (L.Sliced.size() != Streams)
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
  L.Sliced.assign(Streams, false);
  for (unsigned S = 0; S < Streams; ++S)
    L.Lanes[S % 2].push_back(S);
  return L;
}

std::vector<Layout> balancedLayouts(unsigned Streams) {
  std::vector<Layout> Out;
  if (Streams == 0 || Streams > 16)
    return Out;
  unsigned First = (Streams + 1) / 2; // lane 0's share, with stream 0
  for (uint32_t Mask = 0; Mask < (1u << Streams); ++Mask) {
    if (!(Mask & 1) || unsigned(__builtin_popcount(Mask)) != First)
      continue;
    Layout Base;
    Base.Sliced.assign(Streams, false);
    for (unsigned S = 0; S < Streams; ++S)
      Base.Lanes[(Mask >> S) & 1 ? 0 : 1].push_back(S);
    std::vector<unsigned> A = Base.Lanes[0];
    do {
      std::vector<unsigned> B = Base.Lanes[1];
      do {
        for (uint32_t Sliced = 0; Sliced < (1u << Streams); ++Sliced) {
          Layout L;
          L.Lanes[0] = A;
          L.Lanes[1] = B;
          for (unsigned S = 0; S < Streams; ++S)
            L.Sliced.push_back((Sliced >> S) & 1);
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
  for (size_t S = 0; S < L.Sliced.size(); ++S) {
    Layout N = L;
    N.Sliced[S] = !N.Sliced[S];
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

std::vector<SliceRun> layoutRuns(const DeviceModel &M,
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
        uint64_t Slice = T.Ctas;
        if (Stream < L.Sliced.size() && L.Sliced[Stream] && Launch.Sliceable &&
            Launch.Known && checkTraits(T)) {
          uint64_t Half = uint64_t((T.CtasPerSm + 1) / 2) * Sms;
          uint64_t Least = minSliceCtas(M, T);
          if (2 * Least <= T.Ctas)
            Slice = std::min<uint64_t>(std::max(Half, Least), T.Ctas);
        }
        Runs.push_back({I, Lane, 0, T.Ctas, unsigned(Slice)});
      }
    }
  return Runs;
}

LayoutSearch::LayoutSearch(Layout Start, double MinGain, unsigned MaxTrials)
    : Best(std::move(Start)), MinGain(MinGain), MaxTrials(MaxTrials) {
  Visited.push_back(Best);
}

const Layout &LayoutSearch::next() const {
  if (Settled || BestSeconds == 0)
    return Best;
  return Candidates[NextCandidate];
}

void LayoutSearch::measured(double Seconds) {
  if (Settled || !(Seconds > 0))
    return;
  ++Trials;
  if (BestSeconds == 0) {
    BestSeconds = Seconds;
  } else {
    CandidateSeconds[NextCandidate++] = Seconds;
  }
  if (NextCandidate == Candidates.size())
    moveOn();
  if (Trials >= MaxTrials)
    Settled = true;
}

// All candidates around Best are measured (or there are none yet): move to
// the fastest if it gains enough, and list the new neighbours not visited.
void LayoutSearch::moveOn() {
  size_t Fastest = Candidates.size();
  for (size_t I = 0; I < Candidates.size(); ++I)
    if (CandidateSeconds[I] < BestSeconds * (1 - MinGain) &&
        (Fastest == Candidates.size() ||
         CandidateSeconds[I] < CandidateSeconds[Fastest]))
      Fastest = I;
  if (!Candidates.empty() && Fastest == Candidates.size()) {
    Settled = true;
    return;
  }
  if (Fastest < Candidates.size()) {
    Best = Candidates[Fastest];
    BestSeconds = CandidateSeconds[Fastest];
  }
  Candidates.clear();
  for (Layout &N : neighbours(Best))
    if (!std::binary_search(Visited.begin(), Visited.end(), N)) {
      Visited.insert(std::upper_bound(Visited.begin(), Visited.end(), N), N);
      Candidates.push_back(std::move(N));
    }
  CandidateSeconds.assign(Candidates.size(), 0);
  NextCandidate = 0;
  if (Candidates.empty())
    Settled = true;
}

} // namespace smc::kernelet
