//===- WrapTest.cpp - How a comparison or branch relates to a wrap --------===//
//
// Part of wrapidiom. See WrapTest.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/WrapTest.h"

#include "llvm/Analysis/SimplifyQuery.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace wrapidiom {

StringRef WrappingOp::noun() const {
  switch (Op) {
  case CheckOp::Add:
    return "sum";
  case CheckOp::Sub:
    return "difference";
  case CheckOp::Mul:
    return "product";
  case CheckOp::Neg:
    return "negation";
  case CheckOp::Ptr:
    return "pointer";
  }
  return "result";
}

StringRef WrappingOp::againstNoun() const {
  switch (Op) {
  case CheckOp::Add:
    return "an addend";
  case CheckOp::Sub:
  case CheckOp::Neg:
    return "its minuend";
  case CheckOp::Mul:
    return "a factor";
  case CheckOp::Ptr:
    return "its base";
  }
  return "an operand";
}

std::optional<WrappingOp> wrappingOpOf(const OverflowCheck &C,
                                       std::string &Why) {
  WrappingOp W;
  W.Op = C.Op;
  W.Signed = C.Signed;
  if (C.Op == CheckOp::Ptr) {
    W.Def = C.GEP;
    W.Result = C.GEP;
    W.LHS = C.GEP->getPointerOperand();
    W.DL = &C.GEP->getModule()->getDataLayout();
    W.SignedOffset = C.PtrSignedOffset;
    W.Subtraction = C.PtrSubtraction;
    if (!C.PtrAddressTest) {
      Why = "the pointer check's address comparison is not clang's";
      return std::nullopt;
    }
    return W;
  }
  W.Def = C.Arith;
  W.LHS = C.Arith->getArgOperand(0);
  W.RHS = C.Arith->getArgOperand(1);
  W.DL = &C.Arith->getModule()->getDataLayout();
  for (const User *U : C.Arith->users()) {
    const auto *EV = dyn_cast<ExtractValueInst>(U);
    if (!EV || EV->getNumIndices() != 1) {
      Why = "the overflow intrinsic's result is used whole";
      return std::nullopt;
    }
    if (*EV->idx_begin() != 0)
      continue; // the overflow bit: the check itself
    if (W.Result) {
      Why = "the result is extracted twice";
      return std::nullopt;
    }
    W.Result = EV;
  }
  if (!W.Result) {
    Why = (Twine("the ") + W.noun() + " is unused").str();
    return std::nullopt;
  }
  return W;
}

SimplifyQuery factsAt(const WrappingOp &Op, const Instruction *At) {
  // No undef that "could be anything": a proof must hold for every value.
  return SimplifyQuery(*Op.DL, /*TLI=*/nullptr, Op.DT, /*AC=*/nullptr, At,
                       /*UseInstrInfo=*/true, /*CanUseUndef=*/false, Op.DC);
}

ConstantRange unsignedRange(const Value *V, const WrappingOp &Op,
                            const Instruction *At) {
  SimplifyQuery Q = factsAt(Op, At);
#if LLVM_VERSION_MAJOR >= 20
  KnownBits Known = computeKnownBits(V, Q);
#else
  KnownBits Known = computeKnownBits(V, /*Depth=*/0, Q);
#endif
  return ConstantRange::fromKnownBits(Known, /*IsSigned=*/false);
}

