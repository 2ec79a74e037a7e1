//===- LegalityChecks.h - The hazard families Legality checks ---*- C++ -*-===//
//
// Internal to the Legality*.cpp files.  LegalityAnalysis (Legality.cpp)
// walks a kernel and everything it calls, applies the call-graph rules
// itself (callees without a body, recursion, indirect calls) and hands each
// hazard family to the file that knows it:
//  - LegalityIntrinsics.cpp: intrinsics, inline assembly and CUDA runtime
//    calls no variant can keep (grid-wide sync, dynamic parallelism,
//    clusters, %envreg, %ctaid/%smid in assembly), PTX exit, barriers;
//  - LegalityIndirectCalls.cpp: which functions an indirect call may reach;
//  - LegalityWaits.cpp: loops that wait for another CTA (ordered mode) and
//    grid-wide barriers built by hand (refused);
//  - LegalityExits.cpp: threads that leave before a barrier others still
//    reach (one-chunk mode, or drained exits);
//  - LegalityLimits.cpp: the hardware limits a variant must stay within.
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_LEGALITYCHECKS_H
#define SMC_PASSES_LEGALITYCHECKS_H

#include "Legality.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>

namespace llvm {
class CallBase;
class Function;
class Instruction;
class Loop;
class LoopInfo;
class Value;
} // namespace llvm

namespace smc::legality {

/// Records in \p R that its kernel may have no variant, and why, unless a
/// reason is recorded already: the first reason found is the one reported.
void refuse(KernelLegality &R, SmcRefusal Why, std::string Detail,
            const llvm::Instruction *Where);

//===----------------------------------------------------------------------===//
// Intrinsics, inline assembly, runtime calls (LegalityIntrinsics.cpp)
//===----------------------------------------------------------------------===//

/// Is \p Call a CTA barrier: a barrier intrinsic (what __syncthreads() and
/// its variants become) or inline assembly that executes one?
bool isBarrierCall(const llvm::CallBase &Call);

/// Device functions that may be declared without a body and read no grid
/// register: libdevice, printf, malloc, assert.
bool isKnownExternal(llvm::StringRef Name);

/// The kernel attributes of thread block clusters.
void checkKernelAttributes(const llvm::Function &K, KernelLegality &R);

/// A call of an NVVM intrinsic: %envreg reads and cluster intrinsics are
/// refused; PTX exit needs one-chunk mode.
void checkIntrinsicCall(const llvm::CallBase &Call, KernelLegality &R);

/// A call of inline assembly: reads of %ctaid, %nctaid, %smid, %nsmid,
/// cluster registers and %envreg are refused; PTX exit needs one-chunk mode.
void checkInlineAsm(const llvm::CallBase &Call, KernelLegality &R);

/// A call of \p Name that no variant can make (grid-wide synchronization,
/// dynamic parallelism): records the refusal and returns true.
bool checkRuntimeCall(const llvm::CallBase &Call, llvm::StringRef Name,
                      KernelLegality &R);

//===----------------------------------------------------------------------===//
// Indirect calls (LegalityIndirectCalls.cpp)
//===----------------------------------------------------------------------===//

/// Adds to \p Out the functions the called pointer \p Callee may be, and
/// returns true, when all of them are known and have a body here.
bool knownTargets(const llvm::Value *Callee,
                  llvm::SmallPtrSetImpl<llvm::Function *> &Out);

/// The object a pointer points into, looking through -O0 spill slots: a
/// pointer reloaded from a local variable that is stored once stands for
/// the stored pointer (an argument, another local).
const llvm::Value *pointerBase(const llvm::Value *Ptr);

//===----------------------------------------------------------------------===//
// Waits for other CTAs (LegalityWaits.cpp)
//===----------------------------------------------------------------------===//

/// What an instruction or call does to memory that other CTAs see: reads
/// it in a way another CTA's write can change under a loop (a volatile or
/// atomic load, an atomic, a strong load in inline assembly), or writes it.
struct CrossCTAEffect {
  bool Reads = false;  // its result can change with other CTAs' writes
  bool Writes = false; // writes memory other CTAs see
  bool Atomic = false; // an atomic read-modify-write (reads and writes)
  // Functions: bit i set if it writes through its i-th pointer argument
  // (at -O0 results come back through pointers to the caller's locals);
  // the call site decides whether that memory is local.
  uint64_t WritesArgs = 0;
};

/// Finds the loops of the functions of one kernel that wait on memory
/// another CTA writes: ordered mode, or a refusal for a grid-wide barrier
/// built by hand.  Remembers what the functions it has seen do to memory.
class InterCTAWaits {
public:
  /// Checks the loops of \p F (\p LI its loops) for waits.
  void check(llvm::Function &F, llvm::LoopInfo &LI, KernelLegality &R);

private:
  llvm::DenseMap<const llvm::Function *, CrossCTAEffect> Effects;

  CrossCTAEffect callEffect(const llvm::CallBase &Call);
  CrossCTAEffect functionEffect(const llvm::Function &F);
  bool loopWrites(const llvm::Loop &L);
  const llvm::Instruction *findSharedRead(llvm::Value *Cond,
                                          const llvm::Loop &L);
  std::string gridBarrierShape(llvm::Function &F, const llvm::Loop &L,
                               llvm::Value *Cond,
                               const llvm::Instruction &Read);
};

//===----------------------------------------------------------------------===//
// Exits before barriers (LegalityExits.cpp)
//===----------------------------------------------------------------------===//

/// Decides whether threads of \p Kernel may leave while others of the CTA
/// still reach a barrier, and so whether its __smc variant must run one
/// chunk per worker or drain such threads.  \p HasBarrier: whether a
/// function the kernel calls contains a barrier.
void checkEarlyExit(
    llvm::Function &Kernel,
    const llvm::DenseMap<const llvm::Function *, bool> &HasBarrier,
    llvm::FunctionAnalysisManager &FAM, KernelLegality &Result);

//===----------------------------------------------------------------------===//
// Hardware limits (LegalityLimits.cpp)
//===----------------------------------------------------------------------===//

/// The hardware limit the variant of kind \p Kind of kernel \p K would
/// exceed, or "".
std::string hardwareLimit(const llvm::Function &K, VariantKind Kind);

} // namespace smc::legality

#endif
