//===- LocalityAnalysis.cpp - Which neighbouring CTAs share data ----------===//
//
// For one kernel, as it stands: collect its global-memory reads; split each
// address into a base (a kernel parameter, a __device__ variable, a pointer
// loaded from the parameter space) and a byte offset; turn the offset's SCEV
// into a polynomial whose atoms are blockIdx.d, threadIdx.d, blockDim.d, the
// iteration of a loop, and values the same for the whole grid
// (LocalityPolynomial.cpp); then decide, per dimension, shared / disjoint /
// unknown (LocalitySharing.cpp), and from that the kernel's class (the rules
// are in LocalityAnalysis.h).  The analysis changes nothing; kernels the
// optimizer has not simplified are given to it as a simplified copy by the
// passes that report it (SimplifiedCopy.h), as is print<smc-locality>.
//
// USAGE: opt -load-pass-plugin=SMCPasses.so -passes='print<smc-locality>' \
//            -disable-output in.ll
//===----------------------------------------------------------------------===//
#include "LocalityAnalysis.h"
#include "CTAUniformity.h"
#include "Legality.h"
#include "LocalityChecker.h"
#include "SimplifiedCopy.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace smc {

namespace locality {

const char *const DimNames[3] = {"x", "y", "z"};

std::string at(const std::string &What, const std::string &Where) {
  return Where.empty() ? What : What + " at " + Where;
}

std::string where(const Instruction *I) {
  const DILocation *L = outermostLocation(I);
  return L && L->getLine() ? sourceLocation(I) : "";
}

KernelChecker::KernelChecker(Function &F, ScalarEvolution &SE, LoopInfo &LI,
                             const CTAUniformity &Uniformity)
    : F(F), SE(SE), LI(LI), Uniformity(Uniformity), DL(F.getDataLayout()) {}

std::string KernelChecker::baseName(const Value *Base) {
  if (const auto *A = dyn_cast<Argument>(Base)) {
    if (A->hasName())
      return A->getName().str();
    SmallVector<DbgVariableRecord *, 2> Records;
    findDbgValues(const_cast<Argument *>(A), Records);
    for (DbgVariableRecord *R : Records)
      if (DILocalVariable *Var = R->getVariable(); Var && Var->getArg())
        return Var->getName().str();
    return "parameter " + std::to_string(A->getArgNo() + 1);
  }
  if (const auto *G = dyn_cast<GlobalVariable>(Base))
    return demangle(G->getName());
  if (const auto *Load = dyn_cast<LoadInst>(Base)) {
    const Value *From = getUnderlyingObject(Load->getPointerOperand());
    return "a pointer in " + baseName(From);
  }
  if (Base->hasName())
    return Base->getName().str();
  return "a pointer";
}

Read KernelChecker::analyseRead(const Instruction &I, const Value *Ptr,
                                int64_t Size) {
  Read R;
  R.I = &I;
  R.Where = where(&I);
  R.Size = Size;
  auto Fail = [&](Read::StateType State, std::string Why) {
    R.State = State;
    R.Problem = std::move(Why);
    return R;
  };
  const Value *Base = nullptr;
  std::optional<Poly> Offset = offsetFrom(Ptr, Base);
  if (Base) {
    R.Base = Base;
    R.BaseName = baseName(Base);
  }
  if (const auto *Load = dyn_cast_or_null<LoadInst>(Base)) {
    // A pointer read from memory: from the parameter space, or from one
    // fixed address, it is the same for the whole grid; else it is data.
    if (origin(Load) & Varies)
      return Fail(Read::Irregular, "its pointer is loaded from memory");
  } else if (Base && !isa<Argument>(Base) && !isa<GlobalVariable>(Base)) {
    if (origin(Base) & FromLoadedData)
      return Fail(Read::Irregular, "its pointer is computed from loaded data");
    return Fail(Read::Unknown, "pointer chosen at run time");
  }
  if (!Offset)
    return Fail(Read::Unknown, "address not analysable");
  R.Offset = std::move(*Offset);
  for (const auto &[M, C] : R.Offset)
    for (unsigned Id : M)
      if (Atoms[Id].Kind == AtomKind::Loaded)
        return Fail(Read::Irregular, at("its index is loaded from memory",
                                        where(Atoms[Id].Source)));
  return R;
}

KernelLocality KernelChecker::check() {
  KernelLocality Result;
  bool UsesDim[3] = {false, false, false};
  SmallVector<Read, 16> Reads;
  for (Instruction &I : instructions(F)) {
    // The dimensions whose blockIdx some global access's address depends
    // on, read or write.
    for (const Value *Address : accessedPointers(I))
      if (mayBeGlobal(Address))
        for (unsigned D = 0; D < 3; ++D)
          UsesDim[D] |= (origin(Address) & (FromCta << D)) != 0;
    const Value *Ptr = nullptr;
    int64_t Size = 1;
    if (const auto *Load = dyn_cast<LoadInst>(&I)) {
      Ptr = Load->getPointerOperand();
      Size = DL.getTypeStoreSize(Load->getType()).getKnownMinValue();
    } else if (const auto *Copy = dyn_cast<MemTransferInst>(&I)) {
      Ptr = Copy->getRawSource();
      if (const auto *Length = dyn_cast<ConstantInt>(Copy->getLength()))
        Size = std::max<int64_t>(1, Length->getSExtValue());
    }
    if (!Ptr || !mayBeGlobal(Ptr))
      continue;
    Reads.push_back(analyseRead(I, Ptr, Size));
  }
  Result.NumReads = Reads.size();
  blockShapes();
  for (unsigned D = 0; D < 3; ++D)
    if (UsesDim[D])
      checkDim(D, Reads, Result.Dims[D]);

  auto Irregular =
      find_if(Reads, [](const Read &R) { return R.State == Read::Irregular; });
  if (Irregular != Reads.end()) {
    Result.Class = SMC_LOCALITY_IRREGULAR;
    Result.Why = at("read of " + Irregular->BaseName, Irregular->Where) + ": " +
                 Irregular->Problem;
    return Result;
  }
  unsigned Shared = 0, Unknown = 0, Last = 0;
  for (unsigned D = 0; D < 3; ++D) {
    if (Result.Dims[D].Sharing == DimSharing::Shared) {
      ++Shared;
      Last = D;
    }
    Unknown += Result.Dims[D].Sharing == DimSharing::Unknown;
  }
  if (Shared > 1)
    Result.Class = SMC_LOCALITY_TILE;
  else if (Shared == 1)
    Result.Class = Last == 0   ? SMC_LOCALITY_X
                   : Last == 1 ? SMC_LOCALITY_Y
                               : SMC_LOCALITY_Z;
  else if (Unknown)
    Result.Class = SMC_LOCALITY_UNKNOWN;
  else
    Result.Class = SMC_LOCALITY_NONE;
  if (Reads.empty())
    Result.Why = "no global-memory reads";
  else if (!UsesDim[0] && !UsesDim[1] && !UsesDim[2])
    Result.Why = "no address depends on blockIdx";
  return Result;
}

} // namespace locality