ConstantRange rangeAt(const Value *V, bool Signed, const WrappingOp &Op,
                      const Instruction *At) {
  // How many dominating comparisons of V are read: what is left out only
  // leaves the range wider.
  constexpr unsigned MaxComparisons = 16;
  ConstantRange::PreferredRangeType Pref =
      Signed ? ConstantRange::Signed : ConstantRange::Unsigned;
  ConstantRange R =
      computeConstantRangeIncludingKnownBits(V, Signed, factsAt(Op, At));
  if (isa<Constant>(V) || !Op.DT)
    return R;
  // V's own comparisons (the DomConditionCache keeps a branch's
  // comparison only when its other side is a constant).
  unsigned Read = 0;
  for (const User *U : V->users()) {
    const auto *Cmp = dyn_cast<ICmpInst>(U);
    if (!Cmp || isInstrumentation(*Cmp))
      continue;
    unsigned Side = Cmp->getOperand(0) == V ? 0 : 1;
    for (const User *CU : Cmp->users()) {
      const auto *BI = dyn_cast<BranchInst>(CU);
      if (!BI || isInstrumentation(*BI) || R.isSingleElement() ||
          ++Read > MaxComparisons)
        continue;
      for (unsigned S = 0; S < 2; ++S) {
        BasicBlockEdge Edge(BI->getParent(), BI->getSuccessor(S));
        if (!Op.DT->dominates(Edge, At->getParent()))
          continue;
        CmpInst::Predicate P =
            S == 0 ? Cmp->getPredicate() : Cmp->getInversePredicate();
        if (Side == 1)
          P = CmpInst::getSwappedPredicate(P);
        ConstantRange Other = computeConstantRangeIncludingKnownBits(
            Cmp->getOperand(1 - Side), CmpInst::isSigned(P), factsAt(Op, BI));
        R = R.intersectWith(ConstantRange::makeAllowedICmpRegion(P, Other),
                            Pref);
      }
    }
  }
  return R;
}

