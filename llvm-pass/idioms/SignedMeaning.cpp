//===- SignedMeaning.cpp - Re-check on the C types the front end reports --===//
//
// Part of wrapidiom. See SignedMeaning.h.
//
// The condition is clang's overflow bit `ov` and the true result not
// fitting the type it is read as. For a sum or difference it needs no
// wider arithmetic: with A, B the operands' N-bit patterns, sa, sb their
// sign bits where they are read as signed (0 for an unsigned one), r the
// N-bit result and c the carry (borrow) clang's check computes,
//   a + b = r + (c - sa - sb) * 2^N,   a - b = r + (-c - sa + sb) * 2^N,
// so the true result is r + k * 2^N with k in [-2, 1]. It fits [0, 2^N) iff
// k = 0, and [-2^(N-1), 2^(N-1)) iff k = 0 with r's sign bit clear or
// k = -1 with it set. Where ov (c = 1) is set:
//   add: k = 0 iff sa xor sb,          k = -1 iff sa and sb;
//   sub: k = 0 iff sb and not sa,      k = -1 iff sa = sb.
// Three sign tests of N-bit values (checked exhaustively for N = 6: every
// pair of patterns, both operations, every signedness of the operands and
// the result). A product has no such form: it is computed in 2N bits, which
// hold it exactly when a factor is signed (|a * b| < 2^(2N-1); two
// unsigned factors are not re-checked, hasSignedMeaning()); there it fits
// [0, 2^N) iff its high N bits are zero, and the signed range iff it is
// the sign extension of its low N bits.
// The low N bits are what the machine computed, so where the check is
// silent the program's N-bit value, read as the consumer reads it, is the
// true result.
//
//===----------------------------------------------------------------------===//
#include "idioms/SignedMeaning.h"

#include "checks/OverflowCheck.h"
#include "idioms/Rules.h"
#include "idioms/SignedRecheck.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace wrapidiom {

bool hasSignedMeaning(const OverflowCheck &C, const SignFacts &F) {
  if (C.Combined || C.Signed || !F.any() || C.Op == CheckOp::Ptr)
    return false;
  const auto *WO = dyn_cast_or_null<WithOverflowInst>(C.Arith);
  if (!WO || WO->isSigned() ||
      WO->getLHS()->getType()->getScalarSizeInBits() < 2)
    return false;
  // A product of two N-bit values needs 2N bits as unsigned, 2N + 1 with
  // a sign: it fits the signed 2N-bit type only if one factor is signed
  // (|a * b| < 2^(2N-1)). Two unsigned factors read as signed stay plain.
  return WO->getBinaryOp() != Instruction::Mul || F.OperandSigned[0] ||
         F.OperandSigned[1];
}

