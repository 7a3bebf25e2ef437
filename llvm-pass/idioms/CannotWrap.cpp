//===- CannotWrap.cpp - Checks whose operation cannot wrap ----------------===//
//
// Part of wrapidiom. cannot-wrap is not an idiom: the program does not
// handle a wrap, it cannot have one. What is known of the operands where
// the operation runs leaves no pair of values whose true result is outside
// the type, so the check's condition is false in every execution and the
// check goes, whether or not the build defines the wrap (a signed check
// without -fwrapv too). Named apart in the remarks and the statistics.
//
// An operand's values at the operation are the intersection of:
//  - its known bits, with the branch conditions that dominate the operation
//    (computeKnownBits with the DomConditionCache), and its range from its
//    own instruction (computeConstantRange: `x & 255`, `x % 10`, `x >> 60`,
//    min/max, selects, range metadata): computeConstantRangeIncludingKnownBits;
//  - every comparison of it that dominates the operation, with the range
//    of the other side where the comparison is: `i < n` bounds i by n's
//    range, `x < 100` by [0, 99] where the known bits only say [0, 127]
//    (ConstantRange::makeAllowedICmpRegion);
//  - for an induction variable (a loop header's phi), its range over the
//    loop's iterations (ScalarEvolution, which bounds it by the loop's trip
//    count: `for (i = 0; i != 10; ++i)`), but only in a function all of
//    whose checks report and go on. In the trap and abort forms the code
//    after a check runs only where it did not fire, and ScalarEvolution
//    reads that as "this arithmetic does not wrap"
//    (isOverflowIntrinsicNoWrap): a fact that holds only while the check
//    stays, so it cannot be used to remove one.
//
// Nothing here reads a check: a check's branch tests an overflow bit, not
// a comparison the known bits or the dominating comparisons could take a
// range from (and the comparisons of the instrumentation are skipped).
// A value read from memory has the range of that read (a load is not the
// store before it), and a comparison of an earlier read says nothing of
// a later one unless promotion made them one value.
//
// The row comes after the re-check rows (Idioms.def): a check whose
// unsigned arithmetic encodes a signed quantity (signed-meaning,
// signed-offset, signed-difference) is re-checked in that meaning, which
// can report where the plain check cannot fire.
//
//===----------------------------------------------------------------------===//
#include "analysis/WrapTest.h"
#include "checks/OverflowCheck.h"
#include "idioms/Rules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "wrap-idiom"

using namespace llvm;

namespace wrapidiom {

namespace {

/// Do all the function's checks report and go on? Only then is the code
/// after a check reached whether or not it fired.
bool allChecksContinue(const FunctionChecks &All) {
  return all_of(All.Original, [](const OverflowCheck &C) {
    return C.Form == CheckForm::Recover || C.Form == CheckForm::Minimal ||
           C.Form == CheckForm::MinimalPreserve;
  });
}

/// V's values where Op runs.
ConstantRange operandRange(const Value *V, bool Signed, const WrappingOp &Op,
                           RuleInput &In, bool UseLoops) {
  ConstantRange::PreferredRangeType Pref =
      Signed ? ConstantRange::Signed : ConstantRange::Unsigned;
  ConstantRange R = rangeAt(V, Signed, Op, Op.Def);
  const auto *Phi = dyn_cast<PHINode>(V);
  if (!UseLoops || !Phi || R.isSingleElement())
    return R;
  Function &F = *const_cast<Function *>(Op.Def->getFunction());
  FunctionAnalysisManager &FAM = In.Facts.analyses();
  if (!FAM.getResult<LoopAnalysis>(F).isLoopHeader(Phi->getParent()))
    return R;
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  if (!SE.isSCEVable(Phi->getType()))
    return R;
  const SCEV *S = SE.getSCEV(const_cast<PHINode *>(Phi));
  if (!isa<SCEVAddRecExpr>(S))
    return R;
  return R.intersectWith(Signed ? SE.getSignedRange(S)
                                : SE.getUnsignedRange(S),
                         Pref);
}

} // namespace

bool cannotWrap(RuleInput &In) {
  const WrappingOp &Op = *In.Op;
  if (Op.Op == CheckOp::Ptr || !Op.LHS || !Op.RHS || !Op.DT || !Op.DC ||
      !Op.LHS->getType()->isIntegerTy())
    return false;
  bool S = Op.Signed;
  bool UseLoops = allChecksContinue(*In.All);
  ConstantRange L = operandRange(Op.LHS, S, Op, In, UseLoops);
  if (L.isFullSet())
    return false;
  ConstantRange R = operandRange(Op.RHS, S, Op, In, UseLoops);
  // The true result, in twice the width and two bits more, where nothing
  // wraps; it must lie in the type.
  unsigned N = L.getBitWidth(), W = 2 * N + 2;
  ConstantRange WL = S ? L.signExtend(W) : L.zeroExtend(W);
  ConstantRange WR = S ? R.signExtend(W) : R.zeroExtend(W);
  ConstantRange True = Op.Op == CheckOp::Add   ? WL.add(WR)
                       : Op.Op == CheckOp::Mul ? WL.multiply(WR)
                                               : WL.sub(WR);
  ConstantRange Type = S ? ConstantRange::getNonEmpty(
                               APInt::getSignedMinValue(N).sext(W),
                               APInt::getSignedMaxValue(N).sext(W) + 1)
                         : ConstantRange::getNonEmpty(
                               APInt::getZero(W),
                               APInt::getMaxValue(N).zext(W) + 1);
  LLVM_DEBUG(dbgs() << "wrap-idiom: cannot-wrap? " << *Op.Def << ": " << L
                    << ", " << R << " -> " << True << "\n");
  return Type.contains(True);
}

} // namespace wrapidiom
