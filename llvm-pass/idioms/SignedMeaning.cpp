//===- SignedMeaning.cpp - Re-check on the C types the front end reports --===//
//
// Part of wrapidiom. See SignedMeaning.h.
//
// Why 2N bits suffice: each operand, read by its C signedness, lies in
// [-2^(N-1), 2^N), so their sum or difference lies in (-2^(N+1), 2^(N+1)),
// which the signed 2N-bit type holds exactly for N >= 2; a product with a
// signed factor in [-2^(N-1), 2^(N-1)) has |a * b| < 2^(2N-1), held too
// (two unsigned factors are not re-checked: hasSignedMeaning()). In it:
//  - the result fits [0, 2^N) iff its high N bits are zero (a negative one
//    has them all set, one of 2^N or more has one set);
//  - it fits [-2^(N-1), 2^(N-1)) iff it equals the sign extension of its
//    low N bits.
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

void applySignedMeaning(const OverflowCheck &C, const SignFacts &F) {
  replaceOverflowBit(C, [&](IRBuilder<> &B, WithOverflowInst &WO,
                            Value *Ov) -> Value * {
    Type *NarrowTy = WO.getLHS()->getType();
    unsigned N = NarrowTy->getScalarSizeInBits();
    Type *WideTy = B.getIntNTy(2 * N);
    auto Extend = [&](unsigned K) {
      Value *V = WO.getArgOperand(K);
      Value *E = F.OperandSigned[K] ? B.CreateSExt(V, WideTy, "meaning.op")
                                    : B.CreateZExt(V, WideTy, "meaning.op");
      markNoSanitize(E);
      return E;
    };
    Value *L = Extend(0), *R = Extend(1);
    Value *True = B.CreateBinOp(WO.getBinaryOp(), L, R, "meaning.true");
    markNoSanitize(True);
    // Reported where clang's check reports and the true result does not
    // fit: the plugin excuses the wraps the C types make exact, and adds no
    // report of its own (a u32 counter kept in an int, atomic_read() + u32,
    // is read as signed by C, as modular by the kernel).
    Value *Bad = B.CreateAnd(Ov, outOfType(B, True, NarrowTy, F.ResultSigned,
                                           "meaning"),
                             "meaning.bad");
    markNoSanitize(Bad);
    return Bad;
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
