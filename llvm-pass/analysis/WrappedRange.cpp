//===- WrappedRange.cpp - What a wrapped value can be, and what it decides ===//
//
// Part of wrapidiom. See WrappedRange.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/WrappedRange.h"

#include "checks/OverflowCheck.h"
#include "analysis/ValueEquivalence.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace wrapidiom {

namespace {

/// The largest number of values collectWrappedRanges() follows.
constexpr unsigned MaxRanged = 32;

/// A + K or A - K as the program computes it, plain or checked: the
/// operation and its constant.
struct ConstStep {
  Instruction::BinaryOps Opcode;
  const Value *A = nullptr;
  const ConstantInt *K = nullptr;
  bool KFirst = false; // K - A
};

std::optional<ConstStep> constStep(const Value *V) {
  const Value *L, *R;
  Instruction::BinaryOps Opcode;
  if (const auto *BO = dyn_cast<BinaryOperator>(V)) {
    Opcode = BO->getOpcode();
    L = BO->getOperand(0);
    R = BO->getOperand(1);
  } else if (const auto *EV = dyn_cast<ExtractValueInst>(V);
             EV && *EV->idx_begin() == 0) {
    const auto *WO = dyn_cast<WithOverflowInst>(EV->getAggregateOperand());
    if (!WO)
      return std::nullopt;
    Opcode = WO->getBinaryOp();
    L = WO->getLHS();
    R = WO->getRHS();
  } else {
    return std::nullopt;
  }
  if (Opcode != Instruction::Add && Opcode != Instruction::Sub)
    return std::nullopt;
  if (const auto *K = dyn_cast<ConstantInt>(R))
    return ConstStep{Opcode, L, K, false};
  if (const auto *K = dyn_cast<ConstantInt>(L))
    return ConstStep{Opcode, R, K, true};
  return std::nullopt;
}

/// Is M the mask `~(S - 1)` or `-S` of some S the same value as Pow2?
bool isMaskAbove(const Value *M, const Value *Pow2, const DataLayout &DL) {
  const auto *X = dyn_cast<BinaryOperator>(M);
  if (X && X->getOpcode() == Instruction::Xor) {
    const Value *D = nullptr;
    for (unsigned I = 0; I < 2; ++I)
      if (const auto *K = dyn_cast<ConstantInt>(X->getOperand(1 - I));
          K && K->isMinusOne())
        D = X->getOperand(I);
    std::optional<ConstStep> Dec = D ? constStep(D) : std::nullopt;
    if (!Dec || Dec->KFirst)
      return false;
    bool MinusOne = Dec->Opcode == Instruction::Sub ? Dec->K->isOne()
                                                    : Dec->K->isMinusOne();
    return MinusOne && sameValue(Dec->A, Pow2, DL);
  }
  std::optional<ConstStep> Neg = constStep(M);
  return Neg && Neg->KFirst && Neg->Opcode == Instruction::Sub &&
         Neg->K->isZero() && sameValue(Neg->A, Pow2, DL);
}

/// Width of the unbounded values (signed): room for any N <= 64 and the
/// few constant steps followed.
constexpr unsigned IdealBits = 256;

/// An unsigned constant as a number; as a mask with its top bit set, the
/// mask of unbounded width (`~(C - 1)` clears the low bits, keeps the rest).
ConstantRange idealConstant(const APInt &K, bool Mask) {
  return ConstantRange(Mask && K.isNegative() ? K.sext(IdealBits)
                                              : K.zext(IdealBits));
}

/// Drop an unbounded range that might have outgrown IdealBits.
std::optional<ConstantRange> bounded(const ConstantRange &I) {
  APInt Limit = APInt::getOneBitSet(IdealBits, IdealBits - 8);
  if (I.isFullSet() || I.isSignWrappedSet() || I.getSignedMin().slt(-Limit) ||
      I.getSignedMax().sgt(Limit))
    return std::nullopt;
  return I;
}

/// V op K (or K op V when KFirst), for a binary operator by a constant.
std::optional<WrappedValue> step(Instruction::BinaryOps Opcode,
                                 const WrappedValue &V, const APInt &K,
                                 bool KFirst) {
  ConstantRange KR(K);
  const ConstantRange &R = V.Machine;
  const std::optional<ConstantRange> &I = V.Ideal;
  auto Id = [&](auto F) -> std::optional<ConstantRange> {
    return I ? bounded(F(*I)) : std::nullopt;
  };
  switch (Opcode) {
  case Instruction::And:
    return WrappedValue{R.binaryAnd(KR), Id([&](const ConstantRange &X) {
                          return X.binaryAnd(idealConstant(K, true));
                        })};
  case Instruction::Or:
    return WrappedValue{R.binaryOr(KR), Id([&](const ConstantRange &X) {
                          return X.binaryOr(idealConstant(K, true));
                        })};
  case Instruction::Xor:
    return WrappedValue{R.binaryXor(KR), Id([&](const ConstantRange &X) {
                          return X.binaryXor(idealConstant(K, true));
                        })};
  case Instruction::Add:
    return WrappedValue{R.add(KR), Id([&](const ConstantRange &X) {
                          return X.add(idealConstant(K, false));
                        })};
  case Instruction::Sub:
    return WrappedValue{
        KFirst ? KR.sub(R) : R.sub(KR), Id([&](const ConstantRange &X) {
          ConstantRange IK = idealConstant(K, false);
          return KFirst ? IK.sub(X) : X.sub(IK);
        })};
  case Instruction::Shl:
    if (KFirst)
      return std::nullopt;
    return WrappedValue{R.shl(KR), std::nullopt};
  case Instruction::LShr: // floor division, of negative values too
    if (KFirst)
      return std::nullopt;
    return WrappedValue{R.lshr(KR), Id([&](const ConstantRange &X) {
                          return X.ashr(ConstantRange(K.zext(IdealBits)));
                        })};
  case Instruction::AShr:
    if (KFirst)
      return std::nullopt;
    return WrappedValue{R.ashr(KR), std::nullopt};
  default:
    return std::nullopt;
  }
}

/// V = `(x + C) & M` of a checked addition: its value (the only one the
/// program extracts), and M.
const ExtractValueInst *maskedSum(const Value *V, const Value *&M) {
  const auto *And = dyn_cast<BinaryOperator>(V);
  if (!And || And->getOpcode() != Instruction::And)
    return nullptr;
  for (unsigned I = 0; I < 2; ++I) {
    const auto *EV = dyn_cast<ExtractValueInst>(And->getOperand(I));
    const auto *WO =
        EV ? dyn_cast<WithOverflowInst>(EV->getAggregateOperand()) : nullptr;
    if (!WO || WO->getIntrinsicID() != Intrinsic::uadd_with_overflow ||
        EV->getNumIndices() != 1 || *EV->idx_begin() != 0)
      continue;
    bool Other = llvm::any_of(WO->users(), [&](const User *U) {
      const auto *E = dyn_cast<ExtractValueInst>(U);
      return U != EV && (!E || *E->idx_begin() == 0);
    });
    if (Other)
      continue;
    M = And->getOperand(1 - I);
    return EV;
  }
  return nullptr;
}

} // namespace

