//===- CircularDifference.cpp - d = a - b; if (a < b) d += size -----------===//
//
// Part of wrapidiom. The distance between two indices of a circular buffer,
// as the kernel writes it everywhere (fs/jbd2/journal.c
// __jbd2_update_log_tail(), fs/jbd2/commit.c):
//
//   freed = block - journal->j_tail;
//   if (block < journal->j_tail)
//           freed += journal->j_last - journal->j_first;
//
// The subtraction wraps exactly when the program's own test says a < b, and
// on that side the program adds the buffer's size, which must carry for
// the distance to come out right. The pair is one idiom of two decisions:
//
//   the subtraction  removed: its wrap is the design, tested exactly, and
//                    every wrapped value reaches nothing but the correction;
//   the addition     re-checked (SignedRecheck.h's replaceOverflowBit()):
//                    reported when it does NOT carry, i.e. b - a > size,
//                    where the correction failed and the distance is
//                    corrupt; silent when it carries.
//
// Both are decided on the shape of the whole: every use of the difference
// is a correction on the wrap side or lies where it did not wrap. Then each
// correction is re-checked (unless a row above, an ignorelist entry or
// another re-check decided it first), and the subtraction goes only when
// all of them are; a subtraction a row or an entry decided otherwise
// leaves its corrections re-checked still: each one runs only where the
// difference wrapped. The pair is two rows of Idioms.def that need the
// function's other decisions (OnFunction): circularCorrection (the
// addition, re-checked by recheckCircular) and circularSubtraction (the
// subtraction, removed).
//
// N is the width; a, b, s are the operands as unsigned values in [0, 2^N),
// d = a - b mod 2^N.
//
// The test. The unsigned subtraction borrows exactly when a < b, so the
// comparisons `a <u b` and `b >u a` are true exactly in the runs where d
// wrapped, and `a >=u b`, `b <=u a` false exactly there (on the same two
// values: the same SSA values, or equal by sameValue(), e.g. two loads of
// `journal->j_tail` with nothing that may write it in between; zero-
// extending both sides keeps the order). Nothing else is such a test:
// `a <= b` also takes a == b to the "wrap" side, `a < c` decides on
// another value. Where the wrap edge of a branch on such a test dominates
// a use, d is wrapped there: d = 2^N - (b - a), with 0 < b - a < 2^N; where
// the other edge dominates it, d = a - b, not wrapped. (A select on the
// test picks its arms the same way.)
//
// The correction. On the wrap side the program computes d + s, a checked
// unsigned add of d and another value s. Let x = b - a > 0:
//
//   d + s = 2^N - x + s, which carries exactly when s >= x, and then
//   equals s - x: the true circular distance, the mathematical a - b + s.
//   When s < x it does not carry, and 2^N - x + s is not that distance
//   (which is negative): the indices were corrupt, b - a > size.
//
// So on the wrap side clang's check is inverted: it reports every correct
// correction and misses the corrupt one. The re-check reports exactly when
// the true value s - x leaves [0, 2^N): it cannot exceed 2^N (s < 2^N,
// x > 0), and it is negative exactly when the add does not carry. The new
// condition is `!ov`; where the add is computed on both sides and a select
// on the test takes its value only on the wrap side (what -O2 may make of
// `(a < b) ? d + s : d`), it is `(a <u b) & !ov`: on the other side the
// sum is never used, so its wrap (d + s >= 2^N there) is nobody's.
// Comparing a and b again is exact: the sub's operands dominate the sub,
// which dominates the add.
//
// The subtraction. Its check goes when every use of d, but the checks'
// own, is
//   - dominated by the no-wrap edge of a branch on the test, or the no-wrap
//     arm of a select on it: d is not wrapped there;
//   - or a correction (d + s above, s not d itself), re-checked;
// and there is at least one correction. Then every wrapped value of d
// reaches only its correction, and the correction's re-check reports every
// run in which the wrap was not undone: the sub's wrap is the design, not
// a fault. Anything else on the wrap side (`use(d)`, a store, a phi that
// merges it, the correction's check kept plain, or removed by another
// proof or an ignorelist entry, or disabled) keeps the sub's check, and a
// use that neither edge dominates (before the test, or after the two sides
// join) does too.
//
//===----------------------------------------------------------------------===//
#include "analysis/ValueEquivalence.h"
#include "analysis/WrapTest.h"
#include "idioms/Options.h"
#include "idioms/Rules.h"
#include "idioms/SignedRecheck.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

