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
#include "idioms/Idiom.h"
#include "analysis/WrapTest.h"

#include <string>

namespace llvm {
class DominatorTree;
class Function;
class Value;
} // namespace llvm

namespace wrapidiom {

struct WrapIdiomOptions;

/// What the walk saw on the wrapped runs (Walker::run()).
struct PathEvidence {
  bool WrapTest = false;        // a test of the wrap sent them to the handling
  bool RangedTest = false;      // one of a value of known range under wrap
  bool BoundedSubtrahend = false; // that range from a bounded subtrahend
  bool Product = false;         // the operation is a multiplication
  bool TaintedDecision = false; // a decision on the wrapped value came first
  bool EndedDead = false;       // a run left with the value never used
  bool DecidedExit = false;     // through a branch the wrap decides
};

/// The idioms followWrappedPaths() proves, in the order it names them: the
/// first whose evidence holds. Where says what proves it, and where.
struct PathProof {
  Idiom Kind;
  bool (*Holds)(const PathEvidence &E);
  const char *Where;
};
inline constexpr PathProof PathProofs[] = {
    {Idiom::SignGuard,
     [](const PathEvidence &E) {
       return E.WrapTest && E.RangedTest && E.BoundedSubtrahend;
     },
     "a sign test sends every wrapped run to the handling, the subtrahend "
     "being at most half the range (Walker::wrapSide(), WrappedRange.h "
     "halfBoundedSubtrahend())"},
    {Idiom::AlignZero,
     [](const PathEvidence &E) { return E.WrapTest && E.RangedTest; },
     "a comparison of a value computed from the result by constants, which "
     "every wrapped run answers one way, sends them to the handling "
     "(Walker::wrapSide(), WrappedRange.h fixedOutcome()); or the masked "
     "sum subtracted from wraps first and is proved so "
     "(maskedSumWrapsFirst())"},
    {Idiom::MulDiv,
     [](const PathEvidence &E) { return E.WrapTest && E.Product; },
     "the product divided by a factor and compared with the other sends "
     "wrapped runs to the handling (WrapTest.h classifyDivisionTest())"},
    {Idiom::BoundsAndWrap,
     [](const PathEvidence &E) { return E.WrapTest && E.TaintedDecision; },
     "a comparison decides on the wrapped value before its wrap test, and "
     "its sides reach only pure code, the test or the test's handling "
     "(Walker::branch()), or join again with a value the wrap test gives "
     "every wrapped run (`valid(s) && s >= p`: Walker::pureJoin())"},
    {Idiom::GuardedUse, [](const PathEvidence &E) { return E.WrapTest; },
     "an exact wrap test sends every wrapped run to a side that leaves "
     "without using the value (Walker::wrapSide(), WrapTest.h "
     "classifyCompare()), or a bound of the result by a constant does, "
     "its other side guarding the use (Walker::resultBound()); or a test "
     "of the same value on the way to the operation "
     "(Walker::collectHandling())"},
    {Idiom::LoopCounter,
     [](const PathEvidence &E) { return E.EndedDead && E.DecidedExit; },
     "a branch the wrap decides (an operand compared with a constant) "
     "exits with the value dead (WrapTest.h decidedByWrap())"},
};

struct PathVerdict {
  /// One of PathProofs; None when unproven.
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