std::optional<APInt> halfBoundedSubtrahend(const WrappingOp &Op) {
  if (Op.Signed || Op.Op != CheckOp::Sub || !Op.RHS ||
      !Op.RHS->getType()->isIntegerTy())
    return std::nullopt;
  unsigned N = Op.RHS->getType()->getIntegerBitWidth();
  APInt B = unsignedRange(Op.RHS, Op, Op.Def).getUnsignedMax();
  if (B.isZero() || B.ugt(APInt::getSignedMinValue(N)))
    return std::nullopt;
  return B;
}

namespace {
/// The constant of `x + C`, `C + x`, `x - C` (unsigned, C != 0, at most 64
/// bits), the operations whose wrapped result has a range of its own.
const ConstantInt *constantStep(const WrappingOp &Op) {
  if (Op.Signed || (Op.Op != CheckOp::Add && Op.Op != CheckOp::Sub) ||
      !Op.RHS || !Op.Result->getType()->isIntegerTy() ||
      Op.Result->getType()->getIntegerBitWidth() > 64)
    return nullptr;
  const auto *C = dyn_cast<ConstantInt>(Op.RHS);
  if (!C && Op.Op == CheckOp::Add)
    C = dyn_cast<ConstantInt>(Op.LHS);
  return C && !C->isZero() ? C : nullptr;
}
} // namespace