#include <optional>
#include <string>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace wrapidiom {

namespace {

/// A checked unsigned add of D and some other value: that value.
const Value *correctionOperand(const User *U, const Value *D) {
  const auto *WO = dyn_cast<WithOverflowInst>(U);
  if (!WO || WO->getIntrinsicID() != Intrinsic::uadd_with_overflow)
    return nullptr;
  if (WO->getLHS() == D && WO->getRHS() != D)
    return WO->getRHS();
  if (WO->getRHS() == D && WO->getLHS() != D)
    return WO->getLHS();
  return nullptr;
}

/// The analysis of one subtraction a - b on the promoted function.
class Circle {
public:
  Circle(const WithOverflowInst &Sub, const DominatorTree &DT)
      : Sub(Sub), DT(DT),
        DL(Sub.getModule()->getDataLayout()) {}

  /// The corrections, if d is a circular difference (see the file
  /// comment); else empty, with Why set when some correction exists but
  /// another use spoils it.
  SmallVector<std::pair<const WithOverflowInst *, bool>, 2>
  corrections(std::string &Why);

private:
  const WithOverflowInst &Sub;
  const DominatorTree &DT;
  const DataLayout &DL;
  /// The two sides of each branch on the test.
  struct Sides {
    const BasicBlock *From, *Wrap, *NoWrap;
  };
  SmallVector<Sides, 2> Branches;

