//===- WrappedRange.h - What a wrapped value can be, and what it decides --===//
//
// Part of wrapidiom. An unsigned `x + C` that wraps lies in [0, C - 1]
// (`~0 + C` is `C - 1`), `x - C` in [-C, -1]; the unbounded value is that
// plus 2^N, or minus it. ConstantRange carries both through what the
// program does with the value by constants: PAGE_ALIGN()'s `& ~(C - 1)`
// makes it {0} (unbounded: {2^N}), the page-table walkers' pXd_addr_end()
// then subtract 1, which makes it {ULONG_MAX}, and that is the unbounded
// value 2^N - 1 too:
//
//   __boundary = ((addr) + PMD_SIZE) & PMD_MASK;        // {0}; 2^N
//   (__boundary - 1 < (end) - 1) ? __boundary : (end);  // {~0} < no end - 1
//
// A comparison that every wrapped run answers the same way is a test of
// the wrap (WrapPaths.h follows the side those runs take; unwrapped runs
// may take it too). With a constant, ConstantRange's answer for the value
// is enough (PAGE_ALIGN(len) == 0 sends every wrapped run one way). With
// anything else, of which only the type is known, the answer must be the
// same for every value of the other operand, and the one the unbounded
// values give: the wrap then decides nothing. `if (PAGE_ALIGN(len) > lim)`
// is answered "no" by every wrapped run, but the unbounded value says
// "yes": no test.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAPPEDRANGE_H
#define WRAPIDIOM_WRAPPEDRANGE_H

#include "analysis/WrapTest.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/ConstantRange.h"

#include <optional>

namespace llvm {
class ICmpInst;
class Value;
} // namespace llvm

namespace wrapidiom {

/// A value in the executions where the operation wrapped.
struct WrappedValue {
  llvm::ConstantRange Machine; // what the program computes
  /// The value in unbounded arithmetic (IdealBits wide, signed), when
  /// known: masks whose top bit is set keep every higher bit (`~(C - 1)`).
  std::optional<llvm::ConstantRange> Ideal;
};

using RangeMap = llvm::DenseMap<const llvm::Value *, WrappedValue>;

/// Into Ranged, the values computed from Op's result (not the result
/// itself) whose range in the executions where Op wrapped is known.
/// Unsigned additions and subtractions only, by a constant, (subtractions)
/// by a value known to be at most 2^(N-1), which makes every wrapped
/// difference negative as signed (then the difference itself is in Ranged
/// too), or (additions)
/// by a power of two S followed by `& ~(S - 1)` or `& -S` with the same S
/// (pgd_addr_end() with x86's run-time pgdir_shift: the wrapped sum is
/// below S, and the mask clears every bit below S). Followed through
/// `& | ^ + - << >>` by constants, extensions and truncations; a checked
/// `+`/`-` by a constant counts with its call (its own check is its own
/// business). Stops after a few dozen values: what it does not follow is
/// no test, and its uses fail the proofs.
/// Op is an unsigned x - y whose y is known (known bits, the conditions
/// dominating Op) to be at most B, 0 < B <= 2^(N-1): B. Every wrapped
/// difference then lies in [2^N - B, 2^N - 1], negative as signed
/// (sign-guard).
std::optional<llvm::APInt> halfBoundedSubtrahend(const WrappingOp &Op);
/// The range of Op's result itself in the executions where it wrapped, for
/// an unsigned `x + C`, `C + x` or `x - C` (C a constant other than 0): [0,
/// C - 1] and [-C, -1], the unbounded value 2^N more or less. None for
/// other operations.
std::optional<WrappedValue> wrappedResult(const WrappingOp &Op);
/// Where the ranges came from: a constant or a power-of-two mask
/// (align-zero), or a subtrahend of known bound (sign-guard).
enum class RangeSeed { None, Constant, Bounded };
RangeSeed collectWrappedRanges(const WrappingOp &Op, RangeMap &Ranged);

/// Cmp's operand I is V in every wrapped execution: the outcome of Cmp in
/// all of them, when it is proven the same (see above).
std::optional<bool> fixedOutcome(const llvm::ICmpInst &Cmp, unsigned I,
                                 const WrappedValue &V);

/// Cmp's operand I is V in every wrapped execution: the outcome of Cmp for
/// every unbounded value of V (numbers compared; with anything but a
/// constant, for every value of its type, read unsigned), if one.
std::optional<bool> idealOutcome(const llvm::ICmpInst &Cmp, unsigned I,
                                 const WrappedValue &V);

/// Cmp's operand I is V in every wrapped execution: the outcome of Cmp in
/// all of them, for every value of the other operand, whatever the
/// unbounded value would give (`PAGE_ALIGN(len) > limit` is false for every
/// limit). Not a test of the wrap: a decision every wrapped run takes the
/// same way, so only that side needs following (WrapPaths.h).
std::optional<bool> wrappedOutcome(const llvm::ICmpInst &Cmp, unsigned I,
                                   const WrappedValue &V);

/// Op is `v - K` (unsigned, K a constant) of v = (x + C) & M, a checked
/// unsigned addition rounded down to a multiple of a power of two P
/// (M = -P, or `~(S - 1)` / `-S` of the addend S, a power of two): where
/// the addition does not wrap, v is at least C rounded down, and when that
/// is K or more the subtraction wraps only in executions where the
/// addition wrapped (pXd_addr_end()'s `__boundary - 1`: the boundary is 0
/// only then). That addition, as the proofs see it; none otherwise. Its
/// proof follows its wrapped value through the subtraction: when it holds,
/// the subtraction's wrap is harmless too.
std::optional<WrappingOp> maskedSumWrapsFirst(const WrappingOp &Op);

} // namespace wrapidiom

#endif
