//===- Walker.h - The walk of the wrapped runs (WrapPaths.cpp) ------------===//
//
// Part of wrapidiom. The class that follows every execution in which an
// operation wrapped (WrapPaths.h says what it proves), shared by
// WrapPaths.cpp (the walk: scan, branch, edge, run) and WrapSides.cpp
// (which side of a test wrapped runs take: wrapSide(), guardsUse(), the
// selects and the pure joins). Private to the data-flow row.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WALKER_H
#define WRAPIDIOM_WALKER_H

#include "idioms/WrapPaths.h"
#include "idioms/WrappedConditions.h"
#include "analysis/WrappedRange.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"

#include <optional>
#include <string>
#include <tuple>

namespace wrapidiom {
namespace paths {

using namespace llvm;

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
const PHINode *threadingPhi(const BasicBlock &BB);
const BasicBlock *threadedSuccessor(const BasicBlock &BB,
                                    const BasicBlock *Pred);
/// Instructions that are not program behaviour: the checks' own machinery,
/// the UBSan runtime, and intrinsics without observable effect.
bool isInstrumentationOrNoEffect(const Instruction &I);

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
  /// The range of the result itself under wrap, when the operation is by a
  /// constant (WrappedRange.h wrappedResult()).
  std::optional<WrappedValue> ResultRange;
  /// Values computed from a comparison of the wrapped value.
  SmallPtrSet<const Value *, 16> Tainted;
  /// i1 values every wrapped run gives one value: conjunctions with a wrap
  /// test (`valid(s) && s >= p`), phis of them at a pure join.
  WrappedConditions Conds;
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
  /// A comparison's value on wrapped runs if they, and only they, give it
  /// one (a separating wrap test), or all give it one (known range).
  std::optional<bool> leafAnswer(const ICmpInst &Cmp) const;
  /// What every wrapped run answers Cmp of a value of known range, if they
  /// all answer one way (WrappedRange.h fixedOutcome()); HadRange: whether
  /// an operand has a known range at all.
  std::optional<bool> rangedOutcome(const ICmpInst &Cmp,
                                    bool *HadRange = nullptr) const;
  /// Cmp as a test of the wrapped value (its first operand that is the
  /// value, or a product's division test); none when neither operand is.
  std::optional<CompareVerdict> compareVerdict(const ICmpInst &Cmp) const;
  std::optional<WrappedConditions::Answer> answerOf(const Value *V) const {
    return Conds.answer(
        V, [this](const ICmpInst &C) { return leafAnswer(C); });
  }
  /// A branch on a decision on the wrapped value whose sides only compute
  /// and join again: the walk goes on at the join, its phis tainted unless
  /// every wrapped run gives each the same value (`a && b` as clang emits
  /// it; WrappedConditions.h).
  bool pureJoin(const BranchInst &Br, const Item &It);
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
  /// Cond compares the result itself with a constant, and every wrapped
  /// run answers it one way: that way, and whether the unbounded value
  /// would answer so too (then the wrap decides nothing there), and if
  /// not, whether unwrapped runs can take the other side.
  struct ResultBound {
    bool WrapSide;
    bool AsUnbounded;
    bool OtherSideReached;
  };
  std::optional<ResultBound> resultBound(const Value *Cond) const;
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

} // namespace paths
} // namespace wrapidiom

#endif
