//===- SignedMeaning.h - Re-check on the C types the front end reports ----===//
//
// Part of wrapidiom. A re-check (SignedRecheck.h) built on facts, not
// shapes: clang's implicit-conversion checks say which operand of an
// unsigned add, sub or negation is a signed C value and whether the result
// is consumed as one (analysis/ConversionFacts.h; an explicit cast leaves
// no check, and a result every use reads as signed is consumed as signed
// too). `unsigned long x; long
// d; x + d` is then x plus a signed delta, `-nr` passed to a `long`
// parameter a negative count, `long d = a - b` a signed difference, and
// `s -= u` with `s` a `long` a signed value moved down: the plain unsigned
// check is wrong both ways there (it reports `5 + (-1)` and misses
// `LONG_MAX + 1` read as a `long`).
//
//   signed-meaning   the check reports exactly when the true result, the
//                    operation on the operands' C values (signed ones
//                    read as signed), does not fit the type the result is
//                    read as: [0, 2^N) when consumed as unsigned,
//                    [-2^(N-1), 2^(N-1)) when consumed as signed.
//
// The new condition tests the true result from the operands' and the
// result's sign bits (a sum or difference: the true result is the N-bit
// one plus k * 2^N, k in [-2, 1]; no wider arithmetic) or, for a product,
// computes it in 2N bits (each operand sign- or zero-extended by its C
// signedness). Where the check stays silent, the value the program goes
// on with is the true result: no wrap is hidden. A removal proof comes
// first; the other re-checks apply where the front end said nothing.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_SIGNEDMEANING_H
#define WRAPIDIOM_SIGNEDMEANING_H

#include "analysis/ConversionFacts.h"

namespace wrapidiom {

struct OverflowCheck;

/// Does check C (of the function itself) have facts that give it a signed
/// meaning: an operand signed in C or the result consumed as signed?
/// Unsigned add, sub, negation and, with a signed factor, mul checks.
bool hasSignedMeaning(const OverflowCheck &C, const SignFacts &F);

/// Replace the overflow bit in C's condition by the test of its true
/// result (see above).
void applySignedMeaning(const OverflowCheck &C, const SignFacts &F);

} // namespace wrapidiom

#endif
