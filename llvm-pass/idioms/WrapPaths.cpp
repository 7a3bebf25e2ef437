//===- WrapPaths.cpp - Follow a wrapped value until the program handles it ===//
//
// Part of wrapidiom. See WrapPaths.h.
//
//===----------------------------------------------------------------------===//
#include "idioms/WrapPaths.h"

#include "idioms/Options.h"
#include "idioms/Rules.h"
#include "checks/OverflowCheck.h"
#include "analysis/WrappedRange.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"

#include <tuple>

using namespace llvm;

namespace wrapidiom {

namespace {

enum class Phase : uint8_t {
  Clean,   // wrapped, nothing decided on the value yet
  Tainted, // wrapped, and a comparison of the value steered control here
  Handled, // on the wrap side of a wrap test (or in its handling block)
};

struct Item {
  const BasicBlock *BB;
  const Instruction *From; // first instruction to look at
  Phase P;
  bool Decided; // passed a branch the wrap decided (a loop exit)
  const BasicBlock *Pred = nullptr; // the block this path came from
};

/// A terminator of BB that branches on a phi of BB: clang's scope cleanups
/// (`cleanup.dest`, promoted) merge every exit of a scope into one block and
/// switch on a constant each exit stored. Entered from Pred, the path takes
/// the successor that constant selects; other successors belong to other
/// paths. Null when the path's constant is not known.
const PHINode *threadingPhi(const BasicBlock &BB) {
  const Instruction *Term = BB.getTerminator();
  const Value *Cond = nullptr;
  if (const auto *SI = dyn_cast<SwitchInst>(Term))
    Cond = SI->getCondition();
  else if (const auto *Br = dyn_cast<BranchInst>(Term);
           Br && Br->isConditional())
    Cond = Br->getCondition();
  const auto *Phi = dyn_cast_or_null<PHINode>(Cond);
  return Phi && Phi->getParent() == &BB ? Phi : nullptr;
}

const BasicBlock *threadedSuccessor(const BasicBlock &BB,
                                    const BasicBlock *Pred) {
  const PHINode *Phi = threadingPhi(BB);
  if (!Phi || !Pred || Phi->getBasicBlockIndex(Pred) < 0)
    return nullptr;
  const auto *C = dyn_cast<ConstantInt>(Phi->getIncomingValueForBlock(Pred));
  if (!C)
    return nullptr;
  const Instruction *Term = BB.getTerminator();
  if (const auto *SI = dyn_cast<SwitchInst>(Term))
    return SI->findCaseValue(C)->getCaseSuccessor();
  return cast<BranchInst>(Term)->getSuccessor(C->isZero() ? 1 : 0);
}

/// Instructions that are not program behaviour: the checks' own machinery,
/// the UBSan runtime, and intrinsics without observable effect.
bool isInstrumentationOrNoEffect(const Instruction &I) {
  if (I.getMetadata(LLVMContext::MD_nosanitize))
    return true;
  const auto *Call = dyn_cast<CallBase>(&I);
  return Call && isInertCall(*Call);
}

class Walker {
public:
  Walker(const WrappingOp &Op, Function &F, const DominatorTree &DT,
         const FunctionIndex &Index, unsigned Budget)
      : Op(Op), F(F), DT(DT), Index(Index), Budget(Budget) {}
  PathVerdict run();

private:
  const WrappingOp &Op;
  Function &F;
  const DominatorTree &DT;
  const FunctionIndex &Index;
  const unsigned Budget; // WrapIdiomOptions::budget()
  /// Reached only through the no-wrap side of a test of the same value.
  bool PreTested = false;
  /// The wrapped value: the result, every other computation of the same
  /// value, and their order-preserving casts (with the cast chain).
  DenseMap<const Value *, CastChain> Derived;
  /// `udiv product, factor` of a multiplication test.
  SmallPtrSet<const Value *, 4> DivTests;
  /// Values computed from the result whose range in wrapped executions is
  /// known, with that range: `(len + 4095) & ~4095` is 0 when the sum
  /// wrapped (PAGE_ALIGN(): the wrapped sum is at most 4094; WrappedRange.h).
  RangeMap Ranged;
  /// Values computed from a comparison of the wrapped value.
  SmallPtrSet<const Value *, 16> Tainted;
  /// Blocks on the wrap side of a wrap test of the value.
  SmallPtrSet<const BasicBlock *, 4> Handling;
  DenseSet<std::tuple<const BasicBlock *, unsigned, unsigned,
                     const BasicBlock *>>
      Visited;
  SmallVector<Item, 16> Work;
  std::string FirstDecisionWhy; // why the first steering compare was no test
  std::string Failure;
  unsigned Left = Budget; // instructions still to follow
  bool SawWrapTest = false;
  bool SawRangedTest = false;
  bool SawDecided = false;
  bool SawTaintedDecision = false;
  bool EndedDead = false;

