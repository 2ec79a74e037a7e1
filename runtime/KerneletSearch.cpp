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
  std::vector<Layout> Out;
  Splits = std::min(std::max(Splits, 1u), NumSplits);
  if (Streams == 0 || Streams > 8)
    return Out;
  uint32_t Choices = 1;
  for (unsigned S = 0; S < Streams; ++S)
    Choices *= Splits;
  unsigned First = (Streams + 1) / 2; // lane 0's share, with stream 0
  for (uint32_t Mask = 0; Mask < (1u << Streams); ++Mask) {
    if (!(Mask & 1) || unsigned(__builtin_popcount(Mask)) != First)
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
            L.Splits.push_back(Split(Rest % Splits));
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
    for (unsigned K = 0; K < NumSplits; ++K) {
      Layout N = L;
      N.Splits[S] = Split(K);
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
        Split How = Stream < L.Splits.size() ? L.Splits[Stream] : Split::Whole;
        unsigned Half = (T.CtasPerSm + 1) / 2;
        uint64_t Slice = T.Ctas;
        unsigned Workers = 0;
        if (How == Split::Slices && Launch.Sliceable && Launch.Known &&
            checkTraits(T)) {
          uint64_t Least = minSliceCtas(M, T);
          if (2 * Least <= T.Ctas)
            Slice = std::min<uint64_t>(std::max(uint64_t(Half) * Sms, Least),
                                       T.Ctas);
        } else if (How >= Split::Workers && Launch.Workers && T.CtasPerSm > 0) {
          unsigned Quarters = How == Split::FewWorkers    ? 1
                              : How == Split::ManyWorkers ? 3
                                                          : 2;
          Workers = (T.CtasPerSm * Quarters + 3) / 4;
          Slice = std::min<uint64_t>(uint64_t(Workers) * Sms, T.Ctas);
        }
        Runs.push_back({I, Lane, 0, T.Ctas, unsigned(Slice), false, Workers});
      }
    }
  return Runs;
}

LayoutSearch::LayoutSearch(Layout Start, double MinGain, unsigned MaxTrials)
    : Best(Start), Climb(std::move(Start)), MinGain(MinGain),
      MaxTrials(MaxTrials) {
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
    // The slower of its two runs: a layout whose time depends on which
    // lane the hardware starts first must not win on its lucky run.
    double Confirmed = std::max(FirstSample, Seconds);
    if (Confirmed < BestSeconds * (1 - MinGain)) {
      Best = *Confirming;
      BestSeconds = Confirmed;
    }
    Confirming.reset();
    Settled = Trials >= MaxTrials;
    return;
  }
  Layout Ran = next();
  if (BestSeconds == 0) {
    Best = Ran;
    BestSeconds = Seconds;
  } else if (Seconds < BestSeconds * (1 - MinGain)) {
    Confirming = Ran; // run it once more before it becomes the best
    FirstSample = Seconds;
  }
  if (ClimbSeconds == 0) {
    ClimbSeconds = Seconds;
  } else {
    CandidateSeconds[NextCandidate++] = Seconds;
    if (NextCandidate < Candidates.size()) {
      Settled = Trials >= MaxTrials;
      return;
    }
    // Every candidate around the climb's layout is measured.
    size_t Fastest = Candidates.size();
    for (size_t I = 0; I < Candidates.size(); ++I)
      if (CandidateSeconds[I] < ClimbSeconds * (1 - MinGain) &&
          (Fastest == Candidates.size() ||
           CandidateSeconds[I] < CandidateSeconds[Fastest]))
        Fastest = I;
    if (Fastest < Candidates.size()) {
      Climb = Candidates[Fastest];
      ClimbSeconds = CandidateSeconds[Fastest];
    } else if (!restart()) {
      Settled = !Confirming;
      return;
    }
  }
  Settled = Trials >= MaxTrials ||
            (ClimbSeconds > 0 && !listCandidates() && !Confirming);
}

bool LayoutSearch::listCandidates() {
  Candidates.clear();
  for (Layout &N : neighbours(Climb))
    if (!tried(N)) {
      markTried(N);
      Candidates.push_back(std::move(N));
    }
  CandidateSeconds.assign(Candidates.size(), 0);
  NextCandidate = 0;
  return !Candidates.empty() || restart();
}

bool LayoutSearch::restart() {
  std::vector<Layout> Far;
  for (const Layout &Near : neighbours(Best))
    for (Layout &N : neighbours(Near))
      if (!tried(N) && std::find(Far.begin(), Far.end(), N) == Far.end())
        Far.push_back(std::move(N));
  if (Far.empty())
    return false;
  Seed = Seed * 1103515245u + 12345u;
  Climb = Far[(Seed >> 8) % Far.size()];
  ClimbSeconds = 0;
  Candidates.clear();
  CandidateSeconds.clear();
  NextCandidate = 0;
  markTried(Climb);
  ++Climbs;
  return true;
}

} // namespace smc::kernelet
