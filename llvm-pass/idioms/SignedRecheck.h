//===- SignedRecheck.h - Re-check signed quantities in unsigned arithmetic ===//
//
// Part of wrapidiom. Some unsigned additions and subtractions only encode a
// signed quantity: `unsigned long x; int off; x + off` adds a signed offset
// (clang sign-extends `off` and checks an unsigned add, which fires on every
// negative offset), and `long d = (long)(a - b)` keeps a signed difference
// of two unsigned values (the unsigned check fires whenever a < b). For
// these the plain unsigned check is wrong both ways, and no removal proof
// holds: the check is *re-checked*, i.e. its handler and report stay and
// only its condition is replaced by the one of the signed meaning.
//
//   signed-offset      uadd/usub.with.overflow.iN(x, sext(off)) (either
//                      addend of an add, the subtrahend of a sub):
//                      report when the true x +- off leaves [0, 2^N):
//                      ov XOR (off < 0).
//   signed-difference  usub.with.overflow.iN(a, b), no operand sign-
//                      extended, every use of the difference reading it
//                      as signed: report when the true a - b does not fit
//                      the signed N-bit type: (d < 0 as signed) XOR borrow.
//
// The decision is made on the promoted function (the uses of a difference
// are only visible in SSA form), the new condition is emitted on the real
// one, from the real check's own values. The rows come after the removal
// rows and the ignorelists': a check a row or an entry turns off is never
// re-checked, and a `=sanitize` entry keeps the plain check.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_SIGNEDRECHECK_H
#define WRAPIDIOM_SIGNEDRECHECK_H

#include "checks/OverflowCheck.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"

namespace wrapidiom {

// The rows (Idioms.def): signedOffset and signedDifference, re-checked by
// recheckSignedOffset and recheckSignedDifference (Rules.h).

/// The part every re-check shares: in the real check C, replace each read
/// of the overflow bit `ov` in the branch's condition (directly or through
/// clang's !nosanitize i1 glue) by Build(B, WO, ov), built with B right
/// after the arithmetic WO, where `ov` is a fresh extractvalue. Build marks
/// what it creates !nosanitize (markNoSanitize).
void replaceOverflowBit(
    const OverflowCheck &C,
    llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &B,
                                     llvm::WithOverflowInst &WO,
                                     llvm::Value *Ov)>
        Build);

/// Every use of the result of WO reads it as signed (a signed comparison,
/// sext, sdiv, srem, ashr, smin/smax, checked signed arithmetic, through
/// trunc, freeze, phi and select) or only tests it for equality, and at
/// least one reads it as signed. Linear in the uses.
bool readOnlyAsSigned(const llvm::WithOverflowInst &WO);

/// Mark V (if an instruction) as part of a check: !nosanitize.
void markNoSanitize(llvm::Value *V);

/// V extended to WideTy as its C signedness reads it (sext if Signed, else
/// zext), named Name, !nosanitize: an operand of a true result computed in
/// 2N bits.
llvm::Value *extendAs(llvm::IRBuilder<> &B, llvm::Value *V,
                      llvm::Type *WideTy, bool Signed,
                      const llvm::Twine &Name);

/// Does True, a result computed exactly in 2N bits, not fit the N-bit type
/// NarrowTy it is read as: its high N bits not all zero (unsigned), or it
/// is not the sign extension of its low N bits (Signed)? Built with B, all
/// !nosanitize, the values named Prefix.high / .low / .back / .out.
llvm::Value *outOfType(llvm::IRBuilder<> &B, llvm::Value *True,
                       llvm::Type *NarrowTy, bool Signed,
                       const llvm::Twine &Prefix);

} // namespace wrapidiom

#endif
