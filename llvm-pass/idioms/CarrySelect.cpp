//===- CarrySelect.cpp - y = x - C; z = y + (wrap test ? Zw : Zn) ---------===//
//
// Part of wrapidiom. See CarrySelect.h.
//
//===----------------------------------------------------------------------===//
#include "idioms/CarrySelect.h"

#include "checks/OverflowCheck.h"
#include "analysis/WrapTest.h"
#include "idioms/Rules.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/SimplifyQuery.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace wrapidiom {

/// If V is the value (not the overflow bit) of a checked unsigned
/// subtraction, that usub.with.overflow.
const WithOverflowInst *checkedUSubOf(const Value *V) {
  const auto *EV = dyn_cast<ExtractValueInst>(V);
  const auto *WO =
      EV ? dyn_cast<WithOverflowInst>(EV->getAggregateOperand()) : nullptr;
  if (!WO || WO->getIntrinsicID() != Intrinsic::usub_with_overflow ||
      *EV->idx_begin() != 0)
    return nullptr;
  return WO;
}

namespace {

/// The wrap test of a difference against its minuend, and on which side of
/// it wrapped executions go.
struct MinuendTest {
  const ICmpInst *Cmp = nullptr;
  bool WrapWhenTrue = false;
};

/// The two values a choice on the wrap test takes: in wrapped executions
/// and in the others.
struct Sides {
  const Value *Wrap = nullptr;
  const Value *NoWrap = nullptr;
};

/// If Z is chosen by the comparison T (select(T, ..), or a two-way phi
/// whose incoming edges lie on the two sides of a branch on T), the values
/// Z has in wrapped and in unwrapped executions.
Sides sidesOf(const Value *Z, const MinuendTest &T, const DominatorTree &DT) {
  if (const auto *Sel = dyn_cast<SelectInst>(Z)) {
    bool Negated;
    if (peelCondition(Sel->getCondition(), Negated) != T.Cmp)
      return {};
    if (T.WrapWhenTrue != Negated)
      return {Sel->getTrueValue(), Sel->getFalseValue()};
    return {Sel->getFalseValue(), Sel->getTrueValue()};
  }
  const auto *Phi = dyn_cast<PHINode>(Z);
  if (!Phi || Phi->getNumIncomingValues() != 2)
    return {};
  // The branch tests the comparison directly or through unlikely() and
  // negation: look three users deep.
  SmallVector<const User *, 8> Candidates;
  for (const User *U : T.Cmp->users()) {
    Candidates.push_back(U);
    for (const User *UU : U->users()) {
      Candidates.push_back(UU);
      for (const User *UUU : UU->users())
        Candidates.push_back(UUU);
    }
  }
  for (const User *BU : Candidates) {
    const auto *Br = dyn_cast<BranchInst>(BU);
    bool Negated;
    if (!Br || !Br->isConditional() ||
        peelCondition(Br->getCondition(), Negated) != T.Cmp)
      continue;
    unsigned WrapSucc = T.WrapWhenTrue != Negated ? 0 : 1;
    BasicBlockEdge Wrap(Br->getParent(), Br->getSuccessor(WrapSucc));
    BasicBlockEdge NoWrap(Br->getParent(), Br->getSuccessor(1 - WrapSucc));
    for (unsigned I = 0; I < 2; ++I)
      if (DT.dominates(Wrap, Phi->getIncomingBlock(I)) &&
          DT.dominates(NoWrap, Phi->getIncomingBlock(1 - I)))
        return {Phi->getIncomingValue(I), Phi->getIncomingValue(1 - I)};
  }
  return {};
}

/// y = x - C; z = y + Z with Z chosen by the wrap test: is z exactly
/// x - C + Z, with no wrap left? x - C wraps iff x < C, to x - C + 2^N.
///  - wrap side: y + Zw must wrap back for every wrapped x, i.e.
///    Zw >= C - x; x >= 0, so min(Zw) >= max(C) proves it;
///  - no-wrap side: y + Zn must not wrap for any x >= C; x <= 2^N - 1, so
///    max(Zn) <= min(C) proves it.
/// Then both checks guard nothing: the pair computes the true value.
/// A correction that only looks plausible (non-zero on the wrap side)
/// proves nothing: `y + ((x > y) ? 0 : 1)` keeps the wrap.
bool isCorrection(const Value *Z, const MinuendTest &T,
                  const WrappingOp &Sub, const DominatorTree &DT) {
  // `x > y ? 16 : 0` is an int select, extended to the difference's type.
  const auto *Ext = dyn_cast<CastInst>(Z);
  if (Ext && Ext->getOpcode() != Instruction::ZExt &&
      Ext->getOpcode() != Instruction::SExt)
    Ext = nullptr;
  Sides S = sidesOf(Ext ? Ext->getOperand(0) : Z, T, DT);
  if (!S.Wrap || !S.NoWrap)
    return false;
  const Instruction *At = T.Cmp;
  ConstantRange C = unsignedRange(Sub.RHS, Sub, At);
  ConstantRange Zw = unsignedRange(S.Wrap, Sub, At);
  ConstantRange Zn = unsignedRange(S.NoWrap, Sub, At);
  if (Ext) {
    unsigned Width = C.getBitWidth();
    bool Signed = Ext->getOpcode() == Instruction::SExt;
    Zw = Signed ? Zw.signExtend(Width) : Zw.zeroExtend(Width);
    Zn = Signed ? Zn.signExtend(Width) : Zn.zeroExtend(Width);
  }
  if (C.getBitWidth() != Zw.getBitWidth() ||
      C.getBitWidth() != Zn.getBitWidth())
    return false;
  return Zw.getUnsignedMin().uge(C.getUnsignedMax()) &&
         Zn.getUnsignedMax().ule(C.getUnsignedMin());
}

/// The comparison of a difference with its minuend among the difference's
/// users, if any.
MinuendTest minuendTest(const WrappingOp &Sub) {
  for (const Use &U : Sub.Result->uses())
    if (const auto *Cmp = dyn_cast<ICmpInst>(U.getUser())) {
      CompareVerdict V = classifyCompare(*Cmp, U.getOperandNo(), {}, Sub);
      if (V.IsTest)
        return {Cmp, V.WrapWhenTrue};
    }
  return {};
}

/// A checked unsigned add of V and something else: the something else.
const Value *otherAddend(const User *U, const Value *V) {
  const auto *WO = dyn_cast<WithOverflowInst>(U);
  if (!WO || WO->getBinaryOp() != Instruction::Add || WO->isSigned())
    return nullptr;
  if (WO->getLHS() == V)
    return WO->getRHS();
  if (WO->getRHS() == V)
    return WO->getLHS();
  return nullptr;
}

} // namespace