std::optional<WrappedValue> wrappedResult(const WrappingOp &Op) {
  const ConstantInt *C = constantStep(Op);
  if (!C)
    return std::nullopt;
  // x + C wraps to [0, C - 1], which is 2^N less than the unbounded sum;
  // x - C to [-C, -1], 2^N more than the unbounded difference.
  unsigned N = Op.Result->getType()->getIntegerBitWidth();
  APInt Zero = APInt::getZero(N);
  APInt TwoN = APInt::getOneBitSet(IdealBits, N);
  APInt IC = C->getValue().zext(IdealBits);
  if (Op.Op == CheckOp::Add)
    return WrappedValue{ConstantRange(Zero, C->getValue()),
                        ConstantRange(TwoN, TwoN + IC)};
  return WrappedValue{ConstantRange(-C->getValue(), Zero),
                      ConstantRange(-IC, APInt::getZero(IdealBits))};
}

RangeSeed collectWrappedRanges(const WrappingOp &Op, RangeMap &Ranged) {
  if (Op.Signed || (Op.Op != CheckOp::Add && Op.Op != CheckOp::Sub) ||
      !Op.RHS || !Op.Result->getType()->isIntegerTy())
    return RangeSeed::None;
  unsigned N = Op.Result->getType()->getIntegerBitWidth();
  if (N > 64)
    return RangeSeed::None;
  RangeSeed Seed = RangeSeed::None;
  APInt Zero = APInt::getZero(N);
  APInt TwoN = APInt::getOneBitSet(IdealBits, N);
  SmallVector<std::pair<const Value *, WrappedValue>, 8> Work;
  const auto *C = dyn_cast<ConstantInt>(Op.RHS);
  if (!C && Op.Op == CheckOp::Add)
    C = dyn_cast<ConstantInt>(Op.LHS);
  if (std::optional<WrappedValue> W = wrappedResult(Op)) {
    Seed = RangeSeed::Constant;
    Work.push_back({Op.Result, *W});
  } else if (!C && Op.Op == CheckOp::Sub) {
    // x - y wraps only when y > x, to x - y + 2^N: with y at most B, into
    // [2^N - B, 2^N - 1], i.e. [-B, -1]; the unbounded difference is the
    // same range, 2^N less. When B is at most 2^(N-1), every wrapped
    // difference is negative as signed: `(long)(pgoff - ra_pages / 2) < 0`
    // (mm/filemap.c's read-around under max_t(long, 0, ...)) is then a test
    // every wrapped run answers the same way. The difference itself is
    // ranged too, so that its own comparisons are asked (they are not wrap
    // tests of the exact kind: unwrapped runs may take the same side).
    if (std::optional<APInt> B = halfBoundedSubtrahend(Op)) {
      WrappedValue W{ConstantRange(-*B, Zero),
                     ConstantRange(-B->zext(IdealBits),
                                   APInt::getZero(IdealBits))};
      Ranged.try_emplace(Op.Result, W);
      Work.push_back({Op.Result, W});
      Seed = RangeSeed::Bounded;
    }
  } else if (!C && Op.Op == CheckOp::Add) {
    // A wrapped sum is below both addends; below a power of two S it has
    // no bit at or above S's, and `& ~(S - 1)` leaves none. Unbounded, the
    // sum is in [2^N, 2^N + S), which the mask makes 2^N.
    for (const User *U : Op.Result->users()) {
      const auto *And = dyn_cast<BinaryOperator>(U);
      if (!And || And->getOpcode() != Instruction::And)
        continue;
      const Value *M = And->getOperand(And->getOperand(0) == Op.Result);
      for (const Value *S : {Op.LHS, Op.RHS})
        if (isKnownToBeAPowerOfTwo(S, *Op.DL) && isMaskAbove(M, S, *Op.DL)) {
          Work.push_back({And, {ConstantRange(Zero), ConstantRange(TwoN)}});
          Seed = RangeSeed::Constant;
          break;
        }
    }
  }
  while (!Work.empty()) {
    auto [V, R] = Work.pop_back_val();
    if (V != Op.Result && !Ranged.try_emplace(V, R).second)
      continue;
    if (Ranged.size() > MaxRanged)
      return Seed; // what is not followed is no test, and its uses fail
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || isInstrumentation(*I))
        continue;
      if (const auto *WO = dyn_cast<WithOverflowInst>(I)) {
        // A checked `v + K`, `v - K`, `K - v`: the call is the value too.
        for (const User *WU : WO->users())
          if (std::optional<ConstStep> S = constStep(WU); S && S->A == V)
            if (std::optional<WrappedValue> Next =
                    step(S->Opcode, R, S->K->getValue(), S->KFirst)) {
              Work.push_back({WO, *Next});
              Work.push_back({WU, *Next});
            }
        continue;
      }
      if (const auto *Cast = dyn_cast<CastInst>(I)) {
        if (!Cast->getType()->isIntegerTy())
          continue;
        unsigned W = Cast->getType()->getIntegerBitWidth();
        if (W > 64)
          continue;
        switch (Cast->getOpcode()) {
        case Instruction::ZExt: // the same number
          Work.push_back({I, {R.Machine.zeroExtend(W), R.Ideal}});
          break;
        case Instruction::SExt:
          Work.push_back({I, {R.Machine.signExtend(W), std::nullopt}});
          break;
        case Instruction::Trunc: { // modular on purpose: the bits it keeps
          ConstantRange T = R.Machine.truncate(W);
          Work.push_back({I, {T, T.zeroExtend(IdealBits)}});
          break;
        }
        default:
          break;
        }
        continue;
      }
      const auto *BO = dyn_cast<BinaryOperator>(I);
      if (!BO)
        continue;
      bool VFirst = BO->getOperand(0) == V;
      const auto *K = dyn_cast<ConstantInt>(BO->getOperand(VFirst ? 1 : 0));
      if (!K)
        continue;
      if (std::optional<WrappedValue> Next =
              step(BO->getOpcode(), R, K->getValue(), !VFirst))
        Work.push_back({I, *Next});
    }
  }
  return Seed;
}

