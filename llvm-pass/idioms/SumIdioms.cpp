//===- SumIdioms.cpp - Sums whose wrap is tested or used in two steps -----===//
//
// Part of wrapidiom. See SumIdioms.h.
//
//===----------------------------------------------------------------------===//
#include "idioms/SumIdioms.h"

#include "idioms/CarrySelect.h"
#include "idioms/Rules.h"
#include "idioms/UseIdioms.h"
#include "idioms/WrapPaths.h"

#include "checks/OverflowCheck.h"
#include "analysis/ValueEquivalence.h"

#include "llvm/Analysis/DemandedBits.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace wrapidiom {

namespace {

/// The value of a checked or plain operation: the extractvalue 0 of a
/// *.with.overflow call, or the instruction itself.
const Value *valueOf(const User *U) {
  if (!isa<WithOverflowInst>(U))
    return U;
  for (const User *EU : U->users())
    if (const auto *EV = dyn_cast<ExtractValueInst>(EU))
      if (EV->getNumIndices() == 1 && *EV->idx_begin() == 0)
        return EV;
  return nullptr;
}

/// The operation V is the value of, if it is an unsigned Opcode (checked
/// or plain): {operation, LHS, RHS}.
struct Operation {
  const Instruction *I = nullptr;
  const Value *LHS = nullptr, *RHS = nullptr;
};
Operation operationOf(const Value *V, Instruction::BinaryOps Opcode) {
  Intrinsic::ID Checked = Opcode == Instruction::Add
                              ? Intrinsic::uadd_with_overflow
                              : Intrinsic::usub_with_overflow;
  if (const auto *EV = dyn_cast<ExtractValueInst>(V)) {
    const auto *WO = dyn_cast<WithOverflowInst>(EV->getAggregateOperand());
    if (WO && WO->getIntrinsicID() == Checked && *EV->idx_begin() == 0)
      return {WO, WO->getLHS(), WO->getRHS()};
    return {};
  }
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (BO && BO->getOpcode() == Opcode)
    return {BO, BO->getOperand(0), BO->getOperand(1)};
  return {};
}

/// The checked unsigned addition whose value is S, as a WrappingOp in the
/// context of Op (the sum a carry is added to).
std::optional<WrappingOp> checkedSumOf(const Value *S, const WrappingOp &Op) {
  Operation First = operationOf(S, Instruction::Add);
  if (!First.I || !isa<WithOverflowInst>(First.I))
    return std::nullopt;
  WrappingOp F = Op;
  F.Def = First.I;
  F.Result = S;
  F.LHS = First.LHS;
  F.RHS = First.RHS;
  return F;
}

/// The only use of V by the program (not by a check's instrumentation).
const User *soleUse(const Value *V) {
  const User *Only = nullptr;
  for (const User *U : V->users()) {
    if (const auto *I = dyn_cast<Instruction>(U); I && isInstrumentation(*I))
      continue;
    if (Only)
      return nullptr;
    Only = U;
  }
  return Only;
}

/// Is L >= C at At: a constant, known bits, or a dominating branch on a
/// comparison of L with a constant (`if (!len) return -EINVAL;`).
bool knownAtLeast(const Value *L, const APInt &C, const Instruction *At,
                  const WrappingOp &Op) {
  if (const auto *K = dyn_cast<ConstantInt>(L))
    return K->getValue().uge(C);
  if (C.isOne() && isKnownNonZero(L, factsAt(Op, At)))
    return true;
  if (!Op.DT)
    return false;
  for (const User *U : L->users()) {
    const auto *Cmp = dyn_cast<ICmpInst>(U);
    ConstantInt *KC;
    if (!Cmp || !match(Cmp->getOperand(Cmp->getOperand(0) == L ? 1 : 0),
                       m_ConstantInt(KC)))
      continue;
    CmpInst::Predicate Pred = Cmp->getOperand(0) == L
                                  ? Cmp->getPredicate()
                                  : Cmp->getSwappedPredicate();
    ConstantRange True = ConstantRange::makeExactICmpRegion(Pred, KC->getValue());
    // Branches on Cmp, through the negation and unlikely() glue.
    SmallVector<std::pair<const Value *, unsigned>, 8> Work{{Cmp, 0}};
    while (!Work.empty()) {
      auto [V, Depth] = Work.pop_back_val();
      for (const User *VU : V->users()) {
        if (const auto *Br = dyn_cast<BranchInst>(VU)) {
          bool Negated;
          if (!Br->isConditional() ||
              peelCondition(Br->getCondition(), Negated) != Cmp)
            continue;
          for (unsigned S = 0; S < 2; ++S) {
            ConstantRange Region = (S == 0) != Negated ? True : True.inverse();
            BasicBlockEdge Edge(Br->getParent(), Br->getSuccessor(S));
            if (Region.getUnsignedMin().uge(C) &&
                Op.DT->dominates(Edge, At->getParent()))
              return true;
          }
        } else if (Depth < 4 && isa<Instruction>(VU) &&
                   VU->getType()->isIntegerTy()) {
          Work.push_back({VU, Depth + 1});
        }
      }
    }
  }
  return false;
}

} // namespace

