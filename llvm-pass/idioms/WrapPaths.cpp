//===- WrapPaths.cpp - Follow a wrapped value until the program handles it ===//
//
// Part of wrapidiom. See WrapPaths.h; the walker's class is Walker.h, its
// tests of the wrap WrapSides.cpp.
//
//===----------------------------------------------------------------------===//
#include "idioms/WrapPaths.h"

#include "idioms/Options.h"
#include "idioms/Rules.h"
#include "idioms/Walker.h"
#include "checks/OverflowCheck.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;

namespace wrapidiom {
namespace paths {

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

bool isInstrumentationOrNoEffect(const Instruction &I) {
  if (I.getMetadata(LLVMContext::MD_nosanitize))
    return true;
  const auto *Call = dyn_cast<CallBase>(&I);
  return Call && isInertCall(*Call);
}

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
  // The result itself compared with a constant that every wrapped run
  // answers one way (`n - 1` is ULONG_MAX when it wraps). As the unbounded
  // value would be answered (`if (n - 1 == 0)`), the wrap decides nothing:
  // wrapped runs go where the true value goes, nothing wrong decided.
  // Otherwise a bound whose side wrapped runs share with unwrapped ones
  // (`if (n - 1 > LIMIT) return -EINVAL;`): a test to leave by, when
  // unwrapped runs can take its other side and it guards a use there, as
  // a sign test with one sign known is (WrapSides.cpp wrapSide()); the
  // walk goes on on the wrap side, where the value must not be used.
  if (std::optional<ResultBound> RB = resultBound(Cond)) {
    const BasicBlock *WrapTo = Br.getSuccessor(RB->WrapSide ? 0 : 1);
    if (RB->AsUnbounded)
      return edge(BB, WrapTo, It.P, It.Decided);
    if (RB->OtherSideReached &&
        guardsUse(Br, RB->WrapSide).value_or(false)) {
      SawWrapTest = true;
      return edge(BB, WrapTo, Phase::Handled, It.Decided);
    }
  }
  if (Tainted.count(Cond) && pureJoin(Br, It)) {
    if (FirstDecisionWhy.empty())
      FirstDecisionWhy = Why;
    return;
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
    // `valid(s) && s >= p` optimised: every wrapped run gets one value.
    if (UsesTainted && !UsesDerived && I->getType()->isIntegerTy(1) &&
        (isa<SelectInst>(I) || isa<BinaryOperator>(I))) {
      if (std::optional<WrappedConditions::Answer> A = answerOf(I)) {
        Conds.record(I, *A);
        SawWrapTest |= A->FromTest;
        SawTaintedDecision |= llvm::any_of(I->operands(), [&](const Value *V) {
          return Tainted.count(V) && !answerOf(V);
        });
        continue;
      }
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
  ResultRange = wrappedResult(Op);
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

} // namespace paths

using paths::Walker;

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
