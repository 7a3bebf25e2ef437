//===- CallerHandled.cpp - A sum a static helper returns to its callers ---===//
//
// Part of wrapidiom. See CallerHandled.h.
//
//===----------------------------------------------------------------------===//
#include "idioms/CallerHandled.h"

#include "analysis/PromotedFunction.h"
#include "checks/OverflowCheck.h"
#include "idioms/IdiomMatcher.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace wrapidiom {

namespace {

/// The value an operand of the helper's operation has at Call: the
/// argument passed for a parameter, a constant itself; null otherwise.
const Value *atCall(const Value *V, const CallBase &Call) {
  if (const auto *A = dyn_cast<Argument>(V))
    return A->getArgNo() < Call.arg_size() ? Call.getArgOperand(A->getArgNo())
                                           : nullptr;
  return isa<Constant>(V) ? V : nullptr;
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
                          const TargetLibraryInfo &TLI,
                          const WrapIdiomOptions &Opts, std::string &Why) {
  std::string Returned = ("the " + Op.noun() + " is returned, and ").str();
  for (const Value *V : {Op.LHS, Op.RHS})
    if (!isa<Argument>(V) && !isa<Constant>(V)) {
      Why = Returned + "an operand is neither a parameter nor a constant";
      return false;
    }
  SmallVector<CallBase *, MaxCallSites> Calls;
  if (!directCalls(Helper, Calls, Why)) {
    Why = Returned + Why;
    return false;
  }
  for (CallBase *Call : Calls) {
    Function &Caller = *Call->getFunction();
    PromotedFunction Promoted(Caller, PromotedFunction::Where::Clone);
    CallBase *Mapped = Promoted.map(Call);
    WrappingOp AtCall = Op;
    if (Mapped) {
      AtCall.Def = Mapped;
      AtCall.Result = Mapped;
      AtCall.LHS = atCall(Op.LHS, *Mapped);
      AtCall.RHS = atCall(Op.RHS, *Mapped);
    }
    if (!Mapped || !AtCall.LHS || !AtCall.RHS) {
      Why = Returned + "a call of its helper cannot be read";
      return false;
    }
    IdiomMatcher Matcher(Promoted.function(), TLI, Opts);
    std::string CallerWhy;
    if (Matcher.decideResult(AtCall, CallerWhy) == Idiom::None) {
      Why = Returned + "in " + Caller.getName().str() + "(): " + CallerWhy;
      return false;
    }
  }
  return true;
}

} // namespace wrapidiom
