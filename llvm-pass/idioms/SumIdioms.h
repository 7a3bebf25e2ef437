//===- SumIdioms.h - Sums whose wrap is tested or used in two steps -------===//
//
// Part of wrapidiom. Idioms of sums whose wrap is answered by the program
// in the same breath (see IDIOMS.md):
//
//   end-inclusive    end = start + len - c; if (end < start) ...
//                    with len >= c known: end is start + (len - c), where
//                    len - c cannot wrap, so `end < start` is the exact wrap
//                    test of that sum; the two checks wrap only when it does
//                    or when the subtraction undoes the addition's wrap.
//   end-around-carry s = a + b; r = s + (s < b);   (csum_add())
//                    one's complement addition: the carry out of the sum is
//                    added back in, which is the design; the carry addition
//                    cannot wrap, since a wrapped s is below b. Also as a
//                    branch: s = a + b; if (b > s) s += 1; (csum_partial())
//   rotate-fold      s += (s >> 32) | (s << 32); sum = s >> 32;
//                    (arm64 csum_fold(), ip_fast_csum(), do_csum())
//                    one's complement sum of the two halves of s, in its
//                    high half: the carry out of the top is the carry the
//                    low half already added into the high half, and only
//                    the high half is read.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_SUMIDIOMS_H
#define WRAPIDIOM_SUMIDIOMS_H

#include "analysis/WrapTest.h"

#include <optional>

namespace llvm {
class DemandedBits;
} // namespace llvm

namespace wrapidiom {

/// If Op is the addition or the subtraction of `start + len - c` (c a
/// constant, len >= c where the addition is), the combined operation
/// start + (len - c): an unsigned Add whose Def is the subtraction, Result
/// its value, LHS start and RHS null (len - c is no value of the program).
std::optional<WrappingOp> endInclusiveOf(const WrappingOp &Op);

/// Op is either addition of an end-around carry.
bool isEndAroundCarry(const WrappingOp &Op);

/// Op is x + rot(x, N/2) (shifts or a funnel shift) and DB says nothing
/// reads the low half of the sum.
bool isRotateFold(const WrappingOp &Op, llvm::DemandedBits &DB);

/// add-back: (x - m) + m restores x modulo 2^N (ALIGN_DOWN()); the
/// addition, or a subtraction whose difference only has m added back.
bool isAddBack(const WrappingOp &Op);

} // namespace wrapidiom

#endif