std::optional<WrappingOp> endInclusiveOf(const WrappingOp &Op) {
  if (Op.Signed || (Op.Op != CheckOp::Add && Op.Op != CheckOp::Sub))
    return std::nullopt;
  // The pair: the sum, used only by the subtraction of a constant.
  Operation Add, Sub;
  if (Op.Op == CheckOp::Add) {
    Add = {Op.Def, Op.LHS, Op.RHS};
    const User *U = soleUse(Op.Result);
    const Value *D = U ? valueOf(U) : nullptr;
    Sub = D ? operationOf(D, Instruction::Sub) : Operation();
    if (!Sub.I || Sub.LHS != Op.Result)
      return std::nullopt;
  } else {
    Sub = {Op.Def, Op.LHS, Op.RHS};
    Add = operationOf(Op.LHS, Instruction::Add);
    if (!Add.I || soleUse(Op.LHS) != Op.Def)
      return std::nullopt;
  }
  const auto *C = dyn_cast<ConstantInt>(Sub.RHS);
  if (!C || C->isZero())
    return std::nullopt;
  const Value *SubValue = valueOf(Sub.I);
  if (!SubValue)
    return std::nullopt;
  // start + len - c with len >= c: which addend is len.
  const Value *Start = nullptr;
  if (knownAtLeast(Add.RHS, C->getValue(), Add.I, Op))
    Start = Add.LHS;
  else if (knownAtLeast(Add.LHS, C->getValue(), Add.I, Op))
    Start = Add.RHS;
  if (!Start)
    return std::nullopt;
  WrappingOp W = Op;
  W.Op = CheckOp::Add;
  W.Def = Sub.I;
  W.Result = SubValue;
  W.LHS = Start;
  W.RHS = nullptr;
  return W;
}

/// The branch form of end-around carry (csum_partial()):
///
///   s = a + b; if (b > s) s += 1;
///
/// First is the sum s. Its exact wrap test is the condition of a branch,
/// and every other use of s is either on the branch's no-wrap edge, where
/// s did not wrap, or is s + 1 on the wrap edge: the carry added back, which
/// cannot wrap (a wrapped s is below b). Carry, if given, must be such an
/// addition.
static bool branchCarried(const WrappingOp &First, const Instruction *Carry) {
  const DominatorTree *DT = First.DT;
  if (!DT)
    return false;
  const BranchInst *Br = nullptr;
  const ICmpInst *Test = nullptr;
  bool WrapWhenTrue = false;
  for (const User *U : First.Result->users()) {
    const auto *Cmp = dyn_cast<ICmpInst>(U);
    if (!Cmp || Br)
      continue;
    unsigned Idx = Cmp->getOperand(0) == First.Result ? 0 : 1;
    CompareVerdict V = classifyCompare(*Cmp, Idx, {}, First);
    const auto *B = dyn_cast_or_null<BranchInst>(soleUse(Cmp));
    if (!V.separates() || !B || !B->isConditional() ||
        B->getCondition() != Cmp || B->getSuccessor(0) == B->getSuccessor(1))
      continue;
    Br = B;
    Test = Cmp;
    WrapWhenTrue = V.WrapWhenTrue;
  }
  if (!Br)
    return false;
  BasicBlockEdge Wrap(Br->getParent(), Br->getSuccessor(WrapWhenTrue ? 0 : 1));
  BasicBlockEdge NoWrap(Br->getParent(),
                        Br->getSuccessor(WrapWhenTrue ? 1 : 0));
  bool CarrySeen = !Carry;
  unsigned Carries = 0;
  for (const Use &U : First.Result->uses()) {
    const auto *I = cast<Instruction>(U.getUser());
    if (I == Test || isInstrumentation(*I) || DT->dominates(NoWrap, U))
      continue;
    const Value *IV = valueOf(I);
    if (!IV)
      return false;
    Operation Add = operationOf(IV, Instruction::Add);
    const Value *Other = Add.LHS == First.Result ? Add.RHS : Add.LHS;
    if (Add.I != I || !Other || !match(Other, m_One()) ||
        !DT->dominates(Wrap, U))
      return false;
    ++Carries;
    CarrySeen |= I == Carry;
  }
  return Carries > 0 && CarrySeen;
}

