//===- MemoryFacts.cpp - What may write the memory a value was read from --===//
//
// Part of wrapidiom. See MemoryFacts.h.
//
//===----------------------------------------------------------------------===//
#include "MemoryFacts.h"

#include "OverflowCheck.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wrapidiom {

namespace {

thread_local MemoryFacts *Active = nullptr;

} // namespace

struct MemoryFacts::AA {
  AssumptionCache AC;
  BasicAAResult Basic;
  AAResults Results;
  BatchAAResults Batch;
  AA(Function &F, const TargetLibraryInfo &TLI, DominatorTree &DT)
      : AC(F), Basic(F.getParent()->getDataLayout(), F, TLI, AC, &DT),
        Results(TLI), Batch(Results) {
    Results.addAAResult(Basic);
  }
};

MemoryFacts::MemoryFacts(Function &F, const TargetLibraryInfo &TLI,
                         std::function<const DominatorTree &()> DT)
    : F(F), TLI(TLI), DT(std::move(DT)), Outer(Active) {
  Active = this;
}

MemoryFacts::~MemoryFacts() { Active = Outer; }

MemoryFacts *MemoryFacts::of(const Instruction &I) {
  for (MemoryFacts *M = Active; M; M = M->Outer)
    if (I.getFunction() == &M->F)
      return M;
  return nullptr;
}

MemoryFacts::AA &MemoryFacts::aa() {
  // The decisions are all taken before the pass changes anything, so one
  // batch of queries stays valid for the whole function.
  if (!A)
    A = std::make_unique<AA>(F, TLI, const_cast<DominatorTree &>(DT()));
  return *A;
}

bool MemoryFacts::mayWrite(const Instruction &I, const LoadInst &L) {
  if (!I.mayWriteToMemory())
    return false;
  if (const auto *Call = dyn_cast<CallBase>(&I))
    if (isInertCall(*Call))
      return false;
  return isModSet(aa().Batch.getModRefInfo(&I, MemoryLocation::get(&L)));
}

} // namespace wrapidiom
