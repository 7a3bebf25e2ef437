//===- FinalResult.cpp - Check the expression's result, not each step -----===//
//
// Part of wrapidiom. See FinalResult.h.
//
// Why it is sound. Every step's N-bit value is its 2N-bit value modulo
// 2^N: + - * << & | ^ commute with reduction modulo 2^N, whatever the
// extension of the leaves. The final value the program goes on with is
// therefore the low N bits of the 2N-bit result R. When R fits the type the
// result is read as, those bits *are* R: the program computed the true
// result, whatever wrapped on the way. When it does not fit, the re-check
// reports. The inner steps' values are used by nothing but the next step
// (one use each, on the promoted function, besides the checks' own), so no
// wrapped intermediate value is seen elsewhere. R itself is exact while
// every step's values fit the signed 2N-bit type: each step's range is
// computed with ConstantRange in 4N bits from the leaves' (unsigned
// [0, 2^N), signed [-2^(N-1), 2^(N-1)), a constant itself, a shift amount
// below N), and a step whose range does not fit 2N ends the tree (no step
// of operands that fit reaches 4N bits, so the ranges are exact). So a
// signed key times an unsigned weight plus a signed sum (sched's
// avg_vruntime()) is held, two full unsigned factors are not.
//
//===----------------------------------------------------------------------===//
#include "idioms/FinalResult.h"

#include "analysis/PromotedFunction.h"
#include "idioms/Options.h"
#include "idioms/Rules.h"
#include "idioms/SignedRecheck.h"

#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace wrapidiom {

namespace {

/// Inner steps and the whole tree are bounded: an expression, not a
/// function body.
constexpr unsigned MaxSteps = 8;

/// `& | ^ <<` may be a step. A constant operand of `& | ^` must be
/// non-negative: in 2N bits its zero and sign extensions agree, so the
/// step's true value is not a matter of reading. A negative mask (~7 of
/// round_down()) would keep round_down(0 - 1, 8) at -8 read one way and
/// make it 2^64 - 8 the other: such a step is a leaf, and the steps below
/// it keep their own checks.
bool isBitwiseStep(const Instruction &I) {
  switch (I.getOpcode()) {
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
    return none_of(I.operands(), [](const Use &U) {
      const auto *C = dyn_cast<ConstantInt>(U.get());
      return C && C->isNegative();
    });
  case Instruction::Shl:
    return true;
  default:
    return false;
  }
}


/// Builds the tree of a final step on the promoted function.
class TreeBuilder {
public:
  TreeBuilder(const DenseMap<const Value *, size_t> &Steps,
              const SmallPtrSetImpl<const Value *> &Quiet,
              ArrayRef<OverflowCheck> Checks, const PromotedFunction &P,
              const SignFactMap &Facts)
      : Steps(Steps), Quiet(Quiet), Checks(Checks), P(P), Facts(Facts) {}

  /// The tree whose final step is the check at Root; false if it has no
  /// inner step or cannot be computed exactly in 2N bits.
  bool build(size_t Root, FinalTree &T, SmallVectorImpl<size_t> &Inner) {
    const auto *WO = cast<WithOverflowInst>(Checks[Root].Arith);
    unsigned N = WO->getType()->getStructElementType(0)->getIntegerBitWidth();
    Width = N;
    Tree = &T;
    InnerChecks = &Inner;
    ConstantRange Range = ConstantRange::getFull(RangeBits());
    if (addStep(WO, Range) < 0)
      return false;
    return T.Steps.size() > 1 && T.Steps.size() <= MaxSteps && fits(Range);
  }

