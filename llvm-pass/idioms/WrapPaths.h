//===- WrapPaths.h - Follow a wrapped value until the program handles it --===//
//
// Part of wrapidiom. The data-flow idioms share one proof: follow every
// execution in which the operation wrapped, from the operation on, and show
// that the wrapped value cannot do harm:
//
//   before the wrap is handled, the value may only be compared (a wrong
//   decision on it may only lead to pure code or to the handling); no other
//   use, and no side effect once a decision on it has been taken;
//
//   the wrap is handled on the side of a wrap test that wrapped executions
//   take (`if (s < a) return -EINVAL;`), or in a block such a side leads
//   to (the shared error block of `off + n > lim || off + n < n`), and the
//   value is never used there; or the execution leaves without ever using
//   the value after a branch the wrap itself decided (`while (n--)`
//   exits exactly when n-- wraps).
//
// Branches that wrapped executions cannot take are not followed: the other
// side of a wrap test, the side of a comparison of an *operand* with a
// constant that the wrap contradicts (n-- wraps only when n == 0), and the
// side of a comparison of a value of known range under wrap that no
// wrapped run takes (`PAGE_ALIGN(len) > limit`: the side wrapped runs take
// is followed as a decision on the wrapped value).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAPPATHS_H
#define WRAPIDIOM_WRAPPATHS_H

#include "analysis/FunctionIndex.h"
#include "idioms/IdiomMatcher.h"
#include "analysis/WrapTest.h"

#include <string>

namespace llvm {
class DominatorTree;
class Function;
class Value;
} // namespace llvm

namespace wrapidiom {

struct WrapIdiomOptions;

/// The idioms followWrappedPaths() proves.
inline constexpr Idiom PathIdioms[] = {
    Idiom::GuardedUse,  Idiom::BoundsAndWrap, Idiom::MulDiv,
    Idiom::LoopCounter, Idiom::AlignZero,     Idiom::SignGuard};

struct PathVerdict {
  /// One of PathIdioms; None when unproven.
  Idiom Kind = Idiom::None;
  std::string Reason; // why unproven
};

/// DT is F's dominator tree: an operation reached only through the
/// no-wrap side of a wrap test on the same value cannot wrap at all. The
/// walk takes no more than Opts' budget (Options.h).
PathVerdict followWrappedPaths(const WrappingOp &Op, llvm::Function &F,
                               const llvm::DominatorTree &DT,
                               const FunctionIndex &Index,
                               const WrapIdiomOptions &Opts);

} // namespace wrapidiom

#endif
