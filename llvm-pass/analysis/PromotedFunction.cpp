//===- PromotedFunction.cpp - The function with its locals in SSA form ----===//
//
// Part of wrapidiom. See PromotedFunction.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/PromotedFunction.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace wrapidiom {

namespace {

/// mem2reg: promote every promotable alloca of the entry block. Returns
/// whether one is left that it could not promote (a struct, an array, a
/// local whose fields are stored separately).
bool promoteScalars(Function &F, bool &Changed) {
  SmallVector<AllocaInst *, 16> Allocas;
  bool Left = false;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
      if (isAllocaPromotable(AI))
        Allocas.push_back(AI);
      else
        Left = true;
    }
  if (!Allocas.empty()) {
    DominatorTree DT(F);
    AssumptionCache AC(F);
    PromoteMemToReg(Allocas, DT, &AC);
    Changed = true;
  }
  return Left;
}

/// Every local, scalar or aggregate, whose address does not escape becomes
/// SSA values, field by field (`r.end = s; r.flags = 1; if (r.end <
/// r.start)` reads `s` back): mem2reg for the scalars, then, only when a
/// local is left, SROA keeping the CFG, with its own analysis manager (so
/// the answer is the same for F and for an optnone clone).
bool promote(Function &F) {
  bool Changed = false;
  if (!promoteScalars(F, Changed))
    return Changed;
  FunctionAnalysisManager FAM;
  FAM.registerPass([] { return DominatorTreeAnalysis(); });
  FAM.registerPass([] { return AssumptionAnalysis(); });
  FAM.registerPass([] { return TargetIRAnalysis(); }); // the assumptions'
  FAM.registerPass([] { return PassInstrumentationAnalysis(); });
  PreservedAnalyses PA = SROAPass(SROAOptions::PreserveCFG).run(F, FAM);
  FAM.clear();
  return Changed || !PA.areAllPreserved();
}

} // namespace

PromotedFunction::PromotedFunction(Function &F, Where W) : F(F) {
  if (W == Where::InPlaceIfOptimised && !F.hasOptNone()) {
    // mem2reg in place deletes only the allocas, loads and stores it
    // promotes, which no check refers to. SROA also rewrites and deletes
    // the GEPs into a local it splits, and a pointer check may hold one
    // (mm/vmscan.c): when a local is left, it runs on a clone, as at -O0,
    // where a check whose GEP is gone maps to nothing and is kept.
    if (!promoteScalars(F, InPlaceChanged))
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
