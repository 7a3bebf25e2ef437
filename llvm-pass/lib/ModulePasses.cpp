//===- ModulePasses.cpp - wrap-idiom's checks on the whole module ---------===//
//
// Part of wrapidiom. See WrapIdiom.h.
//
//===----------------------------------------------------------------------===//
#include "Ignorelist.h"
#include "WrapIdiom.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace wrapidiom {

PreservedAnalyses WrapIdiomModulePass::run(Module &M, ModuleAnalysisManager &) {
  // Diagnosed if it fails; the compilation fails then.
  (void)ignorelist(M.getContext());
  return PreservedAnalyses::all();
}

} // namespace wrapidiom