namespace {

/// Is X P Y for every pair of their values (true), for none (false)?
std::optional<bool> outcome(const ConstantRange &X, CmpInst::Predicate P,
                            const ConstantRange &Y) {
  if (X.icmp(P, Y))
    return true;
  if (X.icmp(CmpInst::getInversePredicate(P), Y))
    return false;
  return std::nullopt;
}

/// Cmp with operand I on the left: its predicate, and the values of the
/// other operand (its constant, or anything of its type); none when the
/// other operand is no integer of V's width.
std::optional<std::pair<CmpInst::Predicate, ConstantRange>>
comparedWith(const ICmpInst &Cmp, unsigned I, const WrappedValue &V) {
  const ConstantRange &R = V.Machine;
  const Value *Other = Cmp.getOperand(1 - I);
  if (R.isEmptySet() || !Other->getType()->isIntegerTy() ||
      Other->getType()->getIntegerBitWidth() != R.getBitWidth())
    return std::nullopt;
  CmpInst::Predicate Pred =
      I == 0 ? Cmp.getPredicate() : Cmp.getSwappedPredicate();
  if (const auto *K = dyn_cast<ConstantInt>(Other))
    return std::make_pair(Pred, ConstantRange(K->getValue()));
  return std::make_pair(Pred, ConstantRange::getFull(R.getBitWidth()));
}

} // namespace