namespace {

/// The sign of V where Cmp is: known bits, and the branch conditions that
/// dominate Cmp (`if (len < 0) return -EINVAL;`).
std::optional<bool> knownNonNegative(const Value *V, const ICmpInst &Cmp,
                                     const WrappingOp &Op) {
  SimplifyQuery Q = factsAt(Op, &Cmp);
  if (isKnownNonNegative(V, Q))
    return true;
  if (isKnownNegative(V, Q))
    return false;
  return std::nullopt;
}

/// Does a wrap of Op move its result up past the maximum (true) or down
/// past the minimum (false)? Unknown when that depends on a sign nothing
/// tells. Other is the operand the result is not compared with.
std::optional<bool> wrapDirection(const WrappingOp &Op, const Value *Other,
                                  const ICmpInst &Cmp) {
  bool Up = Op.Op != CheckOp::Sub; // a - b with b >= 0 wraps down
  if (Op.Op == CheckOp::Ptr) {
    if (Op.Subtraction)
      return false;
    if (!Op.SignedOffset)
      return true;
    // The offset is the sum of the scaled indices: its sign is known when
    // every index has the same known sign (struct field numbers are
    // non-negative constants).
    std::optional<bool> Sign;
    const auto *GEP = cast<GetElementPtrInst>(Op.Def);
    for (const Use &Idx : GEP->indices()) {
      if (const auto *C = dyn_cast<ConstantInt>(Idx); C && C->isZero())
        continue;
      std::optional<bool> S = knownNonNegative(Idx, Cmp, Op);
      if (!S || (Sign && *Sign != *S))
        return std::nullopt;
      Sign = S;
    }
    return Sign.value_or(true);
  }
  if (!Op.Signed)
    return Up;
  if (!Other)
    return std::nullopt;
  std::optional<bool> NonNegative = knownNonNegative(Other, Cmp, Op);
  if (!NonNegative)
    return std::nullopt;
  return *NonNegative ? Up : !Up;
}

/// Cmp tests the sign of a signed sum or difference (Pred with the result
/// on the left, at the compared width, C the constant): the verdict, when
/// the direction of the wrap is known. Chain holds only sign extensions,
/// which keep the sign.
std::optional<CompareVerdict> classifySignTest(const ICmpInst &Cmp,
                                               CmpInst::Predicate Pred,
                                               const ConstantInt *C,
                                               const CastChain &Chain,
                                               const WrappingOp &Op) {
  if (!C || !Op.Signed || (Op.Op != CheckOp::Add && Op.Op != CheckOp::Sub))
    return std::nullopt;
  for (const CastInst *Cast : Chain)
    if (Cast->getOpcode() != Instruction::SExt)
      return std::nullopt;
  unsigned W = C->getBitWidth();
  ConstantRange Region = ConstantRange::makeExactICmpRegion(Pred, C->getValue());
  ConstantRange Negative(APInt::getSignedMinValue(W), APInt::getZero(W));
  ConstantRange NonNegative(APInt::getZero(W), APInt::getSignedMinValue(W));
  bool TrueWhenNegative;
  if (Region == Negative)
    TrueWhenNegative = true;
  else if (Region == NonNegative)
    TrueWhenNegative = false;
  else
    return std::nullopt;
  // a + b wraps up when either addend is known non-negative, down when
  // either is known negative; a - b up when a >= 0 or b < 0, down when
  // a < 0 or b >= 0. Both known: only wrapped runs cross the sign.
  std::optional<bool> L = knownNonNegative(Op.LHS, Cmp, Op);
  std::optional<bool> R = knownNonNegative(Op.RHS, Cmp, Op);
  bool Sub = Op.Op == CheckOp::Sub;
  std::optional<bool> UpByL, UpByR;
  if (L)
    UpByL = *L;
  if (R)
    UpByR = Sub ? !*R : *R;
  CompareVerdict V;
  V.IsTest = true;
  if (!UpByL && !UpByR) {
    V.Why = "the sign test is inexact: the sign of neither operand is known";
    return V;
  }
  bool Up = UpByL ? *UpByL : *UpByR;
  if (UpByL && UpByR && *UpByL != *UpByR) {
    // Opposite directions: the operation cannot wrap at all. Keep it
    // simple and exact-free: the check never fires anyway.
    V.Why = "the operands' signs say the operation cannot wrap";
    return V;
  }
  V.OneSided = !(UpByL && UpByR);
  if (V.OneSided && !Up) {
    // A wrap down lands with the non-negative results, the ones a sign
    // test lets through: `s = a - b; if (s < 0) return -EINVAL;` with only
    // b >= 0 known sends a = LONG_MIN on as a valid difference. Only a
    // wrap up, landing among the negative results the test turns away
    // (`off + len < 0`, len >= 0), is handled by it.
    V.Why = "the sign test lets the wrap through: it wraps down, to the "
            "non-negative results, and the sign of only one operand is "
            "known";
    return V;
  }
  V.Exact = true;
  if (V.OneSided)
    V.Why = "the sign test is also passed by unwrapped runs: the sign of "
            "only one operand is known";
  // Wrapping up lands negative, wrapping down non-negative.
  V.WrapWhenTrue = Up == TrueWhenNegative;
  return V;
}

/// An unsigned sum compared *signed* with one of its addends, b, known
/// non-negative as signed where Cmp is (mm/fadvise.c generic_fadvise():
/// `endbyte = (u64)offset + (u64)len; if (!len || endbyte < len)`, after
/// `if (len < 0) return -EINVAL;`). With b < 2^(N-1), a + b reaches 2^N
/// only when a >= 2^(N-1), i.e. a is negative as signed; then the signed
/// a + b cannot overflow, and the wrapped sum read as signed is that true
/// a + b, below b. Every wrapped run finds s <s b; an unwrapped run with a
/// negative a does too: a test to leave by (guarded-use), not one to stand
/// for the check. Chain holds only sign extensions (a zero extension makes
/// the comparison unsigned), which keep the signed order.
std::optional<CompareVerdict>
classifySignedCompareOfSum(const ICmpInst &Cmp, CmpInst::Predicate Pred,
                           const Value *X, const CastChain &Chain,
                           const WrappingOp &Op) {
  if (Op.Signed || Op.Op != CheckOp::Add || !X)
    return std::nullopt;
  for (const CastInst *Cast : Chain)
    if (Cast->getOpcode() != Instruction::SExt)
      return std::nullopt;
  if (!sameValue(X, Op.LHS, *Op.DL) && !sameValue(X, Op.RHS, *Op.DL))
    return std::nullopt;
  if (knownNonNegative(X, Cmp, Op) != std::optional<bool>(true))
    return std::nullopt; // as any signed comparison of an unsigned sum
  CompareVerdict V;
  V.IsTest = V.Exact = V.OneSided = true;
  V.WrapWhenTrue = Pred == CmpInst::ICMP_SLT || Pred == CmpInst::ICMP_SLE;
  V.Why = "the signed comparison of the unsigned sum with an addend is also "
          "passed by unwrapped runs: the other addend may be negative";
  return V;
}

} // namespace