  /// Is the check at I an inner step of some tree (its value has one use,
  /// by a step, directly or through bitwise steps)?
  bool isInner(size_t I) const {
    const auto *WO = cast<WithOverflowInst>(Checks[I].Arith);
    const Value *V = resultOf(WO);
    for (unsigned Hops = 0; V && Hops < MaxSteps; ++Hops) {
      const Instruction *U = onlyProgramUser(V);
      if (!U)
        return false;
      if (const auto *Next = dyn_cast<WithOverflowInst>(U))
        return Steps.count(Next);
      if (!isBitwiseStep(*U))
        return false;
      V = U;
    }
    return false;
  }

private:
  static const Value *resultOf(const WithOverflowInst *WO) {
    for (const User *U : WO->users())
      if (const auto *EV = dyn_cast<ExtractValueInst>(U);
          EV && EV->getNumIndices() == 1 && EV->getIndices()[0] == 0)
        return EV;
    return nullptr;
  }

  /// Add the step computing promoted instruction I (a checked operation
  /// or a bitwise step); its index, or -1 if the tree cannot hold it.
  /// The width the ranges of the steps are computed in: wide enough that
  /// no bounded tree's arithmetic wraps there (ConstantRange answers the
  /// full set where it might).
  unsigned RangeBits() const { return 4 * Width; }

  /// Does every value of Range fit the signed 2N-bit type the re-check
  /// computes in?
  bool fits(const ConstantRange &Range) const {
    APInt Min = APInt::getSignedMinValue(2 * Width).sext(RangeBits());
    APInt Max = APInt::getSignedMaxValue(2 * Width).sext(RangeBits());
    return !Range.isFullSet() && Range.getSignedMin().sge(Min) &&
           Range.getSignedMax().sle(Max);
  }

  /// The bits every value of R needs as a signed number.
  static unsigned significantBits(const ConstantRange &R) {
    return std::max(R.getSignedMin().getSignificantBits(),
                    R.getSignedMax().getSignificantBits());
  }

  /// Every signed value of K bits.
  ConstantRange bitsRange(unsigned K) const {
    unsigned W = RangeBits();
    if (K >= W)
      return ConstantRange::getFull(W);
    return ConstantRange(APInt::getSignedMinValue(K).sext(W),
                         APInt::getSignedMaxValue(K).sext(W) + 1);
  }

  /// The values a leaf may take, read as the re-check reads it.
  ConstantRange leafRange(const Value *V, bool Signed) const {
    unsigned W = RangeBits();
    if (const auto *C = dyn_cast<ConstantInt>(V))
      return ConstantRange(Signed ? C->getValue().sext(W)
                                  : C->getValue().zext(W));
    return Signed ? ConstantRange(APInt::getSignedMinValue(Width).sext(W),
                                  APInt::getSignedMaxValue(Width).sext(W) + 1)
                  : ConstantRange(APInt::getZero(W),
                                  APInt::getMaxValue(Width).zext(W) + 1);
  }

  int addStep(const Instruction *I, ConstantRange &Range) {
    if (Tree->Steps.size() >= MaxSteps)
      return -1;
    auto *Orig = dyn_cast_or_null<Instruction>(P.original(I));
    if (!Orig)
      return -1;
    int Index = int(Tree->Steps.size());
    Tree->Steps.push_back({});
    Tree->Steps[Index].Op = Orig;
    Tree->Steps[Index].Reports = isa<WithOverflowInst>(I) && !Quiet.count(I);
    const SignFacts *F = nullptr;
    if (isa<WithOverflowInst>(I)) {
      auto It = Facts.find(Orig);
      F = It == Facts.end() ? nullptr : &It->second;
    }
    bool Shift = I->getOpcode() == Instruction::Shl;
    ConstantRange Ops[2] = {ConstantRange::getFull(RangeBits()),
                            ConstantRange::getFull(RangeBits())};
    for (unsigned K = 0; K < 2; ++K) {
      const Value *V = I->getOperand(K);
      if (Shift && K == 1) { // the amount: below N, or the shift is poison
        Ops[1] = leafRange(V, false).intersectWith(ConstantRange(
            APInt::getZero(RangeBits()), APInt(RangeBits(), Width)));
        continue;
      }
      int Child = innerStep(V, Ops[K]);
      if (Child == -2)
        return -1;
      Tree->Steps[Index].Child[K] = Child;
      if (Child >= 0)
        continue;
      // A leaf: its C signedness, if the front end said.
      bool Signed = F && F->OperandSigned[K];
      Tree->Steps[Index].Signed[K] = Signed;
      Ops[K] = leafRange(V, Signed);
    }
    switch (isa<WithOverflowInst>(I)
                ? unsigned(cast<WithOverflowInst>(I)->getBinaryOp())
                : I->getOpcode()) {
    case Instruction::Add:
      Range = Ops[0].add(Ops[1]);
      break;
    case Instruction::Sub:
      Range = Ops[0].sub(Ops[1]);
      break;
    case Instruction::Mul:
      Range = Ops[0].multiply(Ops[1]);
      break;
    case Instruction::Shl:
      Range = Ops[0].shl(Ops[1]);
      break;
    default: // & | ^ of two values of at most K significant bits (as
             // signed: two's complement) has at most K too.
      Range = bitsRange(std::max(significantBits(Ops[0]),
                                 significantBits(Ops[1])));
      break;
    }
    return fits(Range) ? Index : -1;
  }

