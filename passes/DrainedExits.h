//===- DrainedExits.h - Persistent workers for early exits before barriers ===//
//
// Rewrites the chunk body of a K__smc variant whose threads may end a chunk
// while other threads of the CTA still reach barriers (Legality's "drained
// exits"), so that persistent workers can run it: threads that have ended
// the chunk keep arriving at the barriers the others still reach, as the
// hardware counts an exited thread of the original as arrived.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_DRAINEDEXITS_H
#define SMC_PASSES_DRAINEDEXITS_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class BasicBlock;
class CallInst;
class Function;
class ReturnInst;
} // namespace llvm

namespace smc {

/// Makes every barrier of the chunk body of \p V a call of the funnel, the
/// function that holds the body's one barrier instruction, and holds the
/// threads that can reach no barrier any more there until every thread of
/// the CTA can: see DrainedExits.cpp.  \p Entry is the variant's entry
/// block (not part of the body, no terminator yet), \p Body the block it
/// will branch to, \p Barriers the body's __syncthreads()
/// calls (Legality's isDrainableBarrier: the only barriers the body
/// reaches), \p Returns its returns.  Afterwards the returns are still in
/// \p Returns, each in a block of its own.
void funnelBarriers(llvm::Function &V, llvm::BasicBlock &Entry,
                    llvm::BasicBlock &Body,
                    llvm::ArrayRef<llvm::CallInst *> Barriers,
                    llvm::ArrayRef<llvm::ReturnInst *> Returns);

} // namespace smc

#endif