namespace {

/// `s == 0` for an unsigned s = x + 2^t whose x is a multiple of 2^t (its
/// known trailing zero bits): x + 2^t <= 2^N, so it wraps only to 0, and an
/// unwrapped sum is at least 2^t: s is 0 exactly when it wrapped
/// (free_pgd_range()'s `addr &= PMD_MASK; addr += PMD_SIZE; if (!addr)`).
/// A zero extension keeps the test; a truncation would not.
bool isAlignedStepZeroTest(const ICmpInst &Cmp, unsigned ResultOperand,
                           const CastChain &Chain, const WrappingOp &Op) {
  if (Op.Op != CheckOp::Add || Op.Signed || !Op.RHS ||
      !match(Cmp.getOperand(1 - ResultOperand), m_Zero()))
    return false;
  for (const CastInst *Cast : Chain)
    if (Cast->getOpcode() != Instruction::ZExt)
      return false;
  for (unsigned K = 0; K < 2; ++K) {
    const Value *X = K ? Op.RHS : Op.LHS, *Step = K ? Op.LHS : Op.RHS;
    const auto *C = dyn_cast<ConstantInt>(Step);
    if (!C || !C->getValue().isPowerOf2())
      continue;
    SimplifyQuery Q = factsAt(Op, &Cmp);
#if LLVM_VERSION_MAJOR >= 20
    KnownBits Known = computeKnownBits(X, Q);
#else
    KnownBits Known = computeKnownBits(X, /*Depth=*/0, Q);
#endif
    if (Known.countMinTrailingZeros() >= C->getValue().logBase2())
      return true;
  }
  return false;
}

} // namespace

CompareVerdict classifyCompare(const ICmpInst &Cmp, unsigned ResultOperand,
                               const CastChain &Chain, const WrappingOp &Op) {
  CompareVerdict V;
  std::string Noun = ("the " + Op.noun()).str();
  if (!Cmp.isRelational()) {
    if (isAlignedStepZeroTest(Cmp, ResultOperand, Chain, Op)) {
      V.IsTest = V.Exact = true;
      V.WrapWhenTrue = Cmp.getPredicate() == CmpInst::ICMP_EQ;
      return V;
    }
    V.Why = Noun + " is tested for equality, which is not a wrap test";
    return V;
  }
  // The predicate with the result on the left, as it applies to the
  // uncasted values: comparing zero-extended values is an unsigned
  // comparison of the originals; sign extension preserves both orders.
  CmpInst::Predicate Pred = Cmp.getPredicate();
  if (ResultOperand == 1)
    Pred = CmpInst::getSwappedPredicate(Pred);
  bool Unsigned = ICmpInst::isUnsigned(Pred);
  for (const CastInst *Cast : Chain)
    if (Cast->getOpcode() == Instruction::ZExt)
      Unsigned = true;
  // What the result is compared with, as the uncasted values compare.
  const Value *X = peelLikeChain(Cmp.getOperand(1 - ResultOperand), Chain);
  if (Unsigned == Op.Signed) {
    if (!Unsigned)
      if (std::optional<CompareVerdict> S =
              classifySignedCompareOfSum(Cmp, Pred, X, Chain, Op))
        return *S;
    V.Why = Noun + " is compared " + (Unsigned ? "unsigned" : "signed") +
            ", the operation is " + (Op.Signed ? "signed" : "unsigned");
    return V;
  }
  const Value *Other = nullptr; // the operand not compared with
  bool Matched = false;
  if (X) {
    switch (Op.Op) {
    case CheckOp::Add:
      if (sameValue(X, Op.LHS, *Op.DL)) {
        Matched = true;
        Other = Op.RHS;
      } else if (Op.RHS && sameValue(X, Op.RHS, *Op.DL)) {
        Matched = true;
        Other = Op.LHS;
      }
      break;
    case CheckOp::Sub:
      Matched = sameValue(X, Op.LHS, *Op.DL);
      Other = Op.RHS;
      break;
    case CheckOp::Ptr:
      Matched = sameValue(X, Op.LHS, *Op.DL);
      break;
    case CheckOp::Mul:
    case CheckOp::Neg:
      break;
    }
  }
  if (!Matched) {
    const auto *C = dyn_cast<ConstantInt>(Cmp.getOperand(1 - ResultOperand));
    if (std::optional<CompareVerdict> S =
            classifySignTest(Cmp, Pred, C, Chain, Op))
      return *S;
    V.Why = (Noun + " is compared with a value that is not " +
             Op.againstNoun())
                .str();
    return V;
  }
  V.IsTest = true;
  bool Less = Pred == CmpInst::ICMP_ULT || Pred == CmpInst::ICMP_ULE ||
              Pred == CmpInst::ICMP_SLT || Pred == CmpInst::ICMP_SLE;
  // Which way a wrap moves the result: up past the maximum, landing below
  // the operand it is compared with, or down past the minimum, landing
  // above it.
  std::optional<bool> WrapsUp = wrapDirection(Op, Other, Cmp);
  if (!WrapsUp) {
    V.Why = Op.Op == CheckOp::Ptr
                ? "the pointer test is inexact: the offset may be negative"
                : "the signed wrap test is inexact: the other operand may "
                  "be negative";
    return V;
  }
  V.Exact = true;
  V.WrapWhenTrue = *WrapsUp ? Less : !Less;
  return V;
}