  /// If V (an operand on the promoted function) is an inner step, add it
  /// and return its index; -1 for a leaf; -2 when it cannot be held.
  int innerStep(const Value *V, ConstantRange &Range) {
    const WithOverflowInst *WO;
    if (match(V, m_ExtractValue<0>(m_WithOverflowInst(WO)))) {
      auto It = Steps.find(WO);
      if (It == Steps.end() || onlyProgramUser(V) == nullptr)
        return -1;
      InnerChecks->push_back(It->second);
      int I = addStep(WO, Range);
      return I < 0 ? -2 : I;
    }
    // A bitwise step counts when it leads down to a checked step, or is a
    // shift that may lose high bits as an add wraps ((64UL << 58) - 1;
    // not 1UL << s, which holds every s < N).
    const auto *B = dyn_cast<BinaryOperator>(V);
    if (!B || !isBitwiseStep(*B) || !onlyProgramUser(B) ||
        !(mayLoseBits(*B) || containsCheckedStep(B, 0)))
      return -1;
    int I = addStep(B, Range);
    return I < 0 ? -2 : I;
  }

  /// May shift I lose high bits: the bits its value may need (a constant's
  /// own, else N) plus the largest shift (its constant, else N - 1)
  /// exceed N?
  bool mayLoseBits(const BinaryOperator &I) const {
    if (I.getOpcode() != Instruction::Shl)
      return false;
    unsigned Need = Width;
    if (const auto *C = dyn_cast<ConstantInt>(I.getOperand(0)))
      Need = C->getValue().getActiveBits();
    const auto *S = dyn_cast<ConstantInt>(I.getOperand(1));
    unsigned Shift = S ? unsigned(S->getLimitedValue(Width - 1)) : Width - 1;
    return Need + Shift > Width;
  }

  /// Does a bitwise step lead down to a checked step?
  bool containsCheckedStep(const Value *V, unsigned Depth) const {
    if (Depth > MaxSteps)
      return false;
    const WithOverflowInst *WO;
    if (match(V, m_ExtractValue<0>(m_WithOverflowInst(WO))))
      return Steps.count(WO) && onlyProgramUser(V);
    const auto *B = dyn_cast<BinaryOperator>(V);
    return B && isBitwiseStep(*B) && onlyProgramUser(B) &&
           (containsCheckedStep(B->getOperand(0), Depth + 1) ||
            containsCheckedStep(B->getOperand(1), Depth + 1));
  }