namespace {

/// i1 logic that folds its constants (the signs of unsigned operands are
/// `false`), so that -O0 gets the same short condition as -O2; every
/// instruction made is !nosanitize.
struct Logic {
  IRBuilder<> &B;
  static const ConstantInt *constant(Value *V) {
    return dyn_cast<ConstantInt>(V);
  }
  static bool isFalse(Value *V) {
    const auto *C = constant(V);
    return C && C->isZero();
  }
  Value *made(Value *V) {
    markNoSanitize(V);
    return V;
  }
  Value *bit(bool X) { return X ? B.getTrue() : B.getFalse(); }
  Value *notOf(Value *X) {
    if (const auto *C = constant(X))
      return bit(C->isZero());
    return made(B.CreateNot(X, "meaning.not"));
  }
  /// X op Y for `and` (Absorbing false) and `or` (Absorbing true): a
  /// constant operand is the answer or drops out.
  Value *fold(Instruction::BinaryOps Op, bool Absorbing, Value *X, Value *Y,
              const Twine &Name) {
    for (auto [K, Other] : {std::pair{X, Y}, std::pair{Y, X}})
      if (const auto *C = constant(K))
        return C->isOne() == Absorbing ? K : Other;
    return made(B.CreateBinOp(Op, X, Y, Name));
  }
  Value *andOf(Value *X, Value *Y) {
    return fold(Instruction::And, false, X, Y, "meaning.and");
  }
  Value *orOf(Value *X, Value *Y) {
    return fold(Instruction::Or, true, X, Y, "meaning.or");
  }
  Value *xorOf(Value *X, Value *Y) {
    if (const auto *C = constant(X))
      return C->isZero() ? Y : notOf(Y);
    if (const auto *C = constant(Y))
      return C->isZero() ? X : notOf(X);
    return made(B.CreateXor(X, Y, "meaning.xor"));
  }
  Value *negative(Value *V, const Twine &Name) {
    return made(
        B.CreateICmpSLT(V, Constant::getNullValue(V->getType()), Name));
  }
};

/// Does the true sum or difference fit the type it is read as, given that
/// clang's overflow bit is set (see the top of the file)?
Value *fitsWhenWrapped(IRBuilder<> &B, WithOverflowInst &WO,
                       const SignFacts &F) {
  Logic L{B};
  bool Add = WO.getBinaryOp() == Instruction::Add;
  // A sub whose subtrahend is unsigned, read as unsigned, fits nowhere
  // clang's check fires (k = -1 - sa): the plain check.
  if (!Add && !F.ResultSigned && !F.OperandSigned[1])
    return L.bit(false);
  Value *SA = F.OperandSigned[0] ? L.negative(WO.getLHS(), "meaning.sa")
                                 : L.bit(false);
  Value *SB = F.OperandSigned[1] ? L.negative(WO.getRHS(), "meaning.sb")
                                 : L.bit(false);
  // k = 0 and k = -1 (the true result is r, or r - 2^N). Nothing is built
  // for a term a constant decides.
  Value *KZero = Add                   ? L.xorOf(SA, SB)
                 : Logic::isFalse(SB) ? SB
                                       : L.andOf(SB, L.notOf(SA));
  if (!F.ResultSigned)
    return KZero;
  Value *KMinusOne = Add ? L.andOf(SA, SB) : L.notOf(L.xorOf(SA, SB));
  if (Logic::isFalse(KZero) && Logic::isFalse(KMinusOne))
    return KZero;
  Value *R = L.made(B.CreateExtractValue(&WO, 0, "meaning.r"));
  Value *RS = L.negative(R, "meaning.rs");
  Value *Fits = L.bit(false);
  if (!Logic::isFalse(KZero))
    Fits = L.andOf(KZero, L.notOf(RS));
  if (!Logic::isFalse(KMinusOne))
    Fits = L.orOf(Fits, L.andOf(KMinusOne, RS));
  return Fits;
}

} // namespace

void applySignedMeaning(const OverflowCheck &C, const SignFacts &F) {
  replaceOverflowBit(C, [&](IRBuilder<> &B, WithOverflowInst &WO,
                            Value *Ov) -> Value * {
    Value *Out;
    if (WO.getBinaryOp() != Instruction::Mul) {
      Out = Logic{B}.notOf(fitsWhenWrapped(B, WO, F));
    } else {
      Type *NarrowTy = WO.getLHS()->getType();
      unsigned N = NarrowTy->getScalarSizeInBits();
      Type *WideTy = B.getIntNTy(2 * N);
      auto Extend = [&](unsigned K) {
        return extendAs(B, WO.getArgOperand(K), WideTy, F.OperandSigned[K],
                        "meaning.op");
      };
      Value *L = Extend(0), *R = Extend(1);
      Value *True = B.CreateMul(L, R, "meaning.true");
      markNoSanitize(True);
      Out = outOfType(B, True, NarrowTy, F.ResultSigned, "meaning");
    }
    // Reported where clang's check reports and the true result does not
    // fit: the plugin excuses the wraps the C types make exact, and adds no
    // report of its own (a u32 counter kept in an int, atomic_read() + u32,
    // is read as signed by C, as modular by the kernel).
    return Logic{B}.andOf(Ov, Out);
  });
}

// The row: the facts of the check as clang emitted it (the module step
// read them before promotion, by the function's own operations).
bool signedMeaning(RuleInput &In) {
  const SignFactMap *Signs = In.Facts.frontEnd().Signs;
  if (!Signs || !In.Original.Arith)
    return false;
  auto F = Signs->find(In.Original.Arith);
  if (F == Signs->end() || !hasSignedMeaning(In.Original, F->second))
    return false;
  In.Args.Signs = F->second;
  // An explicit cast, `(long)(cpu_scale - util_avg) / 2`, leaves no
  // conversion check on the result: where every use of it (on the
  // promoted function) reads it as signed, it is consumed as signed all
  // the same, as signed-difference reads it.
  const auto *WO = dyn_cast_or_null<WithOverflowInst>(In.C.Arith);
  if (!In.Args.Signs.ResultSigned && WO && readOnlyAsSigned(*WO))
    In.Args.Signs.ResultSigned = true;
  return true;
}

void recheckSignedMeaning(const OverflowCheck &C, const Decision &D) {
  applySignedMeaning(C, D.Args.Signs);
}

} // namespace wrapidiom