  bool same(const Value *X, const Value *Y) const {
    return X == Y || sameValue(X, Y, DL);
  }
  std::optional<bool> wrapWhenTrue(const Value *Cond) const;
  void findBranches();
  bool onSide(const Use &U, bool WrapSide) const;
  /// U is an arm of a select on the test: which side's value is it?
  std::optional<bool> selectArm(const Use &U) const;
  bool onlyChosenOnWrapSide(const WithOverflowInst &Add) const;
};

/// If Cond (through xor true and unlikely()) is the exact test of the
/// difference's wrap: whether a wrapped run makes it true.
std::optional<bool> Circle::wrapWhenTrue(const Value *Cond) const {
  bool Negated;
  const auto *Cmp = dyn_cast<ICmpInst>(peelCondition(Cond, Negated));
  if (!Cmp)
    return std::nullopt;
  const Value *X = Cmp->getOperand(0), *Y = Cmp->getOperand(1);
  const Value *XI, *YI;
  if (match(X, m_ZExt(m_Value(XI))) && match(Y, m_ZExt(m_Value(YI))) &&
      XI->getType() == YI->getType()) {
    X = XI;
    Y = YI;
  }
  const Value *A = Sub.getLHS(), *B = Sub.getRHS();
  if (X->getType() != A->getType())
    return std::nullopt;
  std::optional<bool> WhenTrue;
  switch (Cmp->getPredicate()) {
  case ICmpInst::ICMP_ULT: // a < b
    if (same(A, X) && same(B, Y))
      WhenTrue = true;
    break;
  case ICmpInst::ICMP_UGT: // b > a
    if (same(B, X) && same(A, Y))
      WhenTrue = true;
    break;
  case ICmpInst::ICMP_UGE: // a >= b
    if (same(A, X) && same(B, Y))
      WhenTrue = false;
    break;
  case ICmpInst::ICMP_ULE: // b <= a
    if (same(B, X) && same(A, Y))
      WhenTrue = false;
    break;
  default:
    break;
  }
  if (WhenTrue)
    return *WhenTrue != Negated;
  return std::nullopt;
}

void Circle::findBranches() {
  for (const BasicBlock &BB : *Sub.getFunction()) {
    const auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    if (std::optional<bool> T = wrapWhenTrue(Br->getCondition()))
      Branches.push_back({&BB, Br->getSuccessor(*T ? 0 : 1),
                          Br->getSuccessor(*T ? 1 : 0)});
  }
}

bool Circle::onSide(const Use &U, bool WrapSide) const {
  for (const Sides &S : Branches)
    if (DT.dominates(BasicBlockEdge(S.From, WrapSide ? S.Wrap : S.NoWrap), U))
      return true;
  return false;
}

std::optional<bool> Circle::selectArm(const Use &U) const {
  const auto *Sel = dyn_cast<SelectInst>(U.getUser());
  if (!Sel || U.getOperandNo() == 0)
    return std::nullopt;
  std::optional<bool> T = wrapWhenTrue(Sel->getCondition());
  if (!T)
    return std::nullopt;
  return (U.getOperandNo() == 1) == *T;
}

/// A correction computed on both sides: every use of its sum (but the
/// checks') is the wrap-side arm of a select on the test.
bool Circle::onlyChosenOnWrapSide(const WithOverflowInst &Add) const {
  unsigned Chosen = 0;
  for (const User *U : Add.users()) {
    const auto *EV = dyn_cast<ExtractValueInst>(U);
    if (!EV || EV->getNumIndices() != 1)
      return false;
    if (EV->getIndices()[0] == 1)
      continue; // the overflow bit: the check itself
    for (const Use &EU : EV->uses()) {
      if (isInstrumentation(*cast<Instruction>(EU.getUser())))
        continue;
      std::optional<bool> Arm = selectArm(EU);
      if (!Arm || !*Arm)
        return false;
      ++Chosen;
    }
  }
  return Chosen > 0;
}

SmallVector<std::pair<const WithOverflowInst *, bool>, 2>
Circle::corrections(std::string &Why) {
  SmallVector<std::pair<const WithOverflowInst *, bool>, 2> Found;
  // Only worth a look at the function's branches if some checked add of
  // the difference could be a correction.
  SmallVector<const ExtractValueInst *, 1> Diffs;
  bool AnyAdd = false;
  for (const User *U : Sub.users()) {
    const auto *EV = dyn_cast<ExtractValueInst>(U);
    if (!EV || EV->getNumIndices() != 1)
      return {};
    if (EV->getIndices()[0] != 0)
      continue;
    Diffs.push_back(EV);
    for (const User *DU : EV->users())
      AnyAdd |= correctionOperand(DU, EV) != nullptr;
  }
  if (!AnyAdd)
    return {};
  findBranches();
  std::string Spoiled;
  for (const ExtractValueInst *D : Diffs) {
    for (const Use &U : D->uses()) {
      const auto *I = cast<Instruction>(U.getUser());
      if (isInstrumentation(*I))
        continue; // another check reporting the value
      if (correctionOperand(I, D)) {
        const auto *Add = cast<WithOverflowInst>(I);
        if (onSide(U, /*WrapSide=*/true)) {
          Found.push_back({Add, false});
          continue;
        }
        if (onlyChosenOnWrapSide(*Add)) {
          Found.push_back({Add, true});
          continue;
        }
      }
      std::optional<bool> Arm = selectArm(U);
      if ((Arm && !*Arm) || (!Arm && onSide(U, /*WrapSide=*/false)))
        continue; // d is not wrapped there
      if (Spoiled.empty()) {
        std::string What = "'" + std::string(I->getOpcodeName()) + "'";
        Spoiled = onSide(U, /*WrapSide=*/true) || Arm
                      ? "the wrapped difference also reaches " + What +
                            " besides its correction"
                      : "the difference reaches " + What +
                            " where the program has not tested a < b";
      }
    }
  }
  if (Found.empty())
    return {};
  if (!Spoiled.empty()) {
    Why = Spoiled;
    return {};
  }
  return Found;
}

} // namespace