CompareVerdict classifyDivisionTest(const ICmpInst &Cmp,
                                    const WrappingOp &Op) {
  CompareVerdict V;
  if (Op.Op != CheckOp::Mul || Op.Signed || !Cmp.isEquality())
    return V;
  for (unsigned I = 0; I < 2; ++I) {
    const auto *Div = dyn_cast<BinaryOperator>(Cmp.getOperand(I));
    if (!Div || Div->getOpcode() != Instruction::UDiv ||
        !sameValue(Div->getOperand(0), Op.Result, *Op.DL))
      continue;
    const Value *X = Div->getOperand(1);
    const Value *Y = Cmp.getOperand(1 - I);
    const DataLayout &DL = *Op.DL;
    if ((sameValue(X, Op.LHS, DL) && sameValue(Y, Op.RHS, DL)) ||
        (sameValue(X, Op.RHS, DL) && sameValue(Y, Op.LHS, DL))) {
      V.IsTest = V.Exact = true;
      V.WrapWhenTrue = Cmp.getPredicate() == CmpInst::ICMP_NE;
      return V;
    }
  }
  return V;
}

const Value *peelCondition(const Value *Cond, bool &Negated) {
  Negated = false;
  while (true) {
    const Value *Inner;
    if (match(Cond, m_Xor(m_Value(Inner), m_One())) &&
        Inner->getType()->isIntegerTy(1)) {
      Negated = !Negated;
      Cond = Inner;
      continue;
    }
    const auto *Cmp = dyn_cast<ICmpInst>(Cond);
    if (Cmp && Cmp->isEquality() && match(Cmp->getOperand(1), m_Zero())) {
      CmpInst::Predicate Pred = Cmp->getPredicate();
      // unlikely(c) at -O2 is llvm.expect(zext c); __builtin_expect(c, 0)
      // at -O0 is sext(zext c) after the integer promotions.
      const Value *W = Cmp->getOperand(0);
      while (true) {
        if (const auto *II = dyn_cast<IntrinsicInst>(W))
          if (II->getIntrinsicID() == Intrinsic::expect) {
            W = II->getArgOperand(0);
            continue;
          }
        const auto *Cast = dyn_cast<CastInst>(W);
        if (Cast && (Cast->getOpcode() == Instruction::SExt ||
                     Cast->getOpcode() == Instruction::ZExt) &&
            !Cast->getSrcTy()->isIntegerTy(1)) {
          W = Cast->getOperand(0);
          continue;
        }
        break;
      }
      if (match(W, m_ZExt(m_Value(Inner))) &&
          Inner->getType()->isIntegerTy(1)) {
        if (Pred == CmpInst::ICMP_EQ)
          Negated = !Negated;
        Cond = Inner;
        continue;
      }
    }
    return Cond;
  }
}

