//===- WrappedConditions.h - Conditions every wrapped run answers alike ---===//
//
// Part of wrapidiom. The path walk (WrapPaths.cpp) meets boolean values
// built from comparisons of the wrapped value. One that is an exact wrap
// test in a conjunction decides the whole for every wrapped run, whatever
// the other comparison says: x86's
//
//   return valid_user_address(sum) && sum >= ptr;       (__access_ok())
//
// is false on every wrapped run (`sum >= ptr` is), so the sign test of the
// wrapped sum decides nothing there, and the expression is a wrap test
// itself. As clang emits it, `&&` is a branch on the first comparison and
// a phi of `false` and the second: a decision on the wrapped value whose
// sides are pure and join again (Walker::pureJoin()); optimised, an `and`
// or a `select`.
//
// answer() gives the value every wrapped run gives an i1, where it is one:
// a constant; a comparison the walk's Leaf says every wrapped run, and only
// those, answers one way (an exact wrap test, not a one-sided one, or one
// of a value of known range under wrap); a negation, `and`, `or` or
// `select` of such; `ok != 0` of one kept in an int; or a value recorded
// earlier (a phi at a pure join).
// FromTest says whether a wrap test decided it (not only constants).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAPPEDCONDITIONS_H
#define WRAPIDIOM_WRAPPEDCONDITIONS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace llvm {
class BasicBlock;
class BranchInst;
class ICmpInst;
class Instruction;
class Value;
} // namespace llvm

namespace wrapidiom {

class WrappedConditions {
public:
  struct Answer {
    bool Value;    // what every wrapped run gives it
    bool FromTest; // a wrap test decides it, not only constants
  };
  /// A comparison's value on wrapped runs, when they all give it one.
  using LeafFn =
      llvm::function_ref<std::optional<bool>(const llvm::ICmpInst &)>;

  std::optional<Answer> answer(const llvm::Value *V, LeafFn Leaf,
                               unsigned Depth = 0) const;
  void record(const llvm::Value *V, Answer A) { Known[V] = A; }
  std::optional<Answer> known(const llvm::Value *V) const {
    auto It = Known.find(V);
    if (It == Known.end())
      return std::nullopt;
    return It->second;
  }

private:
  llvm::DenseMap<const llvm::Value *, Answer> Known;
};

/// Where the two sides of a conditional branch meet again, when they only
/// compute on the way: `a && b` as clang emits it (a triangle: one side is
/// the join) or `c ? x : y` (a diamond).
struct PureJoin {
  const llvm::BasicBlock *Join = nullptr;
  /// The blocks between the branch and the join (none, one or two).
  llvm::SmallVector<const llvm::BasicBlock *, 2> Sides;
  /// The join's predecessors on the two ways, in successor order.
  llvm::SmallVector<const llvm::BasicBlock *, 2> Ways;
};

/// Br's join, if each side block has Br's block as its only predecessor,
/// no phi, only instructions Pure accepts, and one successor, the join.
std::optional<PureJoin>
findPureJoin(const llvm::BranchInst &Br,
             llvm::function_ref<bool(const llvm::Instruction &)> Pure);

} // namespace wrapidiom

#endif
