//===- CallerHandled.cpp - A sum a static helper returns to its callers ---===//
//
// Part of wrapidiom. See CallerHandled.h.
//
//===----------------------------------------------------------------------===//
#include "idioms/CallerHandled.h"

#include "analysis/PromotedFunction.h"
#include "checks/OverflowCheck.h"
#include "idioms/IdiomMatcher.h"
#include "idioms/Rules.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace wrapidiom {

namespace {

/// Helper operands read through memory are rebuilt in the caller from
/// at most this many instructions each.
constexpr unsigned MaxRebuilt = 4;

/// Does F (the helper's promoted form) write memory, its checks aside?
bool writesMemory(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (I.mayWriteToMemory() && !isInstrumentation(I))
        return true;
  return false;
}

/// The value an operand V of the helper's operation has at Call: the
/// argument passed for a parameter, a constant itself (as the caller's
/// copy sees it, in Scratch); a field the helper loads through a parameter
/// (`r->start`, a simple load of a GEP with constant indices, or of a cast
/// of one) rebuilt in the caller right after the call, where it reads what
/// the helper read when the helper writes nothing (the caller checks
/// that). Null otherwise; Loads counts the loads rebuilt.
Value *atCall(const Value *V, CallBase &Call, IRBuilder<> &B,
              ScratchModule &Scratch, unsigned &Budget, unsigned &Loads) {
  if (const auto *A = dyn_cast<Argument>(V))
    return A->getArgNo() < Call.arg_size() ? Call.getArgOperand(A->getArgNo())
                                           : nullptr;
  if (const auto *C = dyn_cast<Constant>(V))
    return Scratch.map(const_cast<Constant *>(C));
  if (Budget == 0)
    return nullptr;
  --Budget;
  if (const auto *L = dyn_cast<LoadInst>(V)) {
    if (!L->isSimple())
      return nullptr;
    Value *P =
        atCall(L->getPointerOperand(), Call, B, Scratch, Budget, Loads);
    if (!P)
      return nullptr;
    ++Loads;
    return B.CreateAlignedLoad(L->getType(), P, L->getAlign());
  }
  if (const auto *G = dyn_cast<GetElementPtrInst>(V)) {
    if (!G->hasAllConstantIndices())
      return nullptr;
    Value *P =
        atCall(G->getPointerOperand(), Call, B, Scratch, Budget, Loads);
    if (!P)
      return nullptr;
    SmallVector<Value *, 4> Idx(G->indices());
    return B.CreateGEP(G->getSourceElementType(), P, Idx, "",
                       G->getNoWrapFlags());
  }
  if (const auto *Cast = dyn_cast<CastInst>(V)) {
    Value *X = atCall(Cast->getOperand(0), Call, B, Scratch, Budget, Loads);
    return X ? B.CreateCast(Cast->getOpcode(), X, Cast->getType()) : nullptr;
  }
  return nullptr;
}

/// The direct calls of Helper, if every use of it is one from another
/// function, with Helper's own type.
bool directCalls(Function &Helper, SmallVectorImpl<CallBase *> &Calls,
                 std::string &Why) {
  for (Use &U : Helper.uses()) {
    // A call, not an invoke: the walk in the caller starts right after it.
    auto *Call = dyn_cast<CallInst>(U.getUser());
    if (!Call || !Call->isCallee(&U) ||
        Call->getFunctionType() != Helper.getFunctionType()) {
      Why = "its helper's address is taken: callers cannot all be read";
      return false;
    }
    if (Call->getFunction() == &Helper) {
      Why = "its helper calls itself";
      return false;
    }
    if (Calls.size() == MaxCallSites) {
      Why = "its helper has more than " + std::to_string(MaxCallSites) +
            " calls to read";
      return false;
    }
    Calls.push_back(Call);
  }
  if (Calls.empty()) {
    Why = "its helper is never called";
    return false;
  }
  return true;
}

} // namespace

bool onlyReturned(const WrappingOp &Op) {
  unsigned Returns = 0;
  for (const User *U : Op.Result->users()) {
    const auto *I = cast<Instruction>(U);
    if (isInstrumentation(*I))
      continue;
    if (!isa<ReturnInst>(I))
      return false;
    ++Returns;
  }
  return Returns > 0;
}

bool handledByEveryCaller(const WrappingOp &Op, Function &Helper,
                          MatcherFacts &Facts, std::string &Why) {
  ScratchModule &Scratch = Facts.scratch();
  std::string Returned = ("the " + Op.noun() + " is returned, and ").str();
  SmallVector<CallBase *, MaxCallSites> Calls;
  if (!directCalls(Helper, Calls, Why)) {
    Why = Returned + Why;
    return false;
  }
  // Only a helper that writes nothing may have fields read in the caller.
  bool Writes = writesMemory(*Op.Def->getFunction());
  for (CallBase *Call : Calls) {
    Function &Caller = *Call->getFunction();
    PromotedFunction Promoted(Caller, /*InPlace=*/false, Scratch,
                              Facts.analyses(), /*OfCaller=*/true);
    CallBase *Mapped = Promoted.map(Call);
    if (!Mapped) {
      Why = Returned + "a call of its helper cannot be read";
      return false;
    }
    // The operands as the caller can name them, built after the call in
    // the caller's copy.
    IRBuilder<> B(Mapped->getNextNode());
    unsigned Budget = MaxRebuilt, Loads = 0;
    WrappingOp AtCall = Op;
    AtCall.Def = Mapped;
    AtCall.Result = Mapped;
    AtCall.LHS = atCall(Op.LHS, *Mapped, B, Scratch, Budget, Loads);
    if (AtCall.LHS) {
      Budget = MaxRebuilt;
      AtCall.RHS = atCall(Op.RHS, *Mapped, B, Scratch, Budget, Loads);
    }
    if (!AtCall.LHS || !AtCall.RHS) {
      Why = Returned + "an operand is neither a parameter, a constant nor "
                       "a field read through a parameter";
      return false;
    }
    if (Loads && Writes) {
      Why = Returned + "its helper writes memory: the fields it reads "
                       "cannot be read again in the caller";
      return false;
    }
    IdiomMatcher Matcher(Promoted.function(), Facts.analyses(),
                         Facts.libraryInfo(), Facts.options(), Scratch);
    std::string CallerWhy;
    if (Matcher.decideResult(AtCall, CallerWhy) == Idiom::None) {
      Why = Returned + "in " + Caller.getName().str() + "(): " + CallerWhy;
      return false;
    }
  }
  return true;
}

/// caller-handled's row: the helper only returns the value, and every
/// caller handles the call's result as the operation's own.
bool callerHandled(RuleInput &In) {
  // Not static: the data-flow proof's reason (the value reaches 'ret')
  // stands, as for any function a caller elsewhere may call.
  Function *Helper = In.Facts.original();
  std::string Why;
  if (!Helper || !Helper->hasLocalLinkage() || !onlyReturned(*In.Op))
    return false;
  if (handledByEveryCaller(*In.Op, *Helper, In.Facts, Why))
    return true;
  In.Why = std::move(Why);
  return false;
}

} // namespace wrapidiom
