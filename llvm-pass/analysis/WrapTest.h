//===- WrapTest.h - How a comparison or branch relates to a wrap ----------===//
//
// Part of wrapidiom. An operation's wrap is *tested* when the program
// compares its result with one of its own operands in the direction that
// wrap-around flips:
//
//   add  a + b   wraps iff (a + b) < a, (a + b) < b        (unsigned)
//   sub  a - b   wraps iff (a - b) > a                      (unsigned)
//   mul  a * b   wraps iff a != 0 && (a * b) / a != b       (unsigned)
//
// Signed forms are the same under -fwrapv, but a test is *exact* (every
// wrapped execution gives the comparison the same value) only when the
// sign of the other operand is known: for b >= 0, a + b wraps only upwards
// past INT_MAX and lands below a; for b < 0 it wraps downwards and lands
// above a; for a b of unknown sign a wrapped sum can land on either side.
// Pointers likewise: clang's check treats the offset as signed or
// unsigned, and a signed offset of unknown sign makes `p + n < p` inexact.
// Only an exact test can stand for the check.
//
// A signed sum or difference wraps across the sign: up past the maximum it
// lands negative, down past the minimum non-negative. With one operand's
// sign known the direction is known (a + b, a >= 0, can only wrap up), so a
// sign test of the result (`off + len < 0`, `(s64)end >= 0`) is a test
// every wrapped run answers the same way; with both known (both addends
// non-negative) only wrapped runs answer it so (sync_file_range(), the
// loff_t checks of fallocate()). With one sign known, only a wrap up is
// handled by the test: it joins the negative results the test turns away;
// a wrap down joins the non-negative ones it lets through.
//
// An unsigned sum read as signed and compared with an addend b known
// non-negative as signed (fadvise's `(s64)((u64)off + (u64)len) < len`):
// with b < 2^(N-1) the sum wraps only when the other addend is negative as
// signed, and then its signed reading is the true a + b, below b. Every
// wrapped run answers it so, and so do unwrapped runs with a negative a:
// a test to leave by (OneSided).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAPTEST_H
#define WRAPIDIOM_WRAPTEST_H

#include "checks/OverflowCheck.h"
#include "analysis/ValueEquivalence.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/Analysis/SimplifyQuery.h"

#include <optional>
#include <string>

namespace llvm {
class BranchInst;
class DataLayout;
class DomConditionCache;
class DominatorTree;
class ICmpInst;
class Instruction;
class Value;
} // namespace llvm

namespace wrapidiom {

/// The checked operation, as the analyses see it on the promoted function.
struct WrappingOp {
  CheckOp Op = CheckOp::Add;
  bool Signed = false;
  const llvm::Instruction *Def = nullptr; // *.with.overflow call, or GEP
  const llvm::Value *Result = nullptr;    // its value (extractvalue 0, GEP)
  const llvm::Value *LHS = nullptr;       // operands; Ptr: base, null
  const llvm::Value *RHS = nullptr;
  const llvm::DataLayout *DL = nullptr;
  /// Pointers: clang's check treats the offset as signed, or subtracts an
  /// unsigned one (OverflowCheck::PtrSignedOffset, PtrSubtraction).
  bool SignedOffset = false;
  bool Subtraction = false;
  /// Where the sign of an operand is asked: the dominating branch
  /// conditions of the function being decided (may be null).
  const llvm::DominatorTree *DT = nullptr;
  const llvm::DomConditionCache *DC = nullptr;

  /// "sum", "difference", "product", "negation", "pointer".
  llvm::StringRef noun() const;
  /// What a wrap test compares the result with: "an addend", ...
  llvm::StringRef againstNoun() const;
};

/// What known-bits queries about Op's operands may use at At: the data
/// layout, and the branch conditions that dominate At.
llvm::SimplifyQuery factsAt(const WrappingOp &Op, const llvm::Instruction *At);

/// The unsigned values V can take at At: its known bits, with the branch
/// conditions that dominate At.
llvm::ConstantRange unsignedRange(const llvm::Value *V, const WrappingOp &Op,
                                  const llvm::Instruction *At);

/// The values V can take at At (signed or unsigned): its known bits and
/// range with the branch conditions that dominate At, and every comparison
/// of V (with anything of known range) whose branch edge dominates At.
llvm::ConstantRange rangeAt(const llvm::Value *V, bool Signed,
                            const WrappingOp &Op, const llvm::Instruction *At);

/// Build the WrappingOp of a check mapped onto the promoted function; null Result if
/// the intrinsic's result is used in a way the analyses do not model.
std::optional<WrappingOp> wrappingOpOf(const OverflowCheck &C,
                                       std::string &Why);

struct CompareVerdict {
  bool IsTest = false;       // compares the result with the right operand
  bool Exact = false;        // every wrapped run gives it the same value
  bool WrapWhenTrue = false; // a wrapped run makes the comparison true
  /// Exact, but unwrapped runs may give that value too: a sign test of a
  /// signed sum with one operand's sign known (`off + len < 0`, off >= 0).
  /// A test to leave by (guarded-use), not one to stand for the check.
  bool OneSided = false;
  std::string Why;           // when !IsTest (or !Exact): why not

  /// Every wrapped run, and only those, give it one value.
  bool separates() const { return IsTest && Exact && !OneSided; }
};

/// Cmp compares (casts of) the result, as operand ResultOperand, through
/// Chain, with its other operand.
CompareVerdict classifyCompare(const llvm::ICmpInst &Cmp,
                               unsigned ResultOperand, const CastChain &Chain,
                               const WrappingOp &Op);

/// The multiplication test `(a * b) / a != b`: Cmp is an equality of
/// `udiv R, X` and Y where R is the product and {X, Y} its operands.
CompareVerdict classifyDivisionTest(const llvm::ICmpInst &Cmp,
                                    const WrappingOp &Op);

/// Strip what clang wraps around a condition: `xor c, true`, and the
/// `icmp ne (zext c | llvm.expect(zext c, K)), 0` of unlikely(). Returns the
/// innermost i1 and whether it was negated on the way.
const llvm::Value *peelCondition(const llvm::Value *Cond, bool &Negated);

/// If a wrapped execution can only take one side of a branch on Cond,
/// because Cond compares an *operand* with a constant and the wrap pins the
/// operand's range (n-- wraps only when n == 0, so `n != 0` is false),
/// return that side (true/false).
std::optional<bool> decidedByWrap(const llvm::Value *Cond,
                                  const WrappingOp &Op);

} // namespace wrapidiom

#endif
