//===- MemoryFacts.cpp - What may write the memory a value was read from --===//
//
// Part of wrapidiom. See MemoryFacts.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/MemoryFacts.h"

#include "checks/OverflowCheck.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wrapidiom {

namespace {

/// A helper is small: at most this many instructions that are not its own
/// locals' allocas, loads and stores, phis or inert calls.
constexpr unsigned MaxHelperSize = 64;
/// Helpers calling helpers: at most this deep.
constexpr unsigned MaxHelperDepth = 4;

thread_local MemoryFacts *Active = nullptr;

/// Does Ptr point into one of Fn's own stack slots?
bool isLocalTo(const Value *Ptr, const Function &Fn) {
  const auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
  return AI && AI->getFunction() == &Fn;
}

/// A call of a function the analysis does not read: what its attributes
/// promise (`__attribute__((const))`, intrinsics such as llvm.bswap).
CallEffect declaredEffect(const CallBase &Call) {
  if (Call.hasOperandBundles() || Call.isConvergent())
    return CallEffect::Unknown;
  if (Call.doesNotAccessMemory())
    return CallEffect::Pure;
  if (Call.onlyReadsMemory())
    return CallEffect::Reads;
  return CallEffect::Unknown;
}

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

CallEffect MemoryFacts::effectOf(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Call.hasOperandBundles() || Call.isConvergent())
    return CallEffect::Unknown;
  if (Callee->isDeclaration())
    return declaredEffect(Call);
  return helperEffect(*Callee, 0);
}

CallEffect MemoryFacts::helperEffect(const Function &Callee, unsigned Depth) {
  // Only a body the program will run: not one the linker may replace.
  if (!Callee.hasExactDefinition() || Callee.isVarArg() ||
      Depth > MaxHelperDepth)
    return CallEffect::Unknown;
  auto [It, New] = Helpers.try_emplace(&Callee, CallEffect::Unknown);
  if (!New)
    return It->second; // known, or being computed (a recursion: Unknown)
  bool Reads = false;
  unsigned Size = 0;
  auto Decide = [&]() -> CallEffect {
    for (const Instruction &I : instructions(Callee)) {
      if (isa<AllocaInst>(I) || isa<PHINode>(I))
        continue;
      if (const auto *Ld = dyn_cast<LoadInst>(&I)) {
        if (!Ld->isSimple())
          return CallEffect::Unknown; // a volatile read is an effect
        if (isLocalTo(Ld->getPointerOperand(), Callee))
          continue;
        Reads = true;
      } else if (const auto *St = dyn_cast<StoreInst>(&I)) {
        if (!St->isSimple() || !isLocalTo(St->getPointerOperand(), Callee))
          return CallEffect::Unknown;
        continue;
      } else if (const auto *Call = dyn_cast<CallBase>(&I)) {
        if (isInertCall(*Call))
          continue;
        const Function *Inner = Call->getCalledFunction();
        CallEffect E =
            !Inner || Call->hasOperandBundles() || Call->isConvergent()
                ? CallEffect::Unknown
            : Inner->isDeclaration() ? declaredEffect(*Call)
                                     : helperEffect(*Inner, Depth + 1);
        if (E == CallEffect::Unknown)
          return E;
        Reads |= E == CallEffect::Reads;
      } else if (const auto *Ret = dyn_cast<ReturnInst>(&I)) {
        // The address of a local is a different value on every call.
        const Value *RV = Ret->getReturnValue();
        if (RV && RV->getType()->isPointerTy() && isLocalTo(RV, Callee))
          return CallEffect::Unknown;
      } else if (I.mayWriteToMemory() || I.mayReadFromMemory()) {
        return CallEffect::Unknown; // atomics, fences, va_arg
      }
      if (++Size > MaxHelperSize)
        return CallEffect::Unknown;
    }
    return Reads ? CallEffect::Reads : CallEffect::Pure;
  };
  CallEffect E = Decide();
  Helpers[&Callee] = E; // the map may have grown: look it up again
  return E;
}

bool MemoryFacts::mayWrite(const Instruction &I, const LoadInst &L) {
  if (!I.mayWriteToMemory())
    return false;
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    if (isInertCall(*Call) || effectOf(*Call) != CallEffect::Unknown)
      return false;
  }
  return isModSet(aa().Batch.getModRefInfo(&I, MemoryLocation::get(&L)));
}

bool MemoryFacts::mayWriteFor(const Instruction &I, const CallBase &Call) {
  if (!I.mayWriteToMemory())
    return false;
  if (const auto *Other = dyn_cast<CallBase>(&I))
    return !isInertCall(*Other) && effectOf(*Other) == CallEffect::Unknown;
  // A store the call cannot see: a local of this function whose address
  // the call is not given (BasicAA's escape analysis).
  if (const auto *St = dyn_cast<StoreInst>(&I))
    return isModOrRefSet(
        aa().Batch.getModRefInfo(&Call, MemoryLocation::get(St)));
  return true;
}

bool MemoryFacts::overwrittenBeforeRead(const StoreInst &S) {
  if (!S.isSimple())
    return false;
  MemoryLocation Loc = MemoryLocation::get(&S);
  unsigned Budget = MaxHelperSize;
  for (const Instruction *I = S.getNextNode(); I && !I->isTerminator();
       I = I->getNextNode()) {
    if (--Budget == 0)
      return false;
    if (const auto *Call = dyn_cast<CallBase>(I); Call && isInertCall(*Call))
      continue;
    if (const auto *Later = dyn_cast<StoreInst>(I)) {
      MemoryLocation LaterLoc = MemoryLocation::get(Later);
      if (Later->isSimple() && LaterLoc.Size == Loc.Size &&
          aa().Batch.alias(LaterLoc, Loc) == AliasResult::MustAlias)
        return true;
    }
    if (isModOrRefSet(aa().Batch.getModRefInfo(I, Loc)))
      return false;
  }
  return false;
}

} // namespace wrapidiom
