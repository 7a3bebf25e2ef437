//===- PromotedFunction.cpp - The function with its locals in SSA form ----===//
//
// Part of wrapidiom. See PromotedFunction.h.
//
//===----------------------------------------------------------------------===//
#include "PromotedFunction.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace wrapidiom {

namespace {

/// SROA, keeping the CFG: every local, scalar or aggregate, whose address
/// does not escape becomes SSA values, field by field (`r.end = s;
/// r.flags = 1; if (r.end < r.start)` reads `s` back). Its own analysis
/// manager, so the answer is the same for F and for an optnone clone.
bool promote(Function &F) {
  FunctionAnalysisManager FAM;
  FAM.registerPass([] { return DominatorTreeAnalysis(); });
  FAM.registerPass([] { return AssumptionAnalysis(); });
  FAM.registerPass([] { return TargetIRAnalysis(); }); // the assumptions'
  FAM.registerPass([] { return PassInstrumentationAnalysis(); });
  PreservedAnalyses PA = SROAPass(SROAOptions::PreserveCFG).run(F, FAM);
  FAM.clear();
  return !PA.areAllPreserved();
}

} // namespace

PromotedFunction::PromotedFunction(Function &F) : F(F) {
  if (!F.hasOptNone()) {
    InPlaceChanged = promote(F);
    return;
  }
  Clone = CloneFunction(&F, VMap);
  // Never visible outside this pass run: nothing may bind to it.
  Clone->setLinkage(GlobalValue::PrivateLinkage);
  Clone->setName("");
  // Debug info is irrelevant to the analysis; dropping it makes promotion
  // cheaper and keeps the clone from sharing F's DISubprogram.
  stripDebugInfo(*Clone);
  promote(*Clone);
}

PromotedFunction::~PromotedFunction() {
  if (!Clone)
    return;
  VMap.clear();
  Clone->dropAllReferences();
  Clone->eraseFromParent();
}

} // namespace wrapidiom