/// y = x - C; ... x > y ...; z = y + (x > y ? A : B): the program tells the
/// wrapped from the unwrapped difference and corrects each so that the
/// pair computes the true value (isCorrection). The kernel's
/// __phys_addr_nodebug() (arch/x86/include/asm/page_64.h) has this shape
/// but relies on x's range, which the IR does not state: it is the
/// x86 ignorelist's to answer for.
bool isCarrySelectSub(const WrappingOp &Sub, const DominatorTree &DT) {
  if (Sub.Op != CheckOp::Sub || Sub.Signed)
    return false;
  MinuendTest Test = minuendTest(Sub);
  if (!Test.Cmp)
    return false;
  unsigned Corrections = 0;
  for (const User *U : Sub.Result->users()) {
    if (U == Test.Cmp || isInstrumentation(*cast<Instruction>(U)))
      continue;
    const Value *Z = otherAddend(U, Sub.Result);
    if (!Z || !isCorrection(Z, Test, Sub, DT))
      return false;
    ++Corrections;
  }
  return Corrections > 0;
}

/// The correcting addition of the carry-select idiom.
bool isCarrySelectAdd(const WrappingOp &Add, const DominatorTree &DT) {
  if (Add.Op != CheckOp::Add || Add.Signed)
    return false;
  for (const Value *Y : {Add.LHS, Add.RHS}) {
    const WithOverflowInst *WO = checkedUSubOf(Y);
    if (!WO)
      continue;
    WrappingOp Sub;
    Sub.Op = CheckOp::Sub;
    Sub.Def = WO;
    Sub.Result = Y;
    Sub.LHS = WO->getLHS();
    Sub.RHS = WO->getRHS();
    Sub.DL = Add.DL;
    Sub.DT = Add.DT;
    Sub.DC = Add.DC;
    MinuendTest Test = minuendTest(Sub);
    const Value *Z = Y == Add.LHS ? Add.RHS : Add.LHS;
    if (Test.Cmp && isCorrection(Z, Test, Sub, DT))
      return true;
  }
  return false;
}

/// carry-select's row: the subtraction or its correcting addition.
bool carrySelect(RuleInput &In) {
  const DominatorTree &DT = In.Facts.dominators();
  return isCarrySelectSub(*In.Op, DT) || isCarrySelectAdd(*In.Op, DT);
}

} // namespace wrapidiom