  /// The checked steps that may take part, by their promoted operation.
  const DenseMap<const Value *, size_t> &Steps;
  /// The checked steps whose checks were removed as intended (neg-const).
  const SmallPtrSetImpl<const Value *> &Quiet;
  ArrayRef<OverflowCheck> Checks;
  const PromotedFunction &P;
  const SignFactMap &Facts;
  unsigned Width = 0;
  FinalTree *Tree = nullptr;
  SmallVectorImpl<size_t> *InnerChecks = nullptr;
};

/// May the check be a step: an unsigned add, sub, mul or negation, kept
/// so far (or re-checked for its signed meaning), as clang emitted it?
bool mayBeStep(const OverflowCheck &C, const Decision &D) {
  if (C.Combined || C.Signed || D.KeptByEntry || C.Op == CheckOp::Ptr ||
      !isa_and_nonnull<WithOverflowInst>(C.Arith))
    return false;
  return D.Kind == Idiom::None || D.Kind == Idiom::SignedMeaning;
}

/// May the check be an inner step only: a constant negation neg-const
/// removed (`-RWSEM_WRITER_LOCKED + RWSEM_READER_BIAS`: -1UL + 256 is 255,
/// read as the expression's true result).
bool mayBeQuietStep(const OverflowCheck &C, const Decision &D) {
  return !C.Combined && !C.Signed && D.Kind == Idiom::NegConst &&
         isa_and_nonnull<WithOverflowInst>(C.Arith);
}

/// The expressions of one function, worked out once for both rows: per
/// check, the tree it is the final step of, or whether it is an inner step.
struct FinalPlan {
  struct Outcome {
    std::shared_ptr<const FinalTree> Tree;
    bool Inner = false;
  };
  SmallVector<Outcome, 8> Of;
};

/// Is check I's result read as signed: the front end's fact, or what
/// signed-meaning's decision on it found (it also reads the uses).
bool readAsSigned(const FunctionChecks &All, const SignFactMap &Facts,
                  size_t I) {
  const Decision &D = All.Decisions[I];
  if (D.Kind == Idiom::SignedMeaning)
    return D.Args.Signs.ResultSigned;
  auto F = Facts.find(All.Original[I].Arith);
  return F != Facts.end() && F->second.ResultSigned;
}

FinalPlan makePlan(const FunctionChecks &All, const FrontEndFacts &FE) {
  ArrayRef<OverflowCheck> Checks = All.Original, Promoted = All.Mapped;
  FinalPlan Plan;
  Plan.Of.resize(Checks.size());
  static const SignFactMap NoFacts;
  const SignFactMap &Facts = FE.Signs ? *FE.Signs : NoFacts;
  if (!FE.Promoted)
    return Plan;
  DenseMap<const Value *, size_t> Steps;
  SmallPtrSet<const Value *, 4> Quiet;
  for (size_t I = 0; I < Promoted.size(); ++I)
    if (mayBeStep(Promoted[I], All.Decisions[I])) {
      // A value read as signed is the end of an expression, not a step
      // of a larger one.
      if (!readAsSigned(All, Facts, I))
        Steps[Promoted[I].Arith] = I;
    } else if (mayBeQuietStep(Promoted[I], All.Decisions[I])) {
      Steps[Promoted[I].Arith] = I;
      Quiet.insert(Promoted[I].Arith);
    }
  TreeBuilder B(Steps, Quiet, Promoted, *FE.Promoted, Facts);
  for (size_t R = 0; R < Promoted.size(); ++R) {
    if (!mayBeStep(Promoted[R], All.Decisions[R]) ||
        (Steps.count(Promoted[R].Arith) && B.isInner(R)))
      continue;
    auto T = std::make_shared<FinalTree>();
    SmallVector<size_t, 4> Inner;
    if (!B.build(R, *T, Inner))
      continue;
    T->ResultSigned = readAsSigned(All, Facts, R);
    Plan.Of[R].Tree = std::move(T);
    for (size_t I : Inner)
      Plan.Of[I].Inner = true;
  }
  return Plan;
}

const FinalPlan &planOf(RuleInput &In) {
  static const char Key = 0;
  return In.All->state<FinalPlan>(
      &Key, [&] { return makePlan(*In.All, In.Facts.frontEnd()); });
}

} // namespace

