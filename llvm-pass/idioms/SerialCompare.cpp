//===- SerialCompare.cpp - Wrapping counters compared by their difference -===//
//
// Part of wrapidiom. See SerialCompare.h.
//
//===----------------------------------------------------------------------===//
#include "idioms/SerialCompare.h"

#include "analysis/WrappedRange.h"
#include "idioms/Rules.h"

#include "checks/OverflowCheck.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace wrapidiom {

namespace {

/// How a comparison with a constant uses a difference.
enum class SignUse {
  Test,  // it tests the sign: d >= 0, d < 0, d > 0 or d <= 0
  Zero,  // d == 0, d != 0: exact under the wrap, but no sign test
  Other, // anything else
};

/// Cmp compares its operand OpNo, d of width N, with a constant. It is a
/// sign test when the exact set of d that satisfies it
/// (makeExactICmpRegion, with the predicate swapped when d is on the right)
/// is one of the four sign halves of the width: [0, 2^(N-1)) (d >= 0),
/// [2^(N-1), 0) (d < 0), [1, 2^(N-1)) (d > 0), [2^(N-1), 1) (d <= 0).
/// `(long)d < 0` and `(long)d >= 0` are, as are rcupdate.h's
/// `ULONG_MAX / 2 >= d` (ULONG_CMP_GE()), `ULONG_MAX / 2 < d`
/// (ULONG_CMP_LT()), `d < 1UL << 63`; `(long)d < 5`, `ULONG_MAX / 4 >= d`,
/// `d > ULONG_MAX / 2 + 1` and `d <= 5` are not. The sets are compared,
/// not the spellings: any predicate and constant that select one of the
/// halves select it exactly.
SignUse classifySignUse(const ICmpInst &Cmp, unsigned OpNo) {
  const auto *C = dyn_cast<ConstantInt>(Cmp.getOperand(1 - OpNo));
  if (!C || !C->getType()->isIntegerTy())
    return SignUse::Other;
  if (Cmp.isEquality() && C->isZero())
    return SignUse::Zero;
  unsigned N = C->getBitWidth();
  if (N < 2)
    return SignUse::Other;
  CmpInst::Predicate Pred =
      OpNo == 0 ? Cmp.getPredicate() : Cmp.getSwappedPredicate();
  ConstantRange Region =
      ConstantRange::makeExactICmpRegion(Pred, C->getValue());
  APInt Zero = APInt::getZero(N), One(N, 1);
  APInt Half = APInt::getSignedMinValue(N);
  const ConstantRange Halves[] = {
      ConstantRange(Zero, Half), ConstantRange(Half, Zero),
      ConstantRange(One, Half), ConstantRange(Half, One)};
  return is_contained(Halves, Region) ? SignUse::Test : SignUse::Other;
}

/// The number of sign tests among the uses of Root (through sign
/// extensions), and whether anything else uses it.
struct SignTests {
  unsigned Tests = 0;
  bool OtherUses = false;
};

SignTests countSignTests(const Value *Root) {
  SignTests R;
  SmallVector<const Value *, 4> Work{Root};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const auto *User = cast<Instruction>(U.getUser());
      if (isInstrumentation(*User))
        continue;
      if (isa<SExtInst>(User)) {
        Work.push_back(User);
        continue;
      }
      const auto *Cmp = dyn_cast<ICmpInst>(User);
      SignUse Kind =
          Cmp ? classifySignUse(*Cmp, U.getOperandNo()) : SignUse::Other;
      if (Kind == SignUse::Test)
        ++R.Tests;
      else if (Kind == SignUse::Other)
        R.OtherUses = true;
    }
  }
  return R;
}

