//===- RemapAnalysis.h - Can a kernel's jobs be remapped, and by what key -===//
//
// Thread-data remapping (G-Streamline, from "Locality Enhancement and
// Dynamic Optimizations on Multi-Core and GPU") gives thread t the job
// R[t]: a warp then runs jobs that branch alike or read neighbouring data.
// This analysis decides, for one kernel with its calls inlined, whether any
// permutation of its jobs is legal, and which loaded value the runtime
// should sort jobs by:
//
//  - legal: the threads never work together - no shared memory, no barrier,
//    no warp intrinsic (shuffle, vote, match, reduce, lane masks), no inline
//    assembly that mentions these or the thread-position registers (plain
//    arithmetic assembly, as in libdevice, is fine), no indirect call, and
//    no call left after inlining that reads threadIdx, blockIdx or blockDim
//    (the variant rewrites only the kernel's own reads).  A thread's result
//    then depends only on its blockIdx.x and threadIdx.x (which the variant
//    rewrites), the grid, the block and global memory, so any hardware
//    thread may run any job;
//  - candidates: loads at an address derived from threadIdx.x/blockIdx.x
//    (thread-indexed; not through another load) whose value decides a loop's
//    trip count (the loop's exit branch), a branch, or the address of
//    another load (a gather), for example `n = count[i]; for (k < n)`,
//    `if (x[i] > t)`, `y = v[idx[i]]`;
//  - a candidate can be the key only if no write can come before it on any
//    path from the entry: the inspector (K__remap_keys) runs the kernel up
//    to the load and writes its value, and must change nothing.
// The key is the first candidate of the best kind: loop trip count, then
// branch, then gather index.  Text only for the instructions is kept in the
// descriptions, so that remarks can name file:line.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_REMAPANALYSIS_H
#define SMC_PASSES_REMAPANALYSIS_H

#include "PassMixins.h"
#include "smc/abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"
#include <string>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class LoadInst;
} // namespace llvm

namespace smc {

/// A thread-indexed load whose value decides a branch or an address.
struct RemapCandidate {
  SmcRemapKey Kind = SMC_REMAP_KEY_NONE;
  llvm::LoadInst *Key = nullptr;    // the load: its value is the job's key
  llvm::Instruction *Use = nullptr; // the branch or load it decides
  // Why it cannot be the key ("" if it can): the write that comes first.
  std::string Refused;
  /// "loop trip count: load at a.cu:12 decides the branch at a.cu:13".
  std::string describe() const;
};

/// The remap analysis of one function (a kernel, or a clone of one).
struct KernelRemap {
  SmcRefusal Refusal = SMC_REFUSAL_NONE; // THREADS_COUPLED, NO_REMAP_KEY
  std::string Detail;                    // what exactly, with file:line
  llvm::SmallVector<RemapCandidate, 4> Candidates;
  int Chosen = -1; // index of the key in Candidates

  bool remappable() const { return Refusal == SMC_REFUSAL_NONE; }
  const RemapCandidate &key() const { return Candidates[Chosen]; }
  /// One line: the key, or the refusal, then the other candidates.
  std::string describe() const;
};

/// The blocks on a path from the entry to \p KeyBlock that does not pass
/// \p KeyBlock first, and \p KeyBlock: what runs before a key load there
/// (no write may), and what the inspector keeps of the kernel.
llvm::SmallPtrSet<llvm::BasicBlock *, 32>
blocksBefore(llvm::BasicBlock &KeyBlock);

/// Analyses \p F as it stands (calls are taken as they are: a call that may
/// write is a write, one into a function that touches shared memory or
/// barriers is not seen; the variant builder inlines first).
KernelRemap analyseRemap(llvm::Function &F);

/// A copy of kernel \p K, named \p Name, with one extra trailing parameter
/// (the descriptor), its calls inlined and simplified (SROA, EarlyCSE,
/// InstCombine, SimplifyCFG through \p FAM, also for an unoptimized
/// kernel): what the remap variant and its inspector are built from.
llvm::Function *simplifiedRemapClone(llvm::Function &K, llvm::StringRef Suffix,
                                     llvm::FunctionAnalysisManager &FAM);

/// print<smc-remap>: one line per selected kernel, from the analysis of a
/// simplified clone (dropped afterwards).
struct RemapPrinterPass : RequiredPass<RemapPrinterPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace smc

#endif
