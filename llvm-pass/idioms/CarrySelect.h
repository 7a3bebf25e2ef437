//===- CarrySelect.h - y = x - C; z = y + (wrap test ? Zw : Zn) -*- C++ -*-===//
//
// Part of wrapidiom. The carry-select idiom: a difference compared with
// its minuend, and a correction chosen by that comparison that makes the
// pair compute the true value on both sides (see IDIOMS.md).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_CARRYSELECT_H
#define WRAPIDIOM_CARRYSELECT_H

namespace llvm {
class DominatorTree;
class Value;
class WithOverflowInst;
} // namespace llvm

namespace wrapidiom {

struct WrappingOp;

/// If V is the value (not the overflow bit) of a checked unsigned
/// subtraction, that usub.with.overflow.
const llvm::WithOverflowInst *checkedUSubOf(const llvm::Value *V);

/// The subtraction of a carry-select: every use of the difference is its
/// wrap test or an exact correcting addition.
bool isCarrySelectSub(const WrappingOp &Sub, const llvm::DominatorTree &DT);

/// The correcting addition of a carry-select.
bool isCarrySelectAdd(const WrappingOp &Add, const llvm::DominatorTree &DT);

} // namespace wrapidiom

#endif