using namespace locality;

std::string KernelLocality::describe() const {
  std::string S = smcLocalityText(Class);
  std::string Parts;
  auto Part = [&](const std::string &P) {
    Parts += (Parts.empty() ? "" : "; ") + P;
  };
  if (!Why.empty())
    Part(Why);
  if (Class != SMC_LOCALITY_IRREGULAR)
    for (unsigned D = 0; D < 3; ++D) {
      const DimLocality &Dim = Dims[D];
      std::string Name = std::string(DimNames[D]) + ": ";
      switch (Dim.Sharing) {
      case DimSharing::Unused:
        break;
      case DimSharing::Disjoint:
        Part(Name + "disjoint");
        break;
      case DimSharing::Shared:
        Part(Name + Dim.Why);
        break;
      case DimSharing::Unknown:
        Part(Name + "unknown, " + Dim.Why);
        break;
      }
    }
  return Parts.empty() ? S : S + " (" + Parts + ")";
}

LocalityAnalysis::Result LocalityAnalysis::run(Function &F,
                                               FunctionAnalysisManager &FAM) {
  return KernelChecker(F, FAM.getResult<ScalarEvolutionAnalysis>(F),
                       FAM.getResult<LoopAnalysis>(F),
                       FAM.getResult<CTAUniformityAnalysis>(F))
      .check();
}

PreservedAnalyses LocalityPrinterPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  for (auto &[K, L] : localityOfSelectedKernels(M, MAM))
    outs() << "kernel " << K->getName() << ": " << L.describe() << "\n";
  return PreservedAnalyses::all();
}

} // namespace smc
