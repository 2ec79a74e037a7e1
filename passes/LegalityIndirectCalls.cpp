//===- LegalityIndirectCalls.cpp - Where an indirect call may go ----------===//
//
// Part of LegalityAnalysis (LegalityChecks.h): an indirect call is harmless
// when every function it may call is known here and none reads the grid
// registers (their reads could not be inlined into a variant); the targets
// are then checked like direct callees.  Known are: a function of this
// module, a select or phi of known ones, an entry of a constant dispatch
// table (a constant global whose initializer holds only functions of this
// module and nulls), or a parameter of a function that is only called
// directly in this module with known ones (libcu++ passes its operators
// down that way at -O0; a kernel's own parameters come from the host and
// are never known), also through -O0 spill slots.  A pointer from anywhere
// else may point into another translation unit (-fgpu-rdc leaves no trace
// in the device module).
//===----------------------------------------------------------------------===//
#include "LegalityChecks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace smc::legality {

const Value *pointerBase(const Value *Ptr) {
  const Value *Obj = getUnderlyingObject(Ptr);
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    auto *Reload = dyn_cast<LoadInst>(Obj);
    if (!Reload || Reload->isVolatile())
      break;
    auto *Slot =
        dyn_cast<AllocaInst>(getUnderlyingObject(Reload->getPointerOperand()));
    if (!Slot)
      break;
    const Value *Stored = nullptr;
    for (const User *U : Slot->users())
      if (auto *SI = dyn_cast<StoreInst>(U);
          SI && SI->getPointerOperand() == Slot) {
        if (Stored && Stored != SI->getValueOperand())
          return Obj;
        Stored = SI->getValueOperand();
      }
    if (!Stored)
      break;
    Obj = getUnderlyingObject(Stored);
  }
  return Obj;
}

// The functions in the initializer of a constant dispatch table: true if
// it holds only functions with a body here and nulls.
static bool tableTargets(const Constant *C, SmallPtrSetImpl<Function *> &Out) {
  if (C->isNullValue())
    return true;
  if (auto *F = dyn_cast<Function>(C->stripPointerCasts())) {
    if (F->isDeclaration())
      return false;
    Out.insert(const_cast<Function *>(F));
    return true;
  }
  if (isa<ConstantAggregate>(C))
    return all_of(C->operands(), [&](const Use &Op) {
      return tableTargets(cast<Constant>(Op), Out);
    });
  return false;
}

// knownTargets, looking at most 8 values deep.
static bool targetsOf(const Value *V, SmallPtrSetImpl<Function *> &Out,
                      unsigned Depth) {
  if (Depth > 8)
    return false;
  V = V->stripPointerCasts();
  if (auto *Reload = dyn_cast<LoadInst>(V))
    if (isa<AllocaInst>(getUnderlyingObject(Reload->getPointerOperand())))
      V = pointerBase(Reload);
  if (auto *Param = dyn_cast<Argument>(V)) {
    const Function *Owner = Param->getParent();
    if (Owner->hasAddressTaken() ||
        Owner->getCallingConv() == CallingConv::PTX_Kernel)
      return false;
    bool Called = false;
    for (const User *U : Owner->users()) {
      auto *Site = dyn_cast<CallBase>(U);
      if (!Site || Site->getCalledOperand() != Owner ||
          !targetsOf(Site->getArgOperand(Param->getArgNo()), Out, Depth + 1))
        return false;
      Called = true;
    }
    return Called;
  }
  if (auto *F = dyn_cast<Function>(V)) {
    if (F->isDeclaration())
      return false;
    Out.insert(const_cast<Function *>(F));
    return true;
  }
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return targetsOf(Sel->getTrueValue(), Out, Depth + 1) &&
           targetsOf(Sel->getFalseValue(), Out, Depth + 1);
  if (auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(),
                  [&](const Use &In) { return targetsOf(In, Out, Depth + 1); });
  if (auto *Load = dyn_cast<LoadInst>(V)) {
    auto *Table = dyn_cast<GlobalVariable>(
        getUnderlyingObject(Load->getPointerOperand()));
    if (!Table || !Table->isConstant() || !Table->hasDefinitiveInitializer())
      return false;
    return tableTargets(Table->getInitializer(), Out);
  }
  return false;
}

bool knownTargets(const Value *Callee, SmallPtrSetImpl<Function *> &Out) {
  return targetsOf(Callee, Out, 0);
}

} // namespace smc::legality