bool isEndAroundCarry(const WrappingOp &Op) {
  if (Op.Signed || Op.Op != CheckOp::Add)
    return false;
  // The branch form: Op is the sum, or the carry added to a checked sum.
  if (branchCarried(Op, nullptr))
    return true;
  for (const Value *S : {Op.LHS, Op.RHS})
    if (std::optional<WrappingOp> F = checkedSumOf(S, Op);
        F && branchCarried(*F, Op.Def))
      return true;
  // The carry addition s + zext(s < b): the first sum's wrap test, 0 or 1.
  auto CarryOf = [&](const Value *Carry, const Value *S) -> bool {
    while (const auto *Cast = dyn_cast<CastInst>(Carry)) {
      if (Cast->getOpcode() != Instruction::ZExt &&
          !(Cast->getOpcode() == Instruction::SExt &&
            !Cast->getSrcTy()->isIntegerTy(1)))
        return false;
      Carry = Cast->getOperand(0);
    }
    const auto *Cmp = dyn_cast<ICmpInst>(Carry);
    if (!Cmp || !Cmp->getType()->isIntegerTy(1))
      return false;
    std::optional<WrappingOp> F = checkedSumOf(S, Op);
    if (!F)
      return false;
    for (unsigned I = 0; I < 2; ++I)
      if (Cmp->getOperand(I) == S) {
        CompareVerdict V = classifyCompare(*Cmp, I, {}, *F);
        return V.separates() && V.WrapWhenTrue;
      }
    return false;
  };
  // The carry addition: it cannot wrap, since a wrapped s is below b and
  // the carry is then 1, otherwise 0.
  if (CarryOf(Op.RHS, Op.LHS) || CarryOf(Op.LHS, Op.RHS))
    return true;
  // The first sum: used only by its wrap test, whose outcome is only
  // added back to the sum, and by that carry addition.
  auto AddsTo = [&](const User *U) {
    if (const auto *WO = dyn_cast<WithOverflowInst>(U))
      return WO->getIntrinsicID() == Intrinsic::uadd_with_overflow &&
             (WO->getLHS() == Op.Result || WO->getRHS() == Op.Result);
    const auto *BO = dyn_cast<BinaryOperator>(U);
    return BO && BO->getOpcode() == Instruction::Add &&
           (BO->getOperand(0) == Op.Result || BO->getOperand(1) == Op.Result);
  };
  unsigned Carries = 0;
  for (const User *U : Op.Result->users()) {
    const auto *I = cast<Instruction>(U);
    if (isInstrumentation(*I))
      continue;
    if (const auto *Cmp = dyn_cast<ICmpInst>(I)) {
      if (!CarryOf(Cmp, Op.Result))
        return false;
      // Every use of the test, through casts, adds it to the sum.
      SmallVector<const User *, 4> Work(Cmp->users().begin(),
                                        Cmp->users().end());
      while (!Work.empty()) {
        const User *CU = Work.pop_back_val();
        if (isa<CastInst>(CU)) {
          Work.append(CU->user_begin(), CU->user_end());
          continue;
        }
        if (const auto *CI = dyn_cast<Instruction>(CU);
            CI && isInstrumentation(*CI))
          continue;
        if (!AddsTo(CU))
          return false;
      }
      continue;
    }
    if (!AddsTo(I))
      return false;
    const Value *Other = I->getOperand(0) == Op.Result ? I->getOperand(1)
                                                       : I->getOperand(0);
    if (!CarryOf(Other, Op.Result))
      return false;
    ++Carries;
  }
  return Carries > 0;
}

