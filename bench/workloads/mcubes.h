//===- mcubes.h - mcubes: marching cubes (G-Streamline) -------------------===//
//
// Marching cubes over a dx x dy x dz grid of voxels (voxel i = (z * dy + y)
// * dx + x) of a scalar field sampled at the (dx+1)(dy+1)(dz+1) corners,
// against the iso value 0.5 (G-Streamline's mcubes, after the CUDA SDK).
// Two launches per run: mcubes_classify writes each voxel's case (bit k set
// when corner k is below the iso value) and its triangle count (0..5, from
// the 256-entry table); mcubes_generate loads the case first and loops over
// its triangles (a data-dependent trip count), interpolating each vertex
// along its cube edge, into a fixed slot of kMaxTris triangles per voxel
// (tris[(i * kMaxTris + t) * 9 + 3 * v + axis]; slots past the voxel's count
// are not written).  The field is trilinear value noise on a lattice of
// spacing 3 (blobs: most warps mix cases), or with smooth=1 of spacing 32
// (long runs of empty and full voxels: remapping must not pay).
//
// The case table is built here, not copied: each face's crossings are
// joined into segments (a face with four keeps its inside corners apart),
// the segments close into loops and each loop is a triangle fan.  So
// neighbouring voxels agree on every shared face and the surface is closed.
// Corners: k = 0..7 at (x, y, z) = (0,0,0), (1,0,0), (1,1,0), (0,1,0), then
// the same at z = 1; edges 0-3 join corners k and k+1 (mod 4) at z = 0, 4-7
// the same at z = 1, 8-11 join k and k+4.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_MCUBES_H
#define SMC_BENCH_WORKLOADS_MCUBES_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::mcubes {

constexpr int kMaxTris = 5;
constexpr int kTriFloats = 9; // three vertices, x y z
constexpr int kSlotFloats = kMaxTris * kTriFloats;
constexpr float kIso = 0.5f;

// count[c]: triangles of case c; edges[c * 15 + 3 * t + v]: the cube edge
// of vertex v of its triangle t (-1 past the count).
struct CaseTable {
  std::vector<int32_t> count, edges;
};
const CaseTable &caseTable();

struct Problem {
  int32_t dx = 0, dy = 0, dz = 0;
  std::vector<float> field; // (dx+1)(dy+1)(dz+1), x fastest
  size_t voxels() const { return size_t(dx) * size_t(dy) * size_t(dz); }
};

Problem generate(const Params &params, uint64_t seed);
// Every voxel's case and triangle count.
void cpuClassify(const Problem &problem, std::vector<int32_t> &caseId,
                 std::vector<int32_t> &count);
// The triangles of the voxels `voxels` in double:
// tris[k * kSlotFloats + 9 * t + 3 * v + axis] for voxel voxels[k], 0 past
// its count.
void cpuTriangles(const Problem &problem, const std::vector<size_t> &voxels,
                  std::vector<double> &tris);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // mcubes.cu

} // namespace smc::workloads::mcubes

#endif // SMC_BENCH_WORKLOADS_MCUBES_H