namespace {

/// What circular-difference makes of each check of a function, from the
/// decisions of the rows above its own: for each subtraction in turn, its
/// corrections are re-checked when each is a check no row decided, and
/// the subtraction removed when it is one too. A correction claimed by an
/// earlier subtraction is decided for the later ones.
struct CircularPlan {
  enum Kind : uint8_t { None, Recheck, Remove };
  struct Outcome {
    Kind K = None;
    /// Recheck: the subtraction's usub.with.overflow (in the function
    /// itself) when the correction is chosen by a select.
    Instruction *Partner = nullptr;
    /// A subtraction that is no such pair though it has a correction: why.
    std::string Note;
  };
  SmallVector<Outcome, 8> Of;
};

CircularPlan makePlan(const FunctionChecks &All, const DominatorTree &DT,
                      const WrapIdiomOptions &Opts) {
  ArrayRef<OverflowCheck> Promoted = All.Mapped;
  CircularPlan Plan;
  Plan.Of.resize(Promoted.size());
  SmallVector<bool, 8> Decided, Sanitized;
  for (const Decision &D : All.Decisions) {
    Decided.push_back(bool(D));
    Sanitized.push_back(D.KeptByEntry);
  }
  DenseMap<const Instruction *, size_t> ByArith;
  for (size_t I = 0; I < Promoted.size(); ++I)
    if (Promoted[I].Arith && !Promoted[I].Combined)
      ByArith[Promoted[I].Arith] = I;
  // Disabled, the pair is still worked out, so that each check of it says
  // so (the walk adds the note), but it claims no correction.
  bool Enabled = Opts.idiomEnabled(Idiom::CircularDifference);
  for (size_t J = 0; J < Promoted.size(); ++J) {
    const OverflowCheck &S = Promoted[J];
    const auto *WO = dyn_cast_or_null<WithOverflowInst>(S.Arith);
    if (S.Op != CheckOp::Sub || S.Signed || !WO ||
        WO->getIntrinsicID() != Intrinsic::usub_with_overflow)
      continue;
    std::string Why;
    Circle C(*WO, DT);
    auto Found = C.corrections(Why);
    // Only an undecided subtraction is told why it is not one, and only
    // when it would have been (some correction exists).
    bool Tell = !Decided[J] && !Sanitized[J];
    if (Found.empty()) {
      if (Tell)
        Plan.Of[J].Note = std::move(Why);
      continue;
    }
    // Each correction must be a check of its own that nothing else
    // decided: removal, an ignorelist entry and the other re-checks come
    // first, and a `=sanitize` entry keeps it as emitted.
    SmallVector<std::pair<size_t, bool>, 2> Adds;
    for (auto [Add, Select] : Found) {
      auto It = ByArith.find(Add);
      if (It == ByArith.end() || Decided[It->second] ||
          Sanitized[It->second]) {
        Why = "its correction's check is not re-checked";
        break;
      }
      Adds.push_back({It->second, Select});
    }
    if (!Why.empty()) {
      if (Tell)
        Plan.Of[J].Note = std::move(Why);
      continue;
    }
    for (auto [I, Select] : Adds) {
      Plan.Of[I].K = CircularPlan::Recheck;
      Plan.Of[I].Partner = Select ? All.Original[J].Arith : nullptr;
      Decided[I] = Enabled;
    }
    if (Tell && !All.Original[J].Combined)
      Plan.Of[J].K = CircularPlan::Remove;
  }
  return Plan;
}

const CircularPlan &planOf(RuleInput &In) {
  static const char Key = 0;
  return In.All->state<CircularPlan>(&Key, [&] {
    return makePlan(*In.All, In.Facts.dominators(), In.Facts.options());
  });
}

} // namespace

bool circularCorrection(RuleInput &In) {
  const CircularPlan::Outcome &O = planOf(In).Of[In.Index];
  if (O.K != CircularPlan::Recheck)
    return false;
  In.Args.Partner = O.Partner;
  return true;
}

bool circularSubtraction(RuleInput &In) {
  const CircularPlan::Outcome &O = planOf(In).Of[In.Index];
  if (O.K == CircularPlan::Remove)
    return true;
  In.Why = O.Note;
  return false;
}

void recheckCircular(const OverflowCheck &C, const Decision &D) {
  replaceOverflowBit(C, [&](IRBuilder<> &B, WithOverflowInst &,
                            Value *Ov) -> Value * {
    Value *Short = B.CreateXor(Ov, B.getTrue(), "circular.short");
    markNoSanitize(Short);
    const auto *Sub = dyn_cast_or_null<WithOverflowInst>(D.Args.Partner);
    if (!Sub)
      return Short;
    Value *Wrapped =
        B.CreateICmpULT(Sub->getLHS(), Sub->getRHS(), "circular.wrapped");
    Value *Bad = B.CreateAnd(Wrapped, Short, "circular.out");
    markNoSanitize(Wrapped);
    markNoSanitize(Bad);
    return Bad;
  });
}

} // namespace wrapidiom
