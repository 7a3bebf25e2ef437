//===- SerialCompare.h - Wrapping counters compared by their difference ---===//
//
// Part of wrapidiom. serial-compare (IDIOMS.md): serial-number arithmetic
// (RFC 1982) compares two wrapping counters by the sign of their modular
// difference, so the wrap is the design:
//
//   (long)(b - a) < 0              time_after(), before(), entity_before()
//   ULONG_MAX / 2 >= (a) - (b)     rcupdate.h ULONG_CMP_GE(), ULONG_CMP_LT()
//
// A test of the difference is a sign test when the exact set of values
// that satisfies it (ConstantRange::makeExactICmpRegion) is one of the four
// sign halves of its width: d >= 0, d < 0, d > 0, d <= 0, however it is
// spelled (signed with zero, unsigned with 2^(N-1) or 2^(N-1) - 1).
//
// The operands of such a difference may wrap too (time_after(jiffies,
// start + HZ), rcu_seq_started()'s `(s - 1) & ~3`): a wrap changes a value
// by 2^N, and an operation whose result modulo 2^N depends only on its
// operands modulo 2^N passes that on unseen, down to the N-bit difference.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_SERIALCOMPARE_H
#define WRAPIDIOM_SERIALCOMPARE_H

#include "analysis/WrapTest.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
} // namespace llvm

namespace wrapidiom {

/// Op is an unsigned difference that reaches nothing but sign tests (and
/// equality tests with zero beside them), at least one.
bool onlySignTested(const WrappingOp &Op);

/// Op is an unsigned sum, difference or product whose every path, through
/// operations that are exact modulo 2^N and into helpers defined here
/// (Body: the function a callee stands for), ends in a difference of its
/// own width that is only sign-tested; at least one.
bool onlyInSerialDifferences(
    const WrappingOp &Op,
    llvm::function_ref<const llvm::Function &(const llvm::Function &)> Body);

/// Op is an unsigned difference that reaches a sign test and something
/// else too: `d = a - b; if (d < 0) return; use(d);` (update_rq_clock()).
/// Not an idiom: a wrap by 2^(N-1) or more passes the test and is used
/// (false when the subtrahend is known to be at most 2^(N-1)).
/// Only for the reason a kept check gives.
bool signTestedAndUsed(const WrappingOp &Op);

} // namespace wrapidiom

#endif
