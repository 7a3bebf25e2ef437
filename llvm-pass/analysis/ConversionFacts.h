//===- ConversionFacts.h - C signedness from clang's conversion checks ----===//
//
// Part of wrapidiom. IR forgets which operand of an unsigned add was a C
// `long`: `unsigned long + long` is one `add i64`. The front end knows, and
// says so when the file is built with -fsanitize=implicit-integer-sign-change:
// it checks every implicit conversion that may change a value's sign, right
// where it converts, on the value converted:
//
//   %neg = icmp slt iN %v, 0                       ; !nosanitize
//   %ok  = icmp eq i1 %neg, false                  ; signed -> unsigned
//          (icmp eq i1 false, %neg                 ; unsigned -> signed)
//   br i1 %ok, label %cont, label %handler         ; !nosanitize
// handler:
//   call @__ubsan_handle_implicit_conversion[...](data, %v, %v)
//   -- or -- call @llvm.ubsantrap(i8 7)
//
// Which side of the equality is the constant says the direction, whatever
// the handler form (the minimal runtime and traps carry no type). Before
// the function's locals are promoted, a converted value has exactly one
// user in the program, the expression that consumes it, so a check gives:
//
//  - an operand fact: %v, a signed C value, is an operand of an unsigned
//    add/sub/neg (directly, or through the sext of a widening conversion);
//  - a result fact: the result of an unsigned add/sub/neg (directly, or
//    truncated by a narrowing conversion) is consumed as a signed value;
//  - for a compound assignment `s -= u` (clang checks only the conversion
//    back to the left side's type), the left side's load is a signed
//    operand when the signed result is stored where it was loaded from.
//
// These are facts about the C types, not guesses from the IR: a check that
// reads them (SignedMeaning.h) tests the operation on its true result.
// When the checks were requested for this purpose (Kbuild adds the
// sanitizer only together with the plugin, -wrap-idiom-conversion-facts),
// the pass removes them after reading: the user sees no check they did not
// ask for. A user who enabled the sanitizer on purpose keeps its checks.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_CONVERSIONFACTS_H
#define WRAPIDIOM_CONVERSIONFACTS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class BasicBlock;
class BranchInst;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace wrapidiom {

/// One implicit-conversion check of clang's (a branch to a block that
/// reports nothing but implicit conversions).
struct ConversionCheck {
  llvm::BranchInst *Branch = nullptr;
  llvm::BasicBlock *HandlerBlock = nullptr;
  unsigned PassSuccessor = 0;
  /// The value whose sign is tested (the source of a signed -> unsigned
  /// conversion, the converted value of an unsigned -> signed one); null
  /// for a check that says nothing of an unsigned operation: folded by
  /// clang to `br i1 true` (of a constant, cannot fire), a signed ->
  /// signed narrowing's sign change (`(src < 0) xor (dst < 0)`), a
  /// handler block shared by two reports.
  llvm::Value *Checked = nullptr;
  /// unsigned -> signed (the value is consumed as signed); otherwise
  /// signed -> unsigned (a signed value is consumed as unsigned).
  bool ToSigned = false;
};

/// What the front end says of one unsigned add, sub or negation (keyed by
/// its *.with.overflow intrinsic).
struct SignFacts {
  /// The C operand at this index is a signed value.
  bool OperandSigned[2] = {false, false};
  /// The result is consumed as a signed value.
  bool ResultSigned = false;
  bool any() const {
    return OperandSigned[0] || OperandSigned[1] || ResultSigned;
  }
};

using SignFactMap = llvm::DenseMap<const llvm::Instruction *, SignFacts>;

/// Every implicit-conversion check of F, in program order: all of them are
/// what removeConversionChecks() removes, those with Checked set give the
/// facts. Read F before its locals are promoted: the facts need each
/// value's single consumer.
llvm::SmallVector<ConversionCheck, 8> findConversionChecks(llvm::Function &F);

/// The facts the checks give about F's unsigned add/sub/neg checks.
SignFactMap readSignFacts(llvm::ArrayRef<ConversionCheck> Checks);

/// Remove the checks: each branch goes to its continuation and the
/// handler block, left without a predecessor, is deleted (at -O0 too: the
/// kernel's runtime has no handler for them). Returns whether F changed.
bool removeConversionChecks(llvm::ArrayRef<ConversionCheck> Checks);

} // namespace wrapidiom

#endif
