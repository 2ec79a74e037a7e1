//===- mcubes.cpp - mcubes: case table, inputs, CPU reference, self-check -===//
#include "mcubes.h"

#include "Check.h"
#include "Random.h"

#include <cmath>
#include <unordered_map>

namespace smc::workloads::mcubes {
namespace {

int cornerX(int k) { return ((k + 1) >> 1) & 1; }
int cornerY(int k) { return (k >> 1) & 1; }
int cornerZ(int k) { return k >> 2; }
void edgeCorners(int e, int &a, int &b) {
  a = e < 8 ? e : e - 8;
  b = e < 8 ? (e & 4) | ((e + 1) & 3) : e - 4;
}
int edgeBetween(int a, int b) {
  for (int e = 0; e < 12; ++e) {
    int p, q;
    edgeCorners(e, p, q);
    if ((p == a && q == b) || (p == b && q == a))
      return e;
  }
  return -1;
}

CaseTable buildCaseTable() {
  static const int faces[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                  {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  CaseTable table;
  table.count.assign(256, 0);
  table.edges.assign(256 * 15, -1);
  for (int c = 0; c < 256; ++c) {
    auto inside = [&](int k) { return (c >> k) & 1; };
    int link[12][2], degree[12] = {};
    auto join = [&](int e, int f) {
      link[e][degree[e]++] = f;
      link[f][degree[f]++] = e;
    };
    for (const auto &face : faces) {
      int edge[4], crossed[4], crossings = 0;
      for (int j = 0; j < 4; ++j) {
        edge[j] = edgeBetween(face[j], face[(j + 1) % 4]);
        if (inside(face[j]) != inside(face[(j + 1) % 4]))
          crossed[crossings++] = edge[j];
      }
      if (crossings == 2)
        join(crossed[0], crossed[1]);
      else if (crossings == 4) // cut each inside corner off on its own
        for (int j = 0; j < 4; ++j)
          if (inside(face[j]))
            join(edge[(j + 3) % 4], edge[j]);
    }
    bool seen[12] = {};
    int tris = 0;
    for (int start = 0; start < 12; ++start) {
      if (!degree[start] || seen[start])
        continue;
      int loop[12], length = 0, previous = -1, at = start;
      do {
        seen[at] = true;
        loop[length++] = at;
        int next = link[at][0] == previous ? link[at][1] : link[at][0];
        previous = at;
        at = next;
      } while (at != start);
      for (int k = 1; k + 1 < length; ++k, ++tris) {
        int *slot = &table.edges[size_t(c) * 15 + 3 * size_t(tris)];
        slot[0] = loop[0];
        slot[1] = loop[k];
        slot[2] = loop[k + 1];
      }
    }
    table.count[c] = tris;
  }
  return table;
}

// Corner k of voxel (x, y, z) as a field index.
size_t cornerIndex(const Problem &p, size_t x, size_t y, size_t z, int k) {
  size_t px = size_t(p.dx) + 1, py = size_t(p.dy) + 1;
  return ((z + cornerZ(k)) * py + y + cornerY(k)) * px + x + cornerX(k);
}

void voxelCoordinates(const Problem &p, size_t i, size_t &x, size_t &y,
                      size_t &z) {
  x = i % size_t(p.dx);
  y = i / size_t(p.dx) % size_t(p.dy);
  z = i / size_t(p.dx) / size_t(p.dy);
}

} // namespace

const CaseTable &caseTable() {
  static const CaseTable table = buildCaseTable();
  return table;
}

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.dx = int32_t(params.get("dx"));
  p.dy = int32_t(params.get("dy"));
  p.dz = int32_t(params.get("dz"));
  int spacing = params.get("smooth") ? 32 : 3;
  // Value noise: uniform values on a coarse lattice, trilinear in between.
  size_t lx = size_t(p.dx / spacing + 2), ly = size_t(p.dy / spacing + 2),
         lz = size_t(p.dz / spacing + 2);
  Rng rng(seed, 1);
  std::vector<float> lattice(lx * ly * lz);
  for (float &v : lattice)
    v = rng.unit();
  size_t px = size_t(p.dx) + 1, py = size_t(p.dy) + 1, pz = size_t(p.dz) + 1;
  p.field.resize(px * py * pz);
  for (size_t z = 0; z < pz; ++z)
    for (size_t y = 0; y < py; ++y)
      for (size_t x = 0; x < px; ++x) {
        size_t at[3] = {x, y, z}, cell[3];
        double frac[3];
        for (int d = 0; d < 3; ++d) {
          cell[d] = at[d] / size_t(spacing);
          frac[d] = double(at[d] % size_t(spacing)) / spacing;
        }
        double v = 0;
        for (int k = 0; k < 8; ++k) {
          double w = 1;
          size_t c[3];
          for (int d = 0; d < 3; ++d) {
            int bit = (k >> d) & 1;
            w *= bit ? frac[d] : 1 - frac[d];
            c[d] = cell[d] + size_t(bit);
          }
          v += w * lattice[(c[2] * ly + c[1]) * lx + c[0]];
        }
        p.field[(z * py + y) * px + x] = float(v);
      }
  return p;
}

void cpuClassify(const Problem &p, std::vector<int32_t> &caseId,
                 std::vector<int32_t> &count) {
  size_t n = p.voxels();
  caseId.resize(n);
  count.resize(n);
  for (size_t i = 0; i < n; ++i) {
    size_t x, y, z;
    voxelCoordinates(p, i, x, y, z);
    int c = 0;
    for (int k = 0; k < 8; ++k)
      c |= (p.field[cornerIndex(p, x, y, z, k)] < kIso) << k;
    caseId[i] = c;
    count[i] = caseTable().count[c];
  }
}

void cpuTriangles(const Problem &p, const std::vector<size_t> &voxels,
                  std::vector<double> &tris) {
  const CaseTable &table = caseTable();
  tris.assign(voxels.size() * kSlotFloats, 0.0);
  for (size_t k = 0; k < voxels.size(); ++k) {
    size_t x, y, z;
    voxelCoordinates(p, voxels[k], x, y, z);
    int c = 0;
    for (int corner = 0; corner < 8; ++corner)
      c |= (p.field[cornerIndex(p, x, y, z, corner)] < kIso) << corner;
    for (int t = 0; t < table.count[c]; ++t)
      for (int v = 0; v < 3; ++v) {
        int a, b;
        edgeCorners(table.edges[size_t(c) * 15 + 3 * t + v], a, b);
        double va = p.field[cornerIndex(p, x, y, z, a)];
        double vb = p.field[cornerIndex(p, x, y, z, b)];
        double s = (kIso - va) / (vb - va);
        double *out = &tris[k * kSlotFloats + 9 * t + 3 * v];
        out[0] = double(x + cornerX(a)) + s * (cornerX(b) - cornerX(a));
        out[1] = double(y + cornerY(a)) + s * (cornerY(b) - cornerY(a));
        out[2] = double(z + cornerZ(a)) + s * (cornerZ(b) - cornerZ(a));
      }
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  // The table: every crossed edge of each case carries vertices, no other
  // edge does, at most kMaxTris triangles.
  const CaseTable &table = caseTable();
  for (int c = 0; c < 256; ++c) {
    if (table.count[c] > kMaxTris)
      return failure("table", "case " + std::to_string(c) + " has " +
                                  std::to_string(table.count[c]) + " tris");
    bool used[12] = {};
    for (int j = 0; j < 3 * table.count[c]; ++j)
      used[table.edges[size_t(c) * 15 + j]] = true;
    for (int e = 0; e < 12; ++e) {
      int a, b;
      edgeCorners(e, a, b);
      if (used[e] != (((c >> a) & 1) != ((c >> b) & 1)))
        return failure("table", "case " + std::to_string(c) + " edge " +
                                    std::to_string(e));
    }
  }
  // The surface is closed: on the Small input, every segment between two
  // vertices (named by their grid edges) belongs to an even number of
  // triangles (two, or four where the fans of both voxels at a face take a
  // diagonal in it), or to an odd number where it lies in a face of the
  // domain; and each vertex is where the field, linear along its edge,
  // crosses the iso value.
  Problem p = generate(info().params(Size::Small), seed);
  size_t n = p.voxels();
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<int32_t> caseId, count;
  cpuClassify(p, caseId, count);
  std::vector<double> tris;
  cpuTriangles(p, all, tris);
  size_t px = size_t(p.dx) + 1, py = size_t(p.dy) + 1;
  std::unordered_map<uint64_t, int> segments;
  uint64_t triangles = 0;
  size_t cases[256] = {};
  for (size_t i = 0; i < n; ++i) {
    size_t x, y, z;
    voxelCoordinates(p, i, x, y, z);
    ++cases[caseId[i]];
    for (int t = 0; t < count[i]; ++t, ++triangles) {
      uint64_t id[3];
      for (int v = 0; v < 3; ++v) {
        int a, b;
        edgeCorners(table.edges[size_t(caseId[i]) * 15 + 3 * t + v], a, b);
        if (cornerIndex(p, x, y, z, b) < cornerIndex(p, x, y, z, a))
          std::swap(a, b);
        int axis = cornerX(b) != cornerX(a)   ? 0
                   : cornerY(b) != cornerY(a) ? 1
                                              : 2;
        id[v] = uint64_t(cornerIndex(p, x, y, z, a)) * 3 + uint64_t(axis);
        const double *pos = &tris[i * kSlotFloats + 9 * t + 3 * v];
        double va = p.field[cornerIndex(p, x, y, z, a)];
        double vb = p.field[cornerIndex(p, x, y, z, b)];
        double s = pos[axis] - double(axis == 0   ? x + cornerX(a)
                                      : axis == 1 ? y + cornerY(a)
                                                  : z + cornerZ(a));
        if (std::fabs(va + s * (vb - va) - kIso) > 1e-9)
          return failure("vertex", "voxel " + std::to_string(i));
      }
      for (int v = 0; v < 3; ++v) {
        uint64_t lo = std::min(id[v], id[(v + 1) % 3]),
                 hi = std::max(id[v], id[(v + 1) % 3]);
        ++segments[lo * 3 * px * py * (size_t(p.dz) + 1) + hi];
      }
    }
  }
  uint64_t points = px * py * (size_t(p.dz) + 1), open = 0;
  for (const auto &[key, uses] : segments) {
    uint64_t ends[2] = {key / (3 * points), key % (3 * points)};
    // The domain faces both ends' grid edges lie in (bit per face).
    unsigned planes = ~0u;
    for (uint64_t end : ends) {
      uint64_t point = end / 3, axis = end % 3;
      uint64_t at[3] = {point % px, point / px % py, point / px / py};
      uint64_t size[3] = {px - 1, py - 1, size_t(p.dz)};
      unsigned mine = 0;
      for (int d = 0; d < 3; ++d)
        if (uint64_t(d) != axis)
          mine |= (at[d] == 0 ? 1u : 0u) << (2 * d) |
                  (at[d] == size[d] ? 1u : 0u) << (2 * d + 1);
      planes &= mine;
    }
    if (uses % 2 && planes)
      ++open;
    else if (uses % 2)
      return failure("closed surface",
                     "a segment in " + std::to_string(uses) + " triangles");
  }
  int mixed = 0;
  for (size_t c : cases)
    mixed += c > 0;
  if (mixed < 128 || triangles == 0)
    return failure("input", "only " + std::to_string(mixed) + " cases");
  CheckResult r = success("invariants", triangles);
  r.detail = "table covers each case's crossed edges; closed surface (" +
             std::to_string(open) + " boundary segments); vertices on iso";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "mcubes",
      "Marching cubes: classify voxels, then a case-dependent number of "
      "triangles each (G-Streamline mcubes)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperGStreamline,
      FeatureMultiLaunch,
      {"mcubes_classify", "mcubes_generate"},
      {{"dx", 32, 256, 384, "voxels along x"},
       {"dy", 32, 256, 384, "voxels along y"},
       {"dz", 32, 256, 256, "voxels along z"},
       {"smooth", 0, 0, 0,
        "1: a smooth field, long runs of empty voxels (remapping must not "
        "pay)"}},
      &create,
      &cpuSelfCheck,
      "cases, counts exact; vertices 1e-5 of max(|ref|, 1) on 2^18 sampled "
      "voxels, every vertex in its voxel",
  };
  return entry;
}

} // namespace smc::workloads::mcubes
