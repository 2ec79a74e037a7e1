//===- PassMixins.h - What every SMC pass and analysis is -------*- C++ -*-===//
//
// The bases the plugin's passes and analyses derive from, in place of
// llvm::PassInfoMixin and llvm::AnalysisInfoMixin:
//  - RequiredPass: clang runs the plugin at every -O level, and at -O0 the
//    pass manager skips passes that are not required on functions marked
//    optnone.  Every SMC pass (the pipeline, the variant builders, the
//    launch rewrite, the printers) is required, so that what it builds,
//    records and reports does not depend on the -O level.
//  - KeyedAnalysis: an analysis' result type and its AnalysisKey, the
//    address by which the analysis managers know it (one per analysis).
//===----------------------------------------------------------------------===//
#ifndef SMC_PASSES_PASSMIXINS_H
#define SMC_PASSES_PASSMIXINS_H

#include "llvm/IR/PassManager.h"

namespace smc {

/// The base of every SMC pass: never skipped.
template <typename DerivedT>
struct RequiredPass : llvm::PassInfoMixin<DerivedT> {
  static bool isRequired() { return true; }
};

/// The base of every SMC analysis, whose run() returns a \p ResultT.
template <typename DerivedT, typename ResultT>
class KeyedAnalysis : public llvm::AnalysisInfoMixin<DerivedT> {
public:
  using Result = ResultT;

private:
  friend llvm::AnalysisInfoMixin<DerivedT>;
  static inline llvm::AnalysisKey Key;
};

} // namespace smc

#endif
