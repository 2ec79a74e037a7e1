//===- LegalityLimits.cpp - Hardware limits a variant must stay within ----===//
//
// Part of LegalityAnalysis (LegalityChecks.h).  The PTX ISA (sm_70 and
// later) allows 32764 bytes of kernel parameters and 48 KiB of static
// shared memory.  The descriptor adds to the first, for every variant;
// __smc's worker state (SMC_DEVICE_SHARED) adds to the second.  A legal
// kernel whose variant would exceed a limit does not get that variant
// (SMC_REFUSAL_RESOURCES), and the remark says which limit.
//===----------------------------------------------------------------------===//
#include "LegalityChecks.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/NVPTXAddrSpace.h"

using namespace llvm;

namespace smc::legality {

std::string hardwareLimit(const Function &K, VariantKind Kind) {
  const DataLayout &DL = K.getParent()->getDataLayout();
  uint64_t Params = DL.getTypeAllocSize(descriptorType(K.getContext()));
  for (const Argument &A : K.args())
    Params += DL.getTypeAllocSize(A.hasByValAttr() ? A.getParamByValType()
                                                   : A.getType());
  if (Params > 32764)
    return std::to_string(Params) +
           " bytes of parameters with the descriptor, over the 32764 allowed";
  if (Kind != VariantKind::SMCentric)
    return "";
  // Static shared memory the kernel and its callees use.
  uint64_t Shared = SMC_DEVICE_SHARED_BYTES; // the worker's own
  SmallPtrSet<const GlobalVariable *, 8> Seen;
  SmallVector<const Function *, 8> Work{&K};
  SmallPtrSet<const Function *, 8> Visited{&K};
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(*F))
      for (const Value *Op : I.operands()) {
        const Value *Base = Op->stripPointerCasts();
        if (auto *CE = dyn_cast<ConstantExpr>(Op))
          Base = CE->getOperand(0)->stripPointerCasts();
        if (auto *GV = dyn_cast<GlobalVariable>(Base)) {
          if (GV->getAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED &&
              Seen.insert(GV).second)
            Shared += DL.getTypeAllocSize(GV->getValueType());
        } else if (auto *Callee = dyn_cast<Function>(Base)) {
          if (!Callee->isDeclaration() && Visited.insert(Callee).second)
            Work.push_back(Callee);
        }
      }
  }
  if (Shared > 48 * 1024)
    return std::to_string(Shared) + " bytes of static shared memory with the "
                                    "worker's own, over the 49152 allowed";
  return "";
}

} // namespace smc::legality
