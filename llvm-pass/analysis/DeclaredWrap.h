//===- DeclaredWrap.h - Declarations whose arithmetic wraps by design -----===//
//
// Part of wrapidiom. Some quantities are modular by definition: TCP
// sequence numbers (RFC 9293: modulo 2^32), the scheduler's vruntime, ring
// buffer positions, grace-period counters. No proof about one operation can
// tell such a sum from a length that must not wrap; the declaration can.
// The kernel marks the field, variable or parameter once
//
//   u32 __wraps rcv_nxt;          (include/linux/compiler_types.h)
//
// which, with the plugin, is `__attribute__((annotate("wrap-idiom:wrap")))`.
// clang then emits, at every access, llvm.ptr.annotation on a field's
// address and llvm.var.annotation on a local's or parameter's slot. Before
// the function's locals are promoted this reads them: a load through an
// annotated field address (or an element of it), or from an annotated
// local or parameter slot, is a wrapping value; and removes the annotation
// calls (they would keep the slot in memory and are nobody else's).
//
// A load of a global defined in this file with the annotation (clang
// lists it in llvm.global.annotations; an extern declaration carries none)
// is a wrapping value too.
//
// The declaration is the slot's, not the value's: `u32 __wraps seq = a;`
// does not make `a - b` wrap, nor `s + 1` after `w = s`. Promotion replaces
// a load by the value stored, which other expressions use too, so each
// load read here is marked first: its uses go through a copy of it
// (llvm.ssa.copy), which promotion keeps apart, and the copy is the
// wrapping value. The marks are removed when the DeclaredWrap goes, after
// the decisions and the re-checks built on its values.
//
// As for the Overflow Behavior Types upstream is moving to, the operands
// decide: arithmetic with a wrapping operand wraps by declaration, and so
// does its result (`seq + len - 1`), a phi or select of wrapping values, a
// truncation of one, and the address of a pointer declared to wrap
// ((unsigned long)pcpu_base_addr). Storing a sum into a wrapping field does
// not make the sum's own arithmetic wrapping.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_DECLAREDWRAP_H
#define WRAPIDIOM_DECLAREDWRAP_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/ValueHandle.h"

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace wrapidiom {

class PromotedFunction;

/// The annotation string the kernel's __wraps expands to.
constexpr const char *WrapsAnnotation = "wrap-idiom:wrap";

class DeclaredWrap {
public:
  DeclaredWrap() = default;
  DeclaredWrap(const DeclaredWrap &) = delete;
  DeclaredWrap &operator=(const DeclaredWrap &) = delete;
  /// Removes the marks collect() left in the function.
  ~DeclaredWrap();

  /// Read F's wrap-idiom annotations, then remove them, and mark each
  /// value read from a declared slot or field. Returns whether F changed.
  /// Call before the locals are promoted.
  bool collect(llvm::Function &F);

  /// Replace each mark by the value it copies (also done on destruction).
  void removeMarks();

  /// Replace every mark in F (a copy of a function collect() read) by the
  /// value it copies.
  static void dropMarks(llvm::Function &F);

  /// After promotion: translate what collect() found to the function the
  /// checks are decided on (promotion may have replaced loads).
  void mapTo(const PromotedFunction &P);

  /// Is V, of the promoted function, a wrapping value: declared so, or
  /// computed from one by arithmetic (see the header comment)?
  bool isWrapping(const llvm::Value *V) const;

  bool empty() const { return Found.empty(); }

private:
  bool wrapping(const llvm::Value *V, unsigned Depth) const;

  /// The marks collect() made: the values read from declared slots and
  /// fields.
  llvm::SmallVector<llvm::WeakVH, 16> Found;
  llvm::SmallPtrSet<const llvm::Value *, 16> Declared;
  mutable llvm::DenseMap<const llvm::Value *, bool> Memo;
};

} // namespace wrapidiom

#endif