std::optional<bool> wrappedOutcome(const ICmpInst &Cmp, unsigned I,
                                   const WrappedValue &V) {
  auto C = comparedWith(Cmp, I, V);
  return C ? outcome(V.Machine, C->first, C->second) : std::nullopt;
}

std::optional<bool> idealOutcome(const ICmpInst &Cmp, unsigned I,
                                 const WrappedValue &V) {
  auto C = comparedWith(Cmp, I, V);
  if (!C || !V.Ideal)
    return std::nullopt;
  // Numbers compared. With anything but a constant, for every value of its
  // type, read unsigned.
  auto [Pred, Other] = *C;
  if (!Other.isSingleElement() && !ICmpInst::isUnsigned(Pred) &&
      !ICmpInst::isEquality(Pred))
    return std::nullopt;
  bool Signed = ICmpInst::isSigned(Pred);
  return outcome(*V.Ideal,
                 ICmpInst::isEquality(Pred) || Signed
                     ? Pred
                     : ICmpInst::getSignedPredicate(Pred),
                 Signed ? Other.signExtend(IdealBits)
                        : Other.zeroExtend(IdealBits));
}

std::optional<bool> fixedOutcome(const ICmpInst &Cmp, unsigned I,
                                 const WrappedValue &V) {
  auto C = comparedWith(Cmp, I, V);
  if (!C)
    return std::nullopt;
  auto [Pred, Other] = *C;
  std::optional<bool> Machine = outcome(V.Machine, Pred, Other);
  if (!Machine)
    return std::nullopt;
  // As the unbounded value would be answered: the wrap then decides
  // nothing.
  if (std::optional<bool> Ideal = idealOutcome(Cmp, I, V);
      Ideal && *Ideal == *Machine)
    return Machine;
  // With a constant, answered otherwise than the unbounded value would be:
  // a test of the wrap only if the side wrapped runs take holds no value
  // but wrapped ones (PAGE_ALIGN(len) == 0: {0}), so that an unwrapped run
  // takes it only by coinciding with one. Not a bound whose side they
  // share with every large unwrapped value: `if (len - 16 < 56) return
  // -EINVAL;` lets len < 16 through to the body, as if it were long.
  if (!Other.isSingleElement())
    return std::nullopt;
  ConstantRange Side = ConstantRange::makeExactICmpRegion(
      *Machine ? Pred : ICmpInst::getInversePredicate(Pred),
      *Other.getSingleElement());
  if (V.Machine.contains(Side))
    return Machine;
  return std::nullopt;
}

std::optional<WrappingOp> maskedSumWrapsFirst(const WrappingOp &Op) {
  const auto *K = dyn_cast_or_null<ConstantInt>(Op.RHS);
  const Value *M = nullptr;
  const ExtractValueInst *EV = nullptr;
  if (Op.Signed || Op.Op != CheckOp::Sub || !K || K->isZero() ||
      !(EV = maskedSum(Op.LHS, M)))
    return std::nullopt;
  const auto *Sum = cast<WithOverflowInst>(EV->getAggregateOperand());
  WrappingOp Add = Op;
  Add.Op = CheckOp::Add;
  Add.Def = Sum;
  Add.Result = EV;
  Add.LHS = Sum->getLHS();
  Add.RHS = Sum->getRHS();
  // Unwrapped, x + C >= C, and rounding down keeps the order.
  if (const auto *MC = dyn_cast<ConstantInt>(M);
      MC && MC->getValue().isNegatedPowerOf2()) {
    for (const Value *A : {Add.LHS, Add.RHS})
      if (const auto *CA = dyn_cast<ConstantInt>(A);
          CA && (CA->getValue() & MC->getValue()).uge(K->getValue()))
        return Add;
    return std::nullopt;
  }
  // `& ~(S - 1)` of the addend S: at least S, so at least 1.
  for (const Value *S : {Add.LHS, Add.RHS})
    if (K->isOne() && isKnownToBeAPowerOfTwo(S, *Op.DL) &&
        isMaskAbove(M, S, *Op.DL))
      return Add;
  return std::nullopt;
}

} // namespace wrapidiom
