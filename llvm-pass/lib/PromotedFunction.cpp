//===- PromotedFunction.cpp - The function with its locals in SSA form ----===//
//
// Part of wrapidiom. See PromotedFunction.h.
//
//===----------------------------------------------------------------------===//
#include "PromotedFunction.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace wrapidiom {

namespace {

/// mem2reg: promote every promotable alloca of the entry block.
bool promote(Function &F) {
  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Allocas.push_back(AI);
  if (Allocas.empty())
    return false;
  DominatorTree DT(F);
  AssumptionCache AC(F);
  PromoteMemToReg(Allocas, DT, &AC);
  return true;
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