bool isRotateFold(const WrappingOp &Op, DemandedBits &DB) {
  if (Op.Signed || Op.Op != CheckOp::Add || !Op.LHS || !Op.RHS || !Op.DL)
    return false;
  const auto *Sum = dyn_cast<Instruction>(Op.Result);
  if (!Sum || !Sum->getType()->isIntegerTy())
    return false;
  unsigned N = Sum->getType()->getIntegerBitWidth();
  if (N < 2 || N % 2)
    return false;
  unsigned Half = N / 2;
  // Rot is X rotated by N/2: (X >> N/2) | (X << N/2) as written, or the
  // funnel shift instcombine makes of it (either direction: half a turn).
  auto IsHalfTurn = [&](const Value *Rot, const Value *X) {
    const Value *A = nullptr, *B = nullptr;
    if (match(Rot, m_c_Or(m_LShr(m_Value(A), m_SpecificInt(Half)),
                          m_Shl(m_Value(B), m_SpecificInt(Half)))) ||
        match(Rot, m_FShl(m_Value(A), m_Value(B), m_SpecificInt(Half))) ||
        match(Rot, m_FShr(m_Value(A), m_Value(B), m_SpecificInt(Half))))
      return sameValue(A, X, *Op.DL) && sameValue(B, X, *Op.DL);
    return false;
  };
  if (!IsHalfTurn(Op.RHS, Op.LHS) && !IsHalfTurn(Op.LHS, Op.RHS))
    return false;
  // With x = hi:lo, the low half of the sum is lo + hi, carry c, and the
  // high half hi + lo + c, whose carry out (the wrap) is c again: the high
  // half is hi +' lo, the one's complement sum, end-around carry included.
  // The fold is the design only if the program reads just that half.
  APInt Demanded = DB.getDemandedBits(const_cast<Instruction *>(Sum));
  return !Demanded.isZero() && Demanded.countr_zero() >= Half;
}

namespace {

/// If V is an unsigned difference x - m (checked or not), set M to m.
bool subtrahendOf(const Value *V, const Value *&M) {
  if (isa<ExtractValueInst>(V)) {
    const WithOverflowInst *WO = checkedUSubOf(V);
    if (!WO)
      return false;
    M = WO->getRHS();
    return true;
  }
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO || BO->getOpcode() != Instruction::Sub)
    return false;
  M = BO->getOperand(1);
  return true;
}

/// An unsigned addition of V and something else (checked or not): the
/// something else.
const Value *addendBeside(const User *U, const Value *V) {
  if (const auto *WO = dyn_cast<WithOverflowInst>(U)) {
    if (WO->getIntrinsicID() != Intrinsic::uadd_with_overflow)
      return nullptr;
    return WO->getLHS() == V ? WO->getRHS() : WO->getLHS();
  }
  const auto *BO = dyn_cast<BinaryOperator>(U);
  if (!BO || BO->getOpcode() != Instruction::Add)
    return nullptr;
  return BO->getOperand(0) == V ? BO->getOperand(1) : BO->getOperand(0);
}

} // namespace

/// (x - m) + m, ALIGN_DOWN(x, a) = ((x - (a - 1)) + (a - 1)) & ~(a - 1):
/// modulo 2^N the sum is x itself. The addition wraps exactly when the
/// subtraction did, and undoes it: its check can go (a wrap of the
/// subtraction is still the subtraction's check to report). The
/// subtraction's check can go when the difference reaches nothing but such
/// additions. Unsigned only: a signed wrap is undefined unless -fwrapv.
bool isAddBack(const WrappingOp &Op) {
  if (Op.Signed)
    return false;
  if (Op.Op == CheckOp::Add) {
    const Value *M;
    return (subtrahendOf(Op.LHS, M) && sameValue(M, Op.RHS, *Op.DL)) ||
           (subtrahendOf(Op.RHS, M) && sameValue(M, Op.LHS, *Op.DL));
  }
  if (Op.Op != CheckOp::Sub)
    return false;
  unsigned AddsBack = 0;
  for (const User *U : Op.Result->users()) {
    if (isInstrumentation(*cast<Instruction>(U)))
      continue;
    const Value *Other = addendBeside(U, Op.Result);
    if (!Other || !sameValue(Other, Op.RHS, *Op.DL))
      return false;
    ++AddsBack;
  }
  return AddsBack > 0;
}

// The rows of Idioms.def whose proof is here.

bool endAroundCarry(RuleInput &In) { return isEndAroundCarry(*In.Op); }

bool rotateFold(RuleInput &In) {
  return isRotateFold(*In.Op, In.Facts.demandedBits());
}

/// The pair as one sum: its only test, or the data-flow proof of it.
bool endInclusive(RuleInput &In) {
  std::optional<WrappingOp> End = endInclusiveOf(*In.Op);
  if (!End)
    return false;
  std::string Why;
  if (onlyUsedByWrapTests(*End, Why))
    return true;
  PathVerdict PV = In.Facts.followWrapped(*End);
  return PV.Kind == Idiom::GuardedUse || PV.Kind == Idiom::BoundsAndWrap;
}

bool addBack(RuleInput &In) { return isAddBack(*In.Op); }

} // namespace wrapidiom