namespace {

/// The range an operand must lie in for the operation to wrap (unsigned).
std::optional<ConstantRange> rangeUnderWrap(const WrappingOp &Op,
                                            bool OfLHS) {
  if (Op.Signed || Op.Op == CheckOp::Ptr)
    return std::nullopt;
  unsigned N = Op.LHS->getType()->getIntegerBitWidth();
  const auto *OtherC = dyn_cast_or_null<ConstantInt>(OfLHS ? Op.RHS : Op.LHS);
  APInt Zero = APInt::getZero(N);
  switch (Op.Op) {
  case CheckOp::Add:
    // x + c wraps iff x >= 2^N - c.
    if (!OtherC || OtherC->isZero())
      return std::nullopt;
    return ConstantRange(-OtherC->getValue(), Zero);
  case CheckOp::Sub:
  case CheckOp::Neg:
    if (!OtherC)
      return std::nullopt;
    if (OfLHS) // x - c wraps iff x < c
      return OtherC->isZero() ? std::nullopt
                              : std::optional<ConstantRange>(
                                    ConstantRange(Zero, OtherC->getValue()));
    // c - x wraps iff x > c
    if (OtherC->getValue().isMaxValue())
      return std::nullopt;
    return ConstantRange(OtherC->getValue() + 1, Zero);
  case CheckOp::Mul: {
    // x * y wraps only if x != 0; with y = c >= 2, only if x > MAX / c.
    if (OtherC && OtherC->getValue().ugt(1))
      return ConstantRange(APInt::getMaxValue(N).udiv(OtherC->getValue()) + 1,
                           Zero);
    return ConstantRange(APInt(N, 1), Zero);
  }
  case CheckOp::Ptr:
    break;
  }
  return std::nullopt;
}

} // namespace

std::optional<bool> decidedByWrap(const Value *Cond, const WrappingOp &Op) {
  bool Negated;
  const auto *Cmp = dyn_cast<ICmpInst>(peelCondition(Cond, Negated));
  if (!Cmp)
    return std::nullopt;
  for (unsigned I = 0; I < 2; ++I) {
    const auto *C = dyn_cast<ConstantInt>(Cmp->getOperand(1 - I));
    if (!C)
      continue;
    // Look through widening of the operand.
    const Value *Y = Cmp->getOperand(I);
    SmallVector<const CastInst *, 2> Casts;
    while (const auto *Cast = dyn_cast<CastInst>(Y)) {
      if (Cast->getOpcode() != Instruction::ZExt &&
          Cast->getOpcode() != Instruction::SExt)
        break;
      Casts.push_back(Cast);
      Y = Cast->getOperand(0);
    }
    std::optional<ConstantRange> R;
    if (sameValue(Y, Op.LHS, *Op.DL))
      R = rangeUnderWrap(Op, /*OfLHS=*/true);
    else if (Op.RHS && sameValue(Y, Op.RHS, *Op.DL))
      R = rangeUnderWrap(Op, /*OfLHS=*/false);
    if (!R || R->isEmptySet())
      continue;
    for (auto It = Casts.rbegin(); It != Casts.rend(); ++It) {
      unsigned W = (*It)->getDestTy()->getIntegerBitWidth();
      R = (*It)->getOpcode() == Instruction::ZExt ? R->zeroExtend(W)
                                                   : R->signExtend(W);
    }
    CmpInst::Predicate Pred = Cmp->getPredicate();
    if (I == 1)
      Pred = CmpInst::getSwappedPredicate(Pred);
    ConstantRange True =
        ConstantRange::makeExactICmpRegion(Pred, C->getValue());
    if (True.contains(*R))
      return !Negated;
    if (True.intersectWith(*R).isEmptySet())
      return Negated;
  }
  return std::nullopt;
}

} // namespace wrapidiom