  std::string noun() const { return Op.noun().str(); }
  bool collectDerived();
  bool isTheValue(const Value *V) const {
    return Derived.count(V) || DivTests.count(V) || Ranged.count(V);
  }
  void collectHandling();
  /// The side of a branch on Cond every wrapped run takes, when a value of
  /// known range decides it (WrappedRange.h wrappedOutcome()).
  std::optional<bool> wrappedOnlySide(const Value *Cond) const {
    bool Negated;
    const auto *Cmp = dyn_cast<ICmpInst>(peelCondition(Cond, Negated));
    if (!Cmp)
      return std::nullopt;
    for (unsigned I = 0; I < 2; ++I)
      if (const WrappedValue *R = rangeOf(Cmp->getOperand(I)))
        if (std::optional<bool> Outcome = wrappedOutcome(*Cmp, I, *R))
          return *Outcome != Negated;
    return std::nullopt;
  }
  /// Does Cond (peeled) test the wrap? Returns the side wrapped runs take.
  /// A test unwrapped runs pass too (OneSided) tests it only as the branch
  /// or select Guard that keeps the value from a use.
  std::optional<bool> wrapSide(const Value *Cond, std::string *Why,
                               bool *ByRange = nullptr,
                               const Instruction *Guard = nullptr);
  /// Does Guard keep the value from a use on wrapped runs: a branch whose
  /// edge away from the wrap side dominates a use of it (not a
  /// comparison), a select that picks it on that side? Unknown over budget.
  std::optional<bool> guardsUse(const Instruction &Guard,
                                bool WrapWhenTrue) const;
  const WrappedValue *rangeOf(const Value *V) const {
    auto It = Ranged.find(V);
    return It == Ranged.end() ? nullptr : &It->second;
  }
  void fail(std::string Why) {
    if (Failure.empty())
      Failure = std::move(Why);
  }
  void failUse(const Instruction &User, const Item &It);
  bool selectsOtherOnWrap(const SelectInst &Sel);
  void scan(Item It);
  void branch(const BranchInst &Br, const Item &It);
  void edge(const BasicBlock *From, const BasicBlock *To, Phase P,
            bool Decided);
};

/// False when there are more other computations to compare with the
/// result than the budget allows.
bool Walker::collectDerived() {
  SmallVector<const Value *, 4> Roots;
  Roots.push_back(Op.Result);
  if (isa<WithOverflowInst>(Op.Def)) {
    SmallVector<const Value *, 8> Candidates;
    // The result itself is among the candidates.
    if (!Index.candidates(Op.Result, size_t(Budget) + 1, Candidates))
      return false;
    for (const Value *Other : Candidates)
      if (Other != Op.Result && sameValue(Other, Op.Result, *Op.DL))
        Roots.push_back(Other);
  }
  SmallVector<std::pair<const Value *, CastChain>, 8> Stack;
  for (const Value *R : Roots)
    Stack.push_back({R, {}});
  while (!Stack.empty()) {
    auto [V, Chain] = Stack.pop_back_val();
    if (!Derived.try_emplace(V, Chain).second)
      continue;
    for (const User *U : V->users()) {
      if (isOrderPreservingCast(U, *Op.DL)) {
        CastChain Next = Chain;
        Next.push_back(cast<CastInst>(U));
        Stack.push_back({U, Next});
      } else if (Op.Op == CheckOp::Mul && Chain.empty()) {
        const auto *Div = dyn_cast<BinaryOperator>(U);
        if (Div && Div->getOpcode() == Instruction::UDiv &&
            Div->getOperand(0) == V)
          DivTests.insert(Div);
      }
    }
  }
  return true;
}

std::optional<bool> Walker::wrapSide(const Value *Cond, std::string *Why,
                                     bool *ByRange,
                                     const Instruction *Guard) {
  bool Negated;
  const auto *Cmp = dyn_cast<ICmpInst>(peelCondition(Cond, Negated));
  if (!Cmp)
    return std::nullopt;
  // A value of known range under wrap compared with a constant, or with
  // anything as the unbounded value would be: the side every wrapped run
  // takes, if they all take one (`if (!len)` after PAGE_ALIGN(),
  // `__boundary - 1 < end - 1` in pmd_addr_end(); WrappedRange.h).
  // Unwrapped runs may take it too: it is the handling.
  bool HadRange = false;
  for (unsigned I = 0; I < 2; ++I) {
    const WrappedValue *R = rangeOf(Cmp->getOperand(I));
    if (!R)
      continue;
    HadRange = true;
    if (std::optional<bool> Outcome = fixedOutcome(*Cmp, I, *R)) {
      if (ByRange)
        *ByRange = true;
      return *Outcome != Negated;
    }
  }
  for (unsigned I = 0; I < 2; ++I) {
    const Value *V = Cmp->getOperand(I);
    CompareVerdict CV;
    if (DivTests.count(V)) {
      CV = classifyDivisionTest(*Cmp, Op);
    } else {
      auto It = Derived.find(V);
      if (It == Derived.end())
        continue;
      CV = classifyCompare(*Cmp, I, It->second, Op);
    }
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

void Walker::collectHandling() {
  // Branches on a comparison of the value, directly or through the
  // negation and unlikely() glue peelCondition() strips.
  SmallPtrSet<const BranchInst *, 8> Branches;
  SmallVector<std::pair<const Value *, unsigned>, 16> Work;
  for (const auto &D : Derived)
    Work.push_back({D.first, 0});
  for (const Value *D : DivTests)
    Work.push_back({D, 0});
  for (const auto &R : Ranged)
    Work.push_back({R.first, 0});
  while (!Work.empty()) {
    auto [V, Depth] = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *Br = dyn_cast<BranchInst>(U))
        Branches.insert(Br);
      else if (Depth < 5 && isa<Instruction>(U) &&
               U->getType()->isIntegerTy() && !Derived.count(U))
        Work.push_back({U, Depth + 1});
    }
  }
  for (const BranchInst *Br : Branches) {
    if (!Br->isConditional() || Br->getMetadata(LLVMContext::MD_nosanitize))
      continue;
    if (std::optional<bool> Side =
            wrapSide(Br->getCondition(), nullptr, nullptr, Br)) {
      const BasicBlock *BB = Br->getParent();
      Handling.insert(Br->getSuccessor(*Side ? 0 : 1));
      BasicBlockEdge NoWrap(BB, Br->getSuccessor(*Side ? 1 : 0));
      if (DT.dominates(NoWrap, Op.Def->getParent()))
        PreTested = true;
    }
  }
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

void Walker::failUse(const Instruction &User, const Item &It) {
  std::string Op = ("'" + StringRef(User.getOpcodeName()) + "'").str();
  // Through a mask or shift only (collectWrappedRanges()), say so.
  bool Direct = llvm::any_of(User.operands(), [&](const Value *V) {
    return Derived.count(V) || DivTests.count(V);
  });
  std::string What = noun() + (Direct ? "" : ", masked or shifted,");
  if (It.P == Phase::Handled)
    return fail("the " + What + " is used by " + Op + " on the wrap path");
  if (It.Decided)
    return fail("the " + What + " wraps only on the exit path its wrap "
                "decides, and " + Op + " uses it there");
  fail("the " + What + " is used by " + Op + " before any wrap test");
}

void Walker::edge(const BasicBlock *From, const BasicBlock *To, Phase P,
                  bool Decided) {
  Item It{To, nullptr, P, Decided, From};
  for (const PHINode &Phi : To->phis()) {
    const Value *In = Phi.getIncomingValueForBlock(From);
    if (isTheValue(In))
      return failUse(Phi, It);
    if (Tainted.count(In))
      Tainted.insert(&Phi);
  }
  if (P != Phase::Handled && Handling.count(To))
    It.P = Phase::Handled;
  // Where the path came from matters only where a threading phi decides.
  const BasicBlock *Key = threadingPhi(*To) ? From : nullptr;
  if (!Visited.insert({To, unsigned(It.P), unsigned(It.Decided), Key})
           .second)
    return;
  It.From = &*To->getFirstNonPHIIt();
  Work.push_back(It);
}

void Walker::branch(const BranchInst &Br, const Item &It) {
  const BasicBlock *BB = Br.getParent();
  if (!Br.isConditional() || Br.getMetadata(LLVMContext::MD_nosanitize)) {
    for (const BasicBlock *S : successors(BB))
      edge(BB, S, It.P, It.Decided);
    return;
  }
  if (const BasicBlock *S = threadedSuccessor(*BB, It.Pred))
    return edge(BB, S, It.P, It.Decided);
  const Value *Cond = Br.getCondition();
  std::string Why;
  bool ByRange = false;
  if (std::optional<bool> Side = wrapSide(Cond, &Why, &ByRange, &Br)) {
    SawWrapTest = true;
    SawRangedTest |= ByRange;
    return edge(BB, Br.getSuccessor(*Side ? 0 : 1), Phase::Handled,
                It.Decided);
  }
  if (std::optional<bool> Side = decidedByWrap(Cond, Op)) {
    SawDecided = true;
    return edge(BB, Br.getSuccessor(*Side ? 0 : 1), It.P, true);
  }
  // A comparison of a value of known range under wrap that every wrapped
  // run answers one way, though not as the unbounded value would
  // (`PAGE_ALIGN(len) > limit` before `if (!len)`): a wrong decision, but
  // only its one side is taken by wrapped runs; it must reach the handling
  // before any effect, as any decision on the wrapped value.
  if (std::optional<bool> Side = wrappedOnlySide(Cond)) {
    SawTaintedDecision = true;
    if (FirstDecisionWhy.empty())
      FirstDecisionWhy = Why;
    Phase Next = It.P == Phase::Handled ? Phase::Handled : Phase::Tainted;
    return edge(BB, Br.getSuccessor(*Side ? 0 : 1), Next, It.Decided);
  }
  // A decision on the wrapped value, before any wrap test or after the
  // wrap side of one fell through (`if (end < off) WARN_ON(1);`): the
  // program goes on on a wrong decision until a wrap test handles it.
  Phase Next = It.P;
  if (Tainted.count(Cond)) {
    SawTaintedDecision = true;
    Next = Phase::Tainted;
    if (FirstDecisionWhy.empty())
      FirstDecisionWhy = Why;
  }
  edge(BB, Br.getSuccessor(0), Next, It.Decided);
  edge(BB, Br.getSuccessor(1), Next, It.Decided);
}

void Walker::scan(Item It) {
  for (const Instruction *I = It.From; I; I = I->getNextNode()) {
    if (I == Op.Def)
      return; // computed anew: the wrapped value of this run is gone
    if (--Left == 0)
      return fail("the function is too large to follow the wrapped " +
                  noun());
    if (isTheValue(I))
      continue; // the value itself, cast, divided or masked for its test
    if (isInstrumentation(*I) && !I->isTerminator())
      continue; // a check's own glue and report: not the program
    bool UsesDerived = false, UsesTainted = false;
    // `p / a` is the product seen through a division: a comparison of it
    // that is no exact division test decides on the wrapped value.
    for (const Value *V : I->operands()) {
      UsesDerived |= isTheValue(V);
      UsesTainted |= Tainted.count(V) > 0;
    }
    if (const auto *Sel = dyn_cast<SelectInst>(I);
        Sel && (UsesDerived || UsesTainted)) {
      if (selectsOtherOnWrap(*Sel))
        continue; // on wrapped runs the select is its other operand
      if (!Failure.empty())
        return;
    }
    if (UsesDerived) {
      if (isa<ICmpInst>(I)) {
        Tainted.insert(I);
        // Remember why the first comparison is no (exact) wrap test, for
        // the remark if its decision does harm.
        if (FirstDecisionWhy.empty())
          wrapSide(I, &FirstDecisionWhy);
        continue;
      }
      return failUse(*I, It);
    }
    bool Effect = (I->mayHaveSideEffects() || isa<ReturnInst>(I)) &&
                  !isInstrumentationOrNoEffect(*I);
    // On the wrap side the wrapped value must not be acted on: a decision
    // taken on it reaching an effect is as wrong there as before the test.
    if (Effect && (UsesTainted || It.P == Phase::Tainted)) {
      if (SawWrapTest)
        return fail("the wrap side of the test falls through, and a "
                    "decision on the wrapped " + noun() + " reaches '" +
                    I->getOpcodeName() + "'");
      std::string Why = FirstDecisionWhy.empty()
                            ? "a comparison of the " + noun() +
                                  " steers control"
                            : FirstDecisionWhy;
      return fail(Why + ", and that decision reaches '" +
                  I->getOpcodeName() + "' before any wrap test");
    }
    if (UsesTainted && !I->isTerminator())
      Tainted.insert(I);
    if (const auto *Br = dyn_cast<BranchInst>(I))
      return branch(*Br, It);
    if (isa<ReturnInst>(I)) {
      if (It.P == Phase::Clean)
        EndedDead = true;
      return;
    }
    if (I->isTerminator()) {
      Phase Next = It.P;
      if (UsesTainted)
        Next = Phase::Tainted;
      if (const BasicBlock *S = threadedSuccessor(*It.BB, It.Pred))
        return edge(It.BB, S, Next, It.Decided);
      for (const BasicBlock *S : successors(It.BB))
        edge(It.BB, S, Next, It.Decided);
      return;
    }
  }
}

PathVerdict Walker::run() {
  PathVerdict V;
  if (!collectDerived()) {
    V.Reason = "the " + noun() + " is computed in too many other places to "
               "compare them all with it (-wrap-idiom-budget)";
    return V;
  }
  RangeSeed Seed = collectWrappedRanges(Op, Ranged);
  collectHandling();
  if (PreTested) {
    // `if (a + b < a) return -E; x = a + b;`: this computation cannot wrap.
    V.Kind = Idiom::GuardedUse;
    return V;
  }
  Work.push_back({Op.Def->getParent(), Op.Def->getNextNode(), Phase::Clean,
                  false});
  while (!Work.empty() && Failure.empty())
    scan(Work.pop_back_val());
  if (!Failure.empty()) {
    V.Reason = Failure;
    return V;
  }
  PathEvidence E;
  E.WrapTest = SawWrapTest;
  E.RangedTest = SawRangedTest;
  E.BoundedSubtrahend = Seed == RangeSeed::Bounded;
  E.Product = Op.Op == CheckOp::Mul;
  E.TaintedDecision = SawTaintedDecision;
  E.EndedDead = EndedDead;
  E.DecidedExit = SawDecided;
  for (const PathProof &P : PathProofs)
    if (P.Holds(E)) {
      V.Kind = P.Kind;
      return V;
    }
  V.Reason = "the " + noun() + " is never tested for wrap";
  return V;
}

} // namespace

PathVerdict followWrappedPaths(const WrappingOp &Op, Function &F,
                               const DominatorTree &DT,
                               const FunctionIndex &Index,
                               const WrapIdiomOptions &Opts) {
  // pXd_addr_end()'s `__boundary - 1` wraps only where its masked sum
  // did, whose proof (if it holds) follows the difference too.
  if (std::optional<WrappingOp> Sum = maskedSumWrapsFirst(Op))
    if (Walker(*Sum, F, DT, Index, Opts.budget()).run().Kind ==
        Idiom::AlignZero)
      return PathVerdict{Idiom::AlignZero, {}};
  return Walker(Op, F, DT, Index, Opts.budget()).run();
}

/// The data-flow row: the path walk proves one of PathProofs, or says why
/// the check stays.
bool dataFlow(RuleInput &In) {
  PathVerdict PV = In.Facts.followWrapped(*In.Op);
  In.Kind = PV.Kind;
  In.Why = std::move(PV.Reason);
  return PV.Kind != Idiom::None;
}

} // namespace wrapidiom