bool finalResult(RuleInput &In) {
  const FinalPlan::Outcome &O = planOf(In).Of[In.Index];
  if (!O.Tree)
    return false;
  In.Args.Tree = O.Tree;
  return true;
}

bool finalResultStep(RuleInput &In) { return planOf(In).Of[In.Index].Inner; }

namespace {

Value *wideStep(IRBuilder<> &B, const FinalTree &T, int Index,
                Type *WideTy) {
  const FinalStep &S = T.Steps[Index];
  Instruction::BinaryOps Op;
  Value *Operands[2];
  if (auto *WO = dyn_cast<WithOverflowInst>(S.Op)) {
    Op = WO->getBinaryOp();
    Operands[0] = WO->getLHS();
    Operands[1] = WO->getRHS();
  } else {
    Op = cast<BinaryOperator>(S.Op)->getOpcode();
    Operands[0] = S.Op->getOperand(0);
    Operands[1] = S.Op->getOperand(1);
  }
  Value *Wide[2];
  for (unsigned K = 0; K < 2; ++K)
    Wide[K] = S.Child[K] >= 0
                  ? wideStep(B, T, S.Child[K], WideTy)
                  : extendAs(B, Operands[K], WideTy, S.Signed[K],
                             "final.leaf");
  Value *R = B.CreateBinOp(Op, Wide[0], Wide[1], "final.step");
  markNoSanitize(R);
  return R;
}

} // namespace

void recheckFinalResult(const OverflowCheck &C, const Decision &D) {
  const FinalTree &T = *D.Args.Tree;
  replaceOverflowBit(C, [&](IRBuilder<> &B, WithOverflowInst &WO,
                            Value *Ov) -> Value * {
    Type *NarrowTy = WO.getLHS()->getType();
    unsigned N = NarrowTy->getScalarSizeInBits();
    Type *WideTy = B.getIntNTy(2 * N);
    Value *True = wideStep(B, T, 0, WideTy);
    Value *Out = outOfType(B, True, NarrowTy, T.ResultSigned, "final");
    // Reported only where some step wrapped: its own check would report
    // (its overflow bit), or, with a signed leaf, its own true result left
    // its type (`x - d` with d a long: x - (-2^63) borrows nothing and is
    // out of range). Where no step wrapped, the plugin reports nothing
    // either: it decides clang's reports, it does not add its own.
    Value *Any = nullptr;
    for (const FinalStep &S : T.Steps) {
      if (!S.Reports)
        continue;
      auto *SW = cast<WithOverflowInst>(S.Op);
      Value *StepOv = SW == &WO ? Ov
                                : B.CreateExtractValue(SW, 1, "final.stepov");
      markNoSanitize(StepOv);
      Value *Wrapped = StepOv;
      if (S.Signed[0] || S.Signed[1]) {
        Value *Wide[2];
        for (unsigned K = 0; K < 2; ++K)
          Wide[K] = extendAs(B, SW->getArgOperand(K), WideTy,
                             S.Child[K] < 0 && S.Signed[K], "final.own");
        Value *Own = B.CreateBinOp(SW->getBinaryOp(), Wide[0], Wide[1],
                                   "final.own");
        markNoSanitize(Own);
        Wrapped = B.CreateOr(StepOv,
                             outOfType(B, Own, NarrowTy, false, "final.own"),
                             "final.stepwrap");
        markNoSanitize(Wrapped);
      }
      Any = Any ? B.CreateOr(Any, Wrapped, "final.anyov") : Wrapped;
      markNoSanitize(Any);
    }
    if (!Any)
      Any = Ov;
    Value *Bad = B.CreateAnd(Any, Out, "final.bad");
    markNoSanitize(Bad);
    return Bad;
  });
}

} // namespace wrapidiom
