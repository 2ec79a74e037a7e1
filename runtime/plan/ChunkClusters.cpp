//===- ChunkClusters.cpp - Clusters of neighbouring chunks ----------------===//
//
// Cuts the grid into clusters, deals them to the SMs of the set (least
// loaded first) and writes the per-SM queues.  See ChunkClusters.h.
//===----------------------------------------------------------------------===//
#include "plan/ChunkClusters.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace smc {
namespace {

// One cluster: chunks [X0, X1) x [Y0, Y1) of plane Z.
struct Cluster {
  uint32_t X0, X1, Y0, Y1, Z;
  uint32_t chunks() const { return (X1 - X0) * (Y1 - Y0); }
};

// Calls `Visit(cluster)` for every cluster of the grid in grid order: x
// fastest, then y, then z.
template <typename ClusterVisitor>
void forEachCluster(GridSize Grid, ClusterExtent Extent, ClusterVisitor Visit) {
  for (uint32_t Z = 0; Z < Grid.Z; ++Z) {
    for (uint64_t Y0 = 0; Y0 < Grid.Y; Y0 += Extent.Y) {
      uint32_t Y1 = uint32_t(std::min<uint64_t>(Y0 + Extent.Y, Grid.Y));
      for (uint64_t X0 = 0; X0 < Grid.X; X0 += Extent.X) {
        uint32_t X1 = uint32_t(std::min<uint64_t>(X0 + Extent.X, Grid.X));
        Visit(Cluster{uint32_t(X0), X1, uint32_t(Y0), Y1, Z});
      }
    }
  }
}

std::string shapeText(uint64_t Width, uint64_t Height) {
  return std::to_string(Width) + "x" + std::to_string(Height);
}

} // namespace

ClusterExtent tileExtent(uint32_t Size) {
  uint32_t Height = 1;
  for (uint64_t D = 1; D * D <= Size; ++D)
    if (Size % D == 0)
      Height = uint32_t(D);
  ClusterExtent Extent;
  Extent.X = Size / Height;
  Extent.Y = Height;
  return Extent;
}

bool clusterExtent(const Policy &Policy, uint32_t DefaultSize,
                   ClusterExtent &Extent, std::string &Reason) {
  uint32_t Size = Policy.clusterSize ? Policy.clusterSize
                                     : std::max<uint32_t>(DefaultSize, 1);
  bool HasShape = Policy.clusterWidth != 0 || Policy.clusterHeight != 0;
  Extent = ClusterExtent();
  switch (Policy.clusterDir) {
  case ClusterDir::X:
  case ClusterDir::Y:
    if (HasShape) {
      Reason = "a cluster width and height (" +
               shapeText(Policy.clusterWidth, Policy.clusterHeight) +
               ") are for tile clusters, not for clusters along " +
               (Policy.clusterDir == ClusterDir::X ? "x" : "y");
      return false;
    }
    (Policy.clusterDir == ClusterDir::X ? Extent.X : Extent.Y) = Size;
    return true;
  case ClusterDir::Tile:
    if (!HasShape) {
      Extent = tileExtent(Size);
      return true;
    }
    if (Policy.clusterWidth == 0 || Policy.clusterHeight == 0) {
      Reason = "the cluster tile " +
               shapeText(Policy.clusterWidth, Policy.clusterHeight) +
               " needs a positive width and height";
      return false;
    }
    if (Policy.clusterSize != 0 &&
        uint64_t(Policy.clusterWidth) * Policy.clusterHeight !=
            Policy.clusterSize) {
      Reason =
          "the cluster tile " +
          shapeText(Policy.clusterWidth, Policy.clusterHeight) +
          " does not have clusterSize=" + std::to_string(Policy.clusterSize) +
          " chunks";
      return false;
    }
    Extent.X = Policy.clusterWidth;
    Extent.Y = Policy.clusterHeight;
    return true;
  }
  Reason = "unknown cluster direction";
  return false;
}

void dealClusters(GridSize Grid, ClusterExtent Extent,
                  const std::vector<uint32_t> &Set, uint32_t NumSlots,
                  std::vector<uint32_t> &QueueStart,
                  std::vector<uint32_t> &QueueChunks) {
  const uint32_t K = static_cast<uint32_t>(Set.size());
  std::vector<uint32_t> Counts(NumSlots, 0);
  // When the extent divides the grid every cluster is whole, and the least
  // loaded SM is always the next in round robin: no heap, no owner table
  // (planning a grid of 2^26 single-chunk clusters took 3 s with them).
  const bool AllWhole = Grid.X % Extent.X == 0 && Grid.Y % Extent.Y == 0;
  std::vector<uint32_t> OwnerOfCluster; // index into Set, unless AllWhole
  if (AllWhole) {
    uint64_t Clusters =
        uint64_t(Grid.X / Extent.X) * (Grid.Y / Extent.Y) * Grid.Z;
    uint32_t PerCluster = Extent.X * Extent.Y; // at most the grid's chunks
    for (uint32_t I = 0; I < K; ++I)
      Counts[Set[I]] =
          PerCluster * uint32_t(Clusters / K + (I < Clusters % K ? 1 : 0));
  } else {
    // The least loaded SM, ties to the lowest index in Set: a min-heap of
    // (chunks so far, index).
    using Load = std::pair<uint32_t, uint32_t>;
    std::priority_queue<Load, std::vector<Load>, std::greater<Load>> Least;
    for (uint32_t I = 0; I < K; ++I)
      Least.push({0, I});
    forEachCluster(Grid, Extent, [&](const Cluster &C) {
      Load L = Least.top();
      Least.pop();
      OwnerOfCluster.push_back(L.second);
      Counts[Set[L.second]] += C.chunks();
      Least.push({L.first + C.chunks(), L.second});
    });
  }

  QueueStart.assign(NumSlots + 1, 0);
  for (uint32_t S = 0; S < NumSlots; ++S)
    QueueStart[S + 1] = QueueStart[S] + Counts[S];
  std::vector<uint32_t> Cursor(QueueStart.begin(), QueueStart.end() - 1);
  QueueChunks.assign(QueueStart.back(), 0);
  size_t Index = 0;
  uint32_t RoundRobin = 0;
  forEachCluster(Grid, Extent, [&](const Cluster &C) {
    uint32_t Owner;
    if (AllWhole) {
      Owner = RoundRobin;
      RoundRobin = RoundRobin + 1 == K ? 0 : RoundRobin + 1;
    } else {
      Owner = OwnerOfCluster[Index++];
    }
    uint32_t &Next = Cursor[Set[Owner]];
    for (uint32_t Y = C.Y0; Y < C.Y1; ++Y) {
      uint32_t RowBase = Grid.X * (Y + Grid.Y * C.Z);
      for (uint32_t X = C.X0; X < C.X1; ++X)
        QueueChunks[Next++] = RowBase + X;
    }
  });
}

} // namespace smc
