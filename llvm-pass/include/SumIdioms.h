//===- SumIdioms.h - Sums whose wrap is tested or used in two steps -------===//
//
// Part of wrapidiom. Two idioms in which one wrap test answers for two
// checked operations (see IDIOMS.md):
//
//   end-inclusive    end = start + len - c; if (end < start) ...
//                    with len >= c known: end is start + (len - c), where
//                    len - c cannot wrap, so `end < start` is the exact wrap
//                    test of that sum; the two checks wrap only when it does
//                    or when the subtraction undoes the addition's wrap.
//   end-around-carry s = a + b; r = s + (s < b);   (csum_add())
//                    one's complement addition: the carry out of the sum is
//                    added back in, which is the design; the carry addition
//                    cannot wrap, since a wrapped s is below b.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_SUMIDIOMS_H
#define WRAPIDIOM_SUMIDIOMS_H

#include "WrapTest.h"

#include <optional>

namespace wrapidiom {

/// If Op is the addition or the subtraction of `start + len - c` (c a
/// constant, len >= c where the addition is), the combined operation
/// start + (len - c): an unsigned Add whose Def is the subtraction, Result
/// its value, LHS start and RHS null (len - c is no value of the program).
std::optional<WrappingOp> endInclusiveOf(const WrappingOp &Op);

/// Op is either addition of an end-around carry.
bool isEndAroundCarry(const WrappingOp &Op);

} // namespace wrapidiom

#endif
