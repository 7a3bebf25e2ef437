//===- FinalResult.h - Check the expression's result, not each step -------===//
//
// Part of wrapidiom. Some expressions wrap on the way and wrap back: the
// size of an empty resource, `end - start + 1` with end = start - 1;
// round_up(0, 8), `((0 - 1) | 7) + 1`; a maple tree gap that ends at
// ULONG_MAX, `min + gap - 1` with min + gap = 2^64; the top node's last
// index, `(64UL << 58) - 1`. Each step's check reports, yet the value the
// program goes on with is exact. Such steps are one expression: each
// intermediate value has one use, the next step. So the pair (or tree) is
// decided as a whole:
//
//   the final step   re-checked: reported when the true result of the
//                    whole expression, every step computed in 2N bits
//                    (operands sign- or zero-extended by their C
//                    signedness, ConversionFacts.h), does not fit the type
//                    it is read as;
//   the inner steps  removed: their values reach nothing but the final
//                    step, whose re-check covers them.
//
// Steps: checked unsigned add, sub, mul and negation, and the unchecked
// `& | ^` (no negative constant operand) and `<<` between them (in 2N
// bits these compute the two's complement extension of the N-bit result:
// ((-1) | 7) + 1 = 0). Each
// step's value modulo 2^N is what the machine computed, so where the
// re-check is silent the program's value is the true result; where a step
// wrapped and the end did not come back, it reports (at the final step,
// with its operands). The 2N-bit computation is exact only while the
// values fit: each step's bound (bits) is tracked and a tree that may need
// more than 2N bits is not one. A negative mask (round_down()'s ~7) ends a
// tree: read as -8 or as 2^64 - 8, `(0 - 1) & ~7` would be a matter of
// reading, so `0 - 1` keeps its own check.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_FINALRESULT_H
#define WRAPIDIOM_FINALRESULT_H

#include "analysis/ConversionFacts.h"
#include "checks/OverflowCheck.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class Instruction;
} // namespace llvm

namespace wrapidiom {

class PromotedFunction;
struct WrapIdiomOptions;

/// One step of the expression, in the function itself: its operation and,
/// per operand, the step that computes it (or -1: a leaf, read from the
/// step's own operand, sign-extended when Signed).
struct FinalStep {
  llvm::Instruction *Op = nullptr;
  int Child[2] = {-1, -1};
  bool Signed[2] = {false, false};
  /// A checked step whose own check would report its wrap (kept so far or
  /// re-checked; not a constant negation neg-const removed).
  bool Reports = false;
};

/// The expression whose final step a re-check tests: Steps[0] is the final
/// step; ResultSigned: it is read as signed.
struct FinalTree {
  llvm::SmallVector<FinalStep, 4> Steps;
  bool ResultSigned = false;
};

// The rows (Idioms.def): finalResult re-checks a final step
// (recheckFinalResult), finalResultStep removes an inner one; both read one
// plan of the function's expressions, made once every check has been
// through the rows above them (the circular difference's included).

} // namespace wrapidiom

#endif
