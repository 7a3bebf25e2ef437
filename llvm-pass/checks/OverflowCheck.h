//===- OverflowCheck.h - Find the UBSan overflow checks clang emitted -----===//
//
// Part of wrapidiom. A UBSan overflow check is recognised by its structure,
// never by block names (release clang drops them):
//
//   %r  = call {iN, i1} @llvm.[su]{add,sub,mul}.with.overflow.iN(a, b)  ; or a GEP
//   %ov = extractvalue {iN, i1} %r, 1
//   %ok = xor i1 %ov, true                                 ; !nosanitize
//   br i1 %ok, label %cont, label %handler                 ; !nosanitize
// handler:                                                 ; all !nosanitize
//   call void @__ubsan_handle_add_overflow[_abort|_minimal[_abort|_preserve]]
//   -- or --  call void @llvm.ubsantrap(i8 <kind>)   (-fsanitize-trap, -ftrapv)
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_OVERFLOWCHECK_H
#define WRAPIDIOM_OVERFLOWCHECK_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace llvm {
class BasicBlock;
class BranchInst;
class CallBase;
class Function;
class GetElementPtrInst;
class GlobalVariable;
class Instruction;
class IntrinsicInst;
class Value;
} // namespace llvm

namespace wrapidiom {

/// The arithmetic a check guards.
enum class CheckOp { Add, Sub, Mul, Neg, Ptr };

/// "add", "sub", "mul", "negate", "pointer".
llvm::StringRef checkOpName(CheckOp Op);

/// How the check reports: which runtime entry point clang chose.
enum class CheckForm {
  Recover,      // __ubsan_handle_X_overflow (full runtime, continues)
  Abort,        // __ubsan_handle_X_overflow_abort
  Minimal,      // __ubsan_handle_X_overflow_minimal
  MinimalAbort, // __ubsan_handle_X_overflow_minimal_abort
  MinimalPreserve, // __ubsan_handle_X_overflow_minimal_preserve (preserve_all)
  Trap,         // llvm.ubsantrap(kind)
};

/// The source location clang recorded in the handler's static data (full
/// runtime forms only), so remarks can name the site without -g.
struct SourceLoc {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

struct OverflowCheck {
  llvm::BranchInst *Branch = nullptr;   // the !nosanitize conditional branch
  llvm::BasicBlock *HandlerBlock = nullptr;
  llvm::CallBase *Handler = nullptr;    // handler call or llvm.ubsantrap
  unsigned PassSuccessor = 0;           // successor taken when no overflow
  CheckOp Op = CheckOp::Add;
  CheckForm Form = CheckForm::Recover;
  bool Signed = false;                  // integer checks: s*.with.overflow
  /// Integer checks: the *.with.overflow intrinsic whose bit is tested.
  llvm::IntrinsicInst *Arith = nullptr;
  /// Pointer checks: the inbounds GEP whose wrap is tested.
  llvm::GetElementPtrInst *GEP = nullptr;
  /// Pointer checks: the part of the condition that compares the computed
  /// address with its base (`icmp uge`, `icmp ule` for `p - n`, or for
  /// signed offsets `select (offset >= 0), uge, ult`). The rest of the
  /// condition tests that the offset computation did not overflow and that
  /// a null base stays null; a pointer wrap test of the program answers
  /// only for this part.
  llvm::Instruction *PtrAddressTest = nullptr;
  /// The offset is signed (clang's select form): its sign decides which
  /// way a wrap moves the address.
  bool PtrSignedOffset = false;
  /// An unsigned offset is subtracted (`p - n`): a wrap moves the address
  /// above its base.
  bool PtrSubtraction = false;
  /// Full-runtime handler data ({SourceLocation, TypeDescriptor*, ...}).
  llvm::GlobalVariable *Data = nullptr;
  /// Set when the branch condition mixes in anything but this check's own
  /// overflow bit (another operation's bit, unknown leaves): such a check is
  /// never folded, since folding would also drop the other conditions.
  bool Combined = false;
  /// Negations, and subtractions from a literal 0 (`0UL - 100UL`): the
  /// negated operand is a constant as clang emitted it (`-1UL`), recorded
  /// before promotion can turn a local into a constant.
  bool ConstantOperand = false;

  /// The instruction that carries the arithmetic (Arith or GEP).
  llvm::Instruction *arithmetic() const;
  /// "signed-integer-overflow", "unsigned-integer-overflow", "pointer-overflow".
  llvm::StringRef sanitizer() const;
  /// checkOpName(Op).
  llvm::StringRef opName() const { return checkOpName(Op); }
  /// Location from the handler data, if the form carries one.
  std::optional<SourceLoc> sourceLoc() const;
  /// The type name of the handler data's TypeDescriptor, if the form
  /// carries one: clang writes "'size_t' (aka 'unsigned long')" (its names:
  /// typeNames() of Ignorelist.h); "" without one.
  llvm::StringRef typeString() const;
};

/// Collect every overflow check in F, in program order.
llvm::SmallVector<OverflowCheck, 8> findOverflowChecks(llvm::Function &F);

/// Is Callee a UBSan runtime entry point or llvm.ubsantrap? Such calls do not
/// write program memory, which lets the matcher see through handler blocks.
bool isUBSanRuntimeCall(const llvm::CallBase &Call);

/// Calls that neither write program memory nor have an observable effect:
/// the UBSan runtime, and lifetime/assume/expect/allow.ubsan.check/debug
/// intrinsics.
bool isInertCall(const llvm::CallBase &Call);

llvm::StringRef formName(CheckForm Form);

/// Is I part of a check rather than of the program: a !nosanitize
/// instruction other than the checked arithmetic itself (the overflow bit,
/// the branch glue, the handler call and the values it passes). Uses by
/// such instructions are not uses of a value by the program.
bool isInstrumentation(const llvm::Instruction &I);

/// The one instruction that uses V as the program (isInstrumentation()
/// uses aside), or null: none, several, or a use by a constant.
llvm::Instruction *onlyProgramUser(const llvm::Value *V);

} // namespace wrapidiom

#endif
