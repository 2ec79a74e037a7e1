//===- LegalityIntrinsics.cpp - Intrinsics, assembly and runtime calls ----===//
//
// Part of LegalityAnalysis (LegalityChecks.h): the calls a variant cannot
// keep, by what they call.  Refused: grid-wide synchronization
// (cooperative groups' grid sync, %envreg reads of the grid workspace),
// dynamic parallelism, thread block clusters (kernel attributes, the NVVM
// cluster intrinsics, cluster registers in assembly), and inline assembly
// that reads %ctaid, %nctaid, %smid or %nsmid (the variant could not
// replace it).  PTX exit, as an intrinsic or in assembly, ends the thread
// rather than the chunk: one-chunk mode.  Also which calls are barriers.
//===----------------------------------------------------------------------===//
#include "LegalityChecks.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace smc {
namespace legality {
namespace {

// An intrinsic family whose IDs are consecutive (IDs are sorted by name).
struct IntrinsicRange {
  Intrinsic::ID First, Last;
  bool contains(Intrinsic::ID ID) const { return ID >= First && ID <= Last; }
};

// CTA barriers: llvm.nvvm.barrier.cta.{sync,arrive,red}.* (what
// __syncthreads() and its variants become; IR with the older
// llvm.nvvm.barrier0 names is upgraded to these when it is read).
constexpr IntrinsicRange CtaBarriers{
    Intrinsic::nvvm_barrier_cta_arrive_aligned_count,
    Intrinsic::nvvm_barrier_cta_sync_count};
// Reads of %envreg0..31 (envreg0, envreg1, envreg10, ... envreg9 by name).
constexpr IntrinsicRange EnvRegReads{Intrinsic::nvvm_read_ptx_sreg_envreg0,
                                     Intrinsic::nvvm_read_ptx_sreg_envreg9};
static_assert(CtaBarriers.Last - CtaBarriers.First == 17 &&
                  EnvRegReads.Last - EnvRegReads.First == 31,
              "an NVVM intrinsic family Legality matches by ID range changed");

bool isBarrier(Intrinsic::ID ID) { return CtaBarriers.contains(ID); }

bool isEnvRegRead(Intrinsic::ID ID) { return EnvRegReads.contains(ID); }

// Cluster use: the NVVM intrinsics named for clusters (special registers,
// cluster barriers, distributed shared memory, cluster-scope memory
// operations, cluster launch control; some 90 of them) and mapa.  Not
// isspacep.shared.cluster: an address-space test that CUDA's headers
// (memcpy_async at -O0) make on any pointer.  The family is classified once
// from the intrinsic table; calls are then matched by ID.
bool isClusterIntrinsic(Intrinsic::ID ID) {
  static const DenseSet<unsigned> Cluster = [] {
    DenseSet<unsigned> IDs;
    for (unsigned I = Intrinsic::not_intrinsic + 1;
         I < Intrinsic::num_intrinsics; ++I) {
      StringRef Name = Intrinsic::getBaseName(I);
      if (Name.starts_with("llvm.nvvm.") &&
          !Name.starts_with("llvm.nvvm.isspacep.") &&
          (Name.contains("cluster") || Name.starts_with("llvm.nvvm.mapa")))
        IDs.insert(I);
    }
    return IDs;
  }();
  return Cluster.contains(ID);
}

bool isDeviceLaunch(StringRef Name) {
  return Name.starts_with("cudaLaunchDevice") ||
         Name.starts_with("cudaGetParameterBuffer") ||
         Name.starts_with("cudaDeviceSynchronize");
}

bool isGridSync(StringRef Name) {
  return Name.contains("sync_grids") || Name.contains("grid_sync") ||
         Name.starts_with("cudaCGSynchronizeGrid") ||
         Name.starts_with("cudaCGGetIntrinsicHandle");
}

// A CTA barrier written in inline assembly (bar.sync, barrier.sync, ...).
bool isAsmBarrier(const CallBase &Call) {
  auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
  if (!Asm)
    return false;
  StringRef Text = Asm->getAsmString();
  return Text.contains("bar.sync") || Text.contains("bar.red") ||
         Text.contains("bar.arrive") || Text.contains("barrier.sync") ||
         Text.contains("barrier.red") || Text.contains("barrier.arrive") ||
         Text.contains("barrier.cta");
}

bool isAsmExit(const InlineAsm &Asm) {
  for (StringRef Line : split(Asm.getAsmString(), ';'))
    if (Line.trim() == "exit")
      return true;
  return false;
}

} // namespace

bool isBarrierCall(const CallBase &Call) {
  return isBarrier(Call.getIntrinsicID()) || isAsmBarrier(Call);
}

// Device functions that may be declared without a body and read no grid
// register: libdevice, printf, malloc, assert.
bool isKnownExternal(StringRef Name) {
  return Name.starts_with("__nv_") || Name == "vprintf" || Name == "malloc" ||
         Name == "free" || Name == "__assertfail" || Name == "__nvvm_reflect";
}

void checkKernelAttributes(const Function &K, KernelLegality &R) {
  for (StringRef Attr :
       {"nvvm.cluster_dim", "nvvm.maxclusterrank", "nvvm.blocksareclusters"})
    if (K.hasFnAttribute(Attr))
      refuse(R, SMC_REFUSAL_CLUSTER, ("kernel attribute " + Attr).str(),
             nullptr);
}

void checkIntrinsicCall(const CallBase &Call, KernelLegality &R) {
  Intrinsic::ID ID = Call.getIntrinsicID();
  if (isEnvRegRead(ID))
    refuse(R, SMC_REFUSAL_GRID_SYNC, "read of %envreg (grid workspace)", &Call);
  else if (isClusterIntrinsic(ID))
    refuse(R, SMC_REFUSAL_CLUSTER,
           ("call of " + Call.getCalledFunction()->getName()).str(), &Call);
  else if (ID == Intrinsic::nvvm_exit)
    R.OneChunk.need("executes PTX exit", &Call);
}

void checkInlineAsm(const CallBase &Call, KernelLegality &R) {
  const auto &Asm = *cast<InlineAsm>(Call.getCalledOperand());
  if (isAsmExit(Asm))
    R.OneChunk.need("executes PTX exit", &Call);
  StringRef Text = Asm.getAsmString();
  if (Text.contains("%cluster") || Text.contains("%nclusterid") ||
      Text.contains("%is_explicit_cluster"))
    refuse(R, SMC_REFUSAL_CLUSTER, "inline assembly reads a cluster register",
           &Call);
  else if (Text.contains("%ctaid") || Text.contains("%nctaid") ||
           Text.contains("%smid") || Text.contains("%nsmid"))
    refuse(R, SMC_REFUSAL_INLINE_ASM, ("inline assembly '" + Text + "'").str(),
           &Call);
  else if (Text.contains("%envreg"))
    refuse(R, SMC_REFUSAL_GRID_SYNC, "inline assembly reads %envreg", &Call);
}

bool checkRuntimeCall(const CallBase &Call, StringRef Name, KernelLegality &R) {
  if (isGridSync(Name))
    refuse(R, SMC_REFUSAL_GRID_SYNC, ("call of " + Name).str(), &Call);
  else if (isDeviceLaunch(Name))
    refuse(R, SMC_REFUSAL_DYNAMIC_PARALLELISM, ("call of " + Name).str(),
           &Call);
  else
    return false;
  return true;
}

} // namespace legality

bool isDrainableBarrier(const CallBase &Call) {
  Intrinsic::ID ID = Call.getIntrinsicID();
  if (ID != Intrinsic::nvvm_barrier_cta_sync_aligned_all &&
      ID != Intrinsic::nvvm_barrier_cta_sync_all)
    return false;
  auto *Id = dyn_cast<ConstantInt>(Call.getArgOperand(0));
  return Id && Id->isZero();
}

} // namespace smc
