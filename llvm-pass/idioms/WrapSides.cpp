//===- WrapSides.cpp - Which side of a test the wrapped runs take ---------===//
//
// Part of wrapidiom. The walker's (Walker.h) tests of the wrap: the side of
// a branch or select every wrapped run takes, whether a test guards a use,
// comparisons every wrapped run answers alike, and the pure joins of a
// decision on the wrapped value (WrappedConditions.h).
//
//===----------------------------------------------------------------------===//
#include "idioms/Walker.h"

#include "checks/OverflowCheck.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"

using namespace llvm;

namespace wrapidiom {
namespace paths {

std::optional<bool> Walker::wrapSide(const Value *Cond, std::string *Why,
                                     bool *ByRange,
                                     const Instruction *Guard) {
  bool Negated;
  const Value *Peeled = peelCondition(Cond, Negated);
  if (std::optional<WrappedConditions::Answer> A = Conds.known(Peeled))
    return A->Value != Negated;
  const auto *Cmp = dyn_cast<ICmpInst>(Peeled);
  if (!Cmp)
    return std::nullopt;
  // `if (ok)` of `int ok = valid(s) && s >= p;` (WrappedConditions.h).
  if (isa<ZExtInst>(Cmp->getOperand(0)))
    if (std::optional<WrappedConditions::Answer> A = answerOf(Cmp);
        A && A->FromTest)
      return A->Value != Negated;
  // A value of known range under wrap compared with a constant, or with
  // anything as the unbounded value would be: the side every wrapped run
  // takes, if they all take one (`if (!len)` after PAGE_ALIGN(),
  // `__boundary - 1 < end - 1` in pmd_addr_end(); WrappedRange.h).
  // Unwrapped runs may take it too: it is the handling.
  bool HadRange = false;
  if (std::optional<bool> Outcome = rangedOutcome(*Cmp, &HadRange)) {
    if (ByRange)
      *ByRange = true;
    return *Outcome != Negated;
  }
  if (std::optional<CompareVerdict> Verdict = compareVerdict(*Cmp)) {
    const CompareVerdict &CV = *Verdict;
    if (CV.IsTest && CV.Exact && CV.OneSided && Guard) {
      // Unwrapped runs take the wrap side too: the test handles the wrap
      // by keeping it from the use it guards (`if (end < 0) goto out;
      // use(end)`, `end < 0 ? -EINVAL : end`); a test whose outcome is
      // all the value is for (`if (end < 0) warn();`, `end < 0 ? -EINVAL
      // : 0`) decides on it, right or wrong.
      bool WrapWhenTrue = CV.WrapWhenTrue != Negated;
      std::optional<bool> Guards = guardsUse(*Guard, WrapWhenTrue);
      if (Guards.value_or(false))
        return WrapWhenTrue;
      if (Why && Why->empty())
        *Why = CV.Why + (Guards ? ", and its other side reaches no use of "
                                  "the " + noun()
                                : ", and the uses of the " + noun() +
                                      " are too many to follow "
                                      "(-wrap-idiom-budget)");
      return std::nullopt;
    }
    if (CV.IsTest && CV.Exact)
      return CV.WrapWhenTrue != Negated;
    if (Why && Why->empty())
      *Why = CV.Why;
    return std::nullopt;
  }
  if (Why && Why->empty() && HadRange)
    *Why = "the " + noun() + ", masked or shifted, meets a comparison "
           "whose outcome the wrap can change";
  return std::nullopt;
}

std::optional<Walker::ResultBound>
Walker::resultBound(const Value *Cond) const {
  if (!ResultRange)
    return std::nullopt;
  bool Negated;
  const auto *Cmp = dyn_cast<ICmpInst>(peelCondition(Cond, Negated));
  if (!Cmp)
    return std::nullopt;
  for (unsigned I = 0; I < 2; ++I) {
    auto It = Derived.find(Cmp->getOperand(I));
    if (It == Derived.end() || !It->second.empty() ||
        !isa<ConstantInt>(Cmp->getOperand(1 - I)))
      continue;
    std::optional<bool> Machine = wrappedOutcome(*Cmp, I, *ResultRange);
    if (!Machine)
      return std::nullopt;
    std::optional<bool> Ideal = idealOutcome(*Cmp, I, *ResultRange);
    ResultBound RB{*Machine != Negated, Ideal == Machine, false};
    if (RB.AsUnbounded)
      return RB;
    // Unwrapped runs reach the other side (a bound, not a comparison no
    // result answers otherwise, nor one whose other side earlier tests have
    // emptied): results no wrap gives, that the comparison sends there,
    // among the values the result can have at the branch.
    CmpInst::Predicate P =
        I == 0 ? Cmp->getPredicate() : Cmp->getSwappedPredicate();
    const APInt &K = cast<ConstantInt>(Cmp->getOperand(1 - I))->getValue();
    ConstantRange Other = ConstantRange::makeExactICmpRegion(
        *Machine ? CmpInst::getInversePredicate(P) : P, K);
    RB.OtherSideReached =
        !Other.intersectWith(ResultRange->Machine.inverse())
             .intersectWith(rangeAt(Op.Result, /*Signed=*/false, Op, Cmp))
             .isEmptySet();
    return RB;
  }
  return std::nullopt;
}

std::optional<bool> Walker::guardsUse(const Instruction &Guard,
                                      bool WrapWhenTrue) const {
  if (const auto *Sel = dyn_cast<SelectInst>(&Guard))
    return isTheValue(WrapWhenTrue ? Sel->getFalseValue()
                                   : Sel->getTrueValue());
  const auto &Br = cast<BranchInst>(Guard);
  BasicBlockEdge Edge(Br.getParent(), Br.getSuccessor(WrapWhenTrue ? 1 : 0));
  unsigned UsesLeft = Budget;
  for (const auto &D : Derived)
    for (const Use &U : D.first->uses()) {
      if (UsesLeft-- == 0)
        return std::nullopt;
      const auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I || isa<ICmpInst>(I) || Derived.count(I) || isInstrumentation(*I))
        continue;
      // A phi's use is on its incoming edge (DominatorTree handles it).
      if (DT.dominates(Edge, U))
        return true;
    }
  return false;
}

/// Sel chooses on a test every wrapped run answers the same way (the `?:`
/// of pmd_addr_end() as a select): true when on that side it picks
/// neither the value nor anything decided on it, so that on wrapped runs
/// it is that other operand. Picking them there fails the proof.
bool Walker::selectsOtherOnWrap(const SelectInst &Sel) {
  bool ByRange = false;
  std::optional<bool> Side =
      wrapSide(Sel.getCondition(), nullptr, &ByRange, &Sel);
  if (!Side)
    return false;
  const Value *Picked = *Side ? Sel.getTrueValue() : Sel.getFalseValue();
  if (isTheValue(Picked) || Tainted.count(Picked)) {
    fail("the select on a wrap test of the " + noun() +
         " picks it, or a decision on it, on the wrap side");
    return false;
  }
  SawWrapTest = true;
  SawRangedTest |= ByRange;
  return true;
}

std::optional<bool>
Walker::rangedOutcome(const ICmpInst &Cmp, bool *HadRange) const {
  for (unsigned I = 0; I < 2; ++I) {
    const WrappedValue *R = rangeOf(Cmp.getOperand(I));
    if (!R)
      continue;
    if (HadRange)
      *HadRange = true;
    if (std::optional<bool> Outcome = fixedOutcome(Cmp, I, *R))
      return Outcome;
  }
  return std::nullopt;
}

std::optional<CompareVerdict>
Walker::compareVerdict(const ICmpInst &Cmp) const {
  for (unsigned I = 0; I < 2; ++I) {
    const Value *V = Cmp.getOperand(I);
    if (DivTests.count(V))
      return classifyDivisionTest(Cmp, Op);
    auto It = Derived.find(V);
    if (It != Derived.end())
      return classifyCompare(Cmp, I, It->second, Op);
  }
  return std::nullopt;
}

std::optional<bool> Walker::leafAnswer(const ICmpInst &Cmp) const {
  if (std::optional<bool> Outcome = rangedOutcome(Cmp))
    return Outcome;
  std::optional<CompareVerdict> CV = compareVerdict(Cmp);
  if (CV && CV->separates())
    return CV->WrapWhenTrue;
  return std::nullopt;
}

bool Walker::pureJoin(const BranchInst &Br, const Item &It) {
  // Pure: no effect, no new computation of the value, and the value only
  // compared (a comparison of it is a decision, tainted below).
  std::optional<PureJoin> PJ = findPureJoin(Br, [&](const Instruction &I) {
    if (&I == Op.Def)
      return false;
    if (isTheValue(&I) || isInstrumentation(I))
      return true;
    if (I.mayHaveSideEffects() && !isInstrumentationOrNoEffect(I))
      return false;
    return isa<ICmpInst>(I) || llvm::none_of(I.operands(), [&](const Value *V) {
             return isTheValue(V);
           });
  });
  if (!PJ || threadingPhi(*PJ->Join))
    return false;
  // A join that picks the value itself is a use of it: the walk goes on
  // through both sides and meets it there, as before any join.
  for (const PHINode &Phi : PJ->Join->phis())
    for (const BasicBlock *W : PJ->Ways)
      if (isTheValue(Phi.getIncomingValueForBlock(W)))
        return false;
  for (const BasicBlock *S : PJ->Sides)
    for (const Instruction &I : *S) {
      if (Left-- <= 1) {
        fail("the function is too large to follow the wrapped " + noun());
        return true;
      }
      if (I.isTerminator() || isTheValue(&I) || isInstrumentation(I))
        continue;
      if (llvm::any_of(I.operands(), [&](const Value *V) {
            return isTheValue(V) || Tainted.count(V);
          }))
        Tainted.insert(&I);
    }
  // Each phi is the decision's choice, unless every wrapped run gives both
  // ways one value (`false` and `s >= p`: `valid(s) && s >= p`).
  for (const PHINode &Phi : PJ->Join->phis()) {
    const Value *In[2] = {Phi.getIncomingValueForBlock(PJ->Ways[0]),
                          Phi.getIncomingValueForBlock(PJ->Ways[1])};
    std::optional<WrappedConditions::Answer> A = answerOf(In[0]),
                                             B = answerOf(In[1]);
    if (A && B && A->Value == B->Value) {
      Conds.record(&Phi, {A->Value, A->FromTest || B->FromTest});
      SawWrapTest |= A->FromTest || B->FromTest;
    } else if (In[0] != In[1] || Tainted.count(In[0])) {
      Tainted.insert(&Phi);
    }
  }
  SawTaintedDecision = true;
  Phase P = It.P;
  if (P != Phase::Handled && Handling.count(PJ->Join))
    P = Phase::Handled;
  if (Visited.insert({PJ->Join, unsigned(P), unsigned(It.Decided), nullptr})
          .second)
    Work.push_back(
        {PJ->Join, &*PJ->Join->getFirstNonPHIIt(), P, It.Decided, nullptr});
  return true;
}
} // namespace paths
} // namespace wrapidiom
