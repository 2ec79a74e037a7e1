//===- LocalityAnalysis.h - Which neighbouring CTAs share data --*- C++ -*-===//
//
// For a kernel (the locality passes ask for every kernel KernelSelection
// picks), which CTAs adjacent in the grid read the same global memory (the
// inter-CTA locality of "Locality-Aware CTA Clustering for Modern GPUs",
// ASPLOS 2017), found from how blockIdx flows into the addresses of the
// kernel's global-memory reads (ScalarEvolution).  The class goes into the
// kernel's info record (SmcLocality in abi.h) for a placement policy that
// puts CTAs sharing data on one SM.
//
// What is looked at: the kernel's reads of global memory (loads and memcpy
// sources through pointers that come from kernel parameters or __device__
// variables, directly or loaded from memory); not shared, local, constant or
// parameter memory, and not stores or atomics (they go through to L2, so
// placement gives them no reuse).  Dimensions looked at: those whose
// blockIdx some global address depends on, read or write (a blockIdx.y read
// only to branch leaves y out).
//
// Each read's address is split as base + offset; the offset, a
// ScalarEvolution expression with extensions and truncations to 32 bits or
// more looked through (index arithmetic is taken not to wrap), becomes a
// polynomial over blockIdx, threadIdx, blockDim, loop iterations and values
// the same for the whole grid (kernel arguments, gridDim, values loaded from
// one fixed address).  A min or max of one varying index and grid-uniform
// bounds (an image edge, min(i, n - 1)) is taken not to bind.  Then, for
// each dimension d:
//
//  - shared: a read whose address does not depend on blockIdx.d but varies
//    inside a CTA (with threadIdx or a loop: an array region, not a scalar)
//    reads the same data in all CTAs along d (a row of A in a matrix
//    multiply is shared along x), or two reads of one base array, in CTAs
//    adjacent along d, touch overlapping address ranges (a stencil's halo;
//    a loop over more than the CTA's step).  The overlap test delinearizes:
//    terms are grouped by their grid-uniform factors other than blockDim
//    (such as a row length), each group is taken as one dimension of the
//    array, larger than what lower dimensions add, and the ranges of the
//    group that holds blockIdx.d's stride are compared, with threadIdx.k in
//    [0, blockDim.k) and a loop's iteration in [0, its backedge-taken count]
//    (unbounded when that count is not a constant or a function of blockDim
//    alone);
//  - disjoint: every read's blockIdx.d stride is one array dimension and
//    the ranges of neighbours do not overlap;
//  - unknown: otherwise (an index not affine in blockIdx.d, a stride spread
//    over several array dimensions, an index that varies in a way the
//    polynomial does not model, a pointer chosen at run time).
//
// Comparisons with blockDim in them hold if they hold at every block shape
// of powers of two with at least a warp and at most 1024 threads, within the
// kernel's launch bounds, one thread along dimensions whose threadIdx and
// blockDim the kernel does not read, and blockDim within the static shared
// arrays that all threads index with threadIdx alone (a tile
// As[threadIdx.y][threadIdx.x]).  When the answer still depends on the
// block size, the threads of a CTA are taken to cover exactly one blockIdx
// step (the usual tiling: blockIdx.x * 16 + threadIdx.x, 16 threads in x).
//
// The kernel's class (SmcLocality):
//  - IRREGULAR  some read's address depends on data loaded from memory at an
//               address that varies (an index array, a pointer table): which
//               CTAs share depends on the data;
//  - X, Y, Z    the one dimension that is shared;
//  - TILE       two or three dimensions are shared (2-D tiles of CTAs);
//  - UNKNOWN    no dimension is shared and some read or dimension is
//               unknown;
//  - NONE       no dimension is shared and none is unknown: neighbours read
//               disjoint data (streaming), or the kernel reads no global
//               memory, or no address depends on blockIdx (every CTA reads
//               the same, so no neighbour is closer than another).
//
// The analysis looks at one kernel as it stands and changes nothing.  The
// passes that report the class (smc-locality, print<smc-locality>) give it
// kernels the optimizer has not simplified (-O0: locals in memory; calls of
// functions with a body) as a simplified copy (SimplifiedCopy.h).
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_LOCALITYANALYSIS_H
#define SMC_PASSES_LOCALITYANALYSIS_H

#include "PassMixins.h"
#include "smc/abi.h"

#include "llvm/IR/PassManager.h"
#include <string>

namespace smc {

/// What neighbours along one grid dimension have in common.
enum class DimSharing { Unused, Disjoint, Shared, Unknown };

/// One grid dimension of a kernel.
struct DimLocality {
  DimSharing Sharing = DimSharing::Unused;
  /// For Shared: which data and why ("A is the same for all CTAs along x at
  /// mm.cu:16"); for Unknown: what could not be analysed.
  std::string Why;
};

/// The CTA locality of one kernel.  Holds text only: the analysis may run on
/// a copy of the module that is gone when the result is used
/// (SimplifiedCopy.h).
struct KernelLocality {
  SmcLocality Class = SMC_LOCALITY_UNKNOWN;
  DimLocality Dims[3];
  /// For IRREGULAR, the read indexed by loaded data; for UNKNOWN without an
  /// unknown dimension, what could not be analysed.
  std::string Why;
  unsigned NumReads = 0; // global-memory reads looked at

  /// "tile (x: ...; y: ...)": the class and, per dimension, why.
  std::string describe() const;
};

/// The locality of one kernel, as it stands.
struct LocalityAnalysis : KeyedAnalysis<LocalityAnalysis, KernelLocality> {
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// print<smc-locality>: one line per selected kernel, with what
/// smc-locality records (kernels the optimizer has not simplified analysed
/// on a simplified copy).
struct LocalityPrinterPass : RequiredPass<LocalityPrinterPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace smc

#endif