/// Every use of the difference (through sign extensions, which keep the
/// sign: a sign half of the wider width is the same half of the narrower)
/// is a sign test, and there is at least one. Equality with zero may come
/// beside them (`if (!diff) return; if (diff <= 0) ...`, the timer
/// wheel's __mod_timer()): the modular difference is zero exactly when the
/// counters are equal, so that test is exact whether or not it wrapped.
/// Serial-number arithmetic (RFC 1982) compares two wrapping counters by
/// the sign of their modular difference; the wrap is the point, and the
/// value reaches nothing else. Any other comparison or use keeps the check.
bool onlySignCompared(const Value *Root) {
  SignTests R = countSignTests(Root);
  return R.Tests > 0 && !R.OtherUses;
}

/// The value of a UBSan-checked operation: the one extractvalue 0 of a
/// *.with.overflow call whose other users are its check. Null for the
/// program's own __builtin_*_overflow(), whose bit the program reads.
const Value *checkedValue(const WithOverflowInst &WO) {
  const Value *R = nullptr;
  for (const User *U : WO.users()) {
    const auto *EV = dyn_cast<ExtractValueInst>(U);
    if (EV && EV->getNumIndices() == 1 && *EV->idx_begin() == 0 && !R &&
        !isInstrumentation(*EV)) {
      R = EV;
      continue;
    }
    if (!isInstrumentation(*cast<Instruction>(U)))
      return nullptr;
  }
  return R;
}

/// The paths of a wrapped unsigned value, walked down to the serial
/// differences they end in. A wrap changes the value by 2^N. Through an
/// operation whose result modulo 2^N depends only on its operands modulo
/// 2^N (add, sub, mul, and, or, xor with anything, shl of the value, and
/// the value of such a checked operation), it changes the result by a
/// multiple of 2^N, which is nothing in N bits; an N-bit difference, and
/// the sign test of it, cannot see it. rcu_seq_started()'s
/// `ULONG_CMP_LT((s - 1) & ~3, cur)`, rcu_seq_done_exact()'s
/// `ULONG_CMP_LT(cur, s - 13)`. Nothing else passes: a shift right, a
/// division, a remainder or a truncation read the high bits, a comparison,
/// a store, a return or another call let the value out (a helper defined
/// here whose parameter meets only such paths excepted), and an operation
/// with nuw/nsw may be poison where the ideal one is not.
class SerialPaths {
public:
  /// Body: the function a callee stands for (MatcherFacts::body()).
  explicit SerialPaths(
      function_ref<const Function &(const Function &)> Body)
      : Body(Body) {}
  /// Every use of V is on such a path.
  bool value(const Value *V, unsigned Depth);
  /// Parameter A of a helper defined here is, directly or through the one
  /// local it is spilled to (the body as clang emitted it at -O0, or
  /// already promoted): TCP's before(seq1, seq2), after() of a sum.
  bool argument(const Argument &A, unsigned Depth);
  /// The sign-tested differences the walk ended in.
  unsigned Differences = 0;

private:
  static constexpr unsigned MaxDepth = 8;
  function_ref<const Function &(const Function &)> Body;
  SmallPtrSet<const Value *, 16> Seen;
};

bool SerialPaths::argument(const Argument &A, unsigned Depth) {
  for (const User *U : A.users()) {
    const auto *St = dyn_cast<StoreInst>(U);
    if (!St || St->getValueOperand() != &A)
      continue;
    const auto *Slot = dyn_cast<AllocaInst>(St->getPointerOperand());
    if (!St->isSimple() || !Slot)
      return false;
    for (const User *SU : Slot->users()) {
      if (SU == St)
        continue;
      const auto *Ld = dyn_cast<LoadInst>(SU);
      if (!Ld || !Ld->isSimple() || Ld->getType() != A.getType() ||
          !value(Ld, Depth + 1))
        return false;
    }
  }
  // The other uses, if any, are the parameter's own paths.
  bool Direct = any_of(A.users(), [](const User *U) {
    return !isa<StoreInst>(U);
  });
  return !Direct || value(&A, Depth + 1);
}

