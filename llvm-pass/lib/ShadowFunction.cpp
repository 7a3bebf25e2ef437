//===- ShadowFunction.cpp - An SSA copy of a function, for analysis only --===//
//
// Part of wrapidiom. See ShadowFunction.h.
//
//===----------------------------------------------------------------------===//
#include "ShadowFunction.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace wrapidiom {

ShadowFunction::ShadowFunction(Function &F) {
  Clone = CloneFunction(&F, VMap);
  // Never visible outside this pass run: make sure nothing could bind to it.
  Clone->setLinkage(GlobalValue::PrivateLinkage);
  Clone->setName("");
  // Debug info is irrelevant to the analysis; dropping it makes promotion
  // cheaper and keeps the clone from sharing F's DISubprogram.
  stripDebugInfo(*Clone);

  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : Clone->getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Allocas.push_back(AI);
  if (!Allocas.empty()) {
    DominatorTree DT(*Clone);
    AssumptionCache AC(*Clone);
    PromoteMemToReg(Allocas, DT, &AC);
  }
}

ShadowFunction::~ShadowFunction() {
  VMap.clear();
  Clone->dropAllReferences();
  Clone->eraseFromParent();
}

} // namespace wrapidiom