bool SerialPaths::value(const Value *V, unsigned Depth) {
  if (!Seen.insert(V).second)
    return true; // its uses are walked already
  if (Depth > MaxDepth)
    return false;
  for (const Use &U : V->uses()) {
    const auto *I = cast<Instruction>(U.getUser());
    if (isInstrumentation(*I))
      continue;
    if (const auto *WO = dyn_cast<WithOverflowInst>(I)) {
      Intrinsic::ID ID = WO->getIntrinsicID();
      const Value *R = checkedValue(*WO);
      if (!R || (ID != Intrinsic::uadd_with_overflow &&
                 ID != Intrinsic::usub_with_overflow &&
                 ID != Intrinsic::umul_with_overflow))
        return false;
      if (ID == Intrinsic::usub_with_overflow && onlySignCompared(R)) {
        ++Differences;
        continue;
      }
      if (!value(R, Depth + 1))
        return false;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(I)) {
      if (BO->getOpcode() == Instruction::Sub && onlySignCompared(BO)) {
        ++Differences;
        continue;
      }
      switch (BO->getOpcode()) {
      case Instruction::Add:
      case Instruction::Sub:
      case Instruction::Mul:
      case Instruction::And:
      case Instruction::Or:
      case Instruction::Xor:
        break;
      case Instruction::Shl:
        if (U.getOperandNo() == 0)
          break;
        return false;
      default:
        return false;
      }
      const auto *OBO = dyn_cast<OverflowingBinaryOperator>(BO);
      const auto *PD = dyn_cast<PossiblyDisjointInst>(BO);
      if ((OBO && (OBO->hasNoUnsignedWrap() || OBO->hasNoSignedWrap())) ||
          (PD && PD->isDisjoint()) || !value(BO, Depth + 1))
        return false;
      continue;
    }
    if (const auto *Call = dyn_cast<CallInst>(I)) {
      const Function *Callee = Call->getCalledFunction();
      if (Callee)
        Callee = &Body(*Callee);
      if (!Callee || !Callee->hasExactDefinition() || Callee->isVarArg() ||
          !Call->isArgOperand(&U) || Call->hasOperandBundles() ||
          Callee->getFunctionType() != Call->getFunctionType() ||
          !argument(*Callee->getArg(Call->getArgOperandNo(&U)), Depth))
        return false;
      continue;
    }
    return false;
  }
  return true;
}

} // namespace

bool onlySignTested(const WrappingOp &Op) {
  if (Op.Op != CheckOp::Sub || Op.Signed)
    return false;
  return onlySignCompared(Op.Result);
}

bool signTestedAndUsed(const WrappingOp &Op) {
  // With a subtrahend of at most half the range no wrap is that large:
  // then whatever kept the check (sign-guard's proof) is the reason.
  if (Op.Op != CheckOp::Sub || Op.Signed || halfBoundedSubtrahend(Op))
    return false;
  SignTests R = countSignTests(Op.Result);
  return R.Tests > 0 && R.OtherUses;
}

/// `time_after(jiffies, start + HZ)` is `(long)((start + HZ) - jiffies) <
/// 0`; rcu_seq_started()'s `ULONG_CMP_LT((s - 1) & ~3, cur)` is
/// `ULONG_MAX / 2 < ((s - 1) & ~3) - cur`. A product is the same: its
/// wrap, too, is a multiple of 2^N.
bool onlyInSerialDifferences(
    const WrappingOp &Op,
    function_ref<const Function &(const Function &)> Body) {
  if (Op.Signed || (Op.Op != CheckOp::Add && Op.Op != CheckOp::Sub &&
                    Op.Op != CheckOp::Mul))
    return false;
  SerialPaths Paths(Body);
  return Paths.value(Op.Result, 0) && Paths.Differences > 0;
}

/// serial-compare's row: a difference only sign-tested, or a value that
/// reaches only such differences.
bool serialCompare(RuleInput &In) {
  return onlySignTested(*In.Op) ||
         onlyInSerialDifferences(*In.Op, [&](const Function &F)
                                             -> const Function & {
           return In.Facts.body(F);
         });
}

} // namespace wrapidiom
