//===- SignedRecheck.cpp - Re-check signed quantities in unsigned arithmetic ===//
//
// Part of wrapidiom. See SignedRecheck.h. N is the width of the operation;
// every value below is read as a mathematical integer, u(v) being the
// N-bit value v as unsigned and s(v) as signed.
//
// signed-offset. x is unsigned, x in [0, 2^N); off is the narrow signed
// value, sext(off) has u = off if off >= 0 and u = off + 2^N if off < 0.
// The true result is x + off (x - off for a sub); `ov` is the unsigned
// overflow bit, `neg` is off < 0.
//
//   x + off, off >= 0: u = off, ov = (x + off >= 2^N). The true result is
//     >= 0, so it leaves [0, 2^N) exactly when ov; neg = 0: bad = ov.
//   x + off, off < 0: x + u = x + off + 2^N, so ov = (x + off >= 0). The
//     true result is < x < 2^N, so it leaves the range exactly when
//     x + off < 0, i.e. when !ov; neg = 1: bad = !ov = ov ^ 1.
//   x - off, off >= 0: u = off, ov (the borrow) = (x < off). The true
//     result is <= x < 2^N, so it leaves the range exactly when x - off
//     < 0, i.e. when ov; neg = 0: bad = ov.
//   x - off, off < 0: u = off + 2^N, ov = (x < off + 2^N) = (x - off <
//     2^N). The true result is > x >= 0, so it leaves the range exactly
//     when x - off >= 2^N, i.e. when !ov; neg = 1: bad = ov ^ 1.
//
// In all four cases the true result leaves [0, 2^N) exactly when
// ov XOR neg. `sext(off) - x` is not accepted: there a negative off always
// leaves the range, whatever the borrow. Neither is a sum of two sexts
// (-1 + -1 is out of range, and ov ^ neg says no) -- unless one of them
// extends a value known non-negative (computeKnownBits): that sext is a
// zext, x in [0, 2^(N-1)), and the other is the signed offset
// (`--trycount + curdelay` with `curdelay = !delay`, srcutree.c). Constants are never
// signed offsets: clang folds `x + (-64)` to the same `i64 -64` as
// `x + 0xffffffffffffffc0UL`, and the latter (the kernel's PAGE_OFFSET
// style constants) is an unsigned addend whose wrap is real; re-checking it
// would report every address that does *not* wrap and hide those that do.
//
// signed-difference. a, b in [0, 2^N), the true difference t = a - b lies
// in (-2^N, 2^N); the machine gives d = t mod 2^N and borrow = (t < 0).
// t fits the signed N-bit type exactly when t in [-2^(N-1), 2^(N-1)).
//
//   t >= 0: borrow = 0, d = t, and d's sign bit is set exactly when
//     t >= 2^(N-1), i.e. when t does not fit: bad = sign(d) = sign ^ 0.
//   t < 0: borrow = 1, d = t + 2^N, whose sign bit is set exactly when
//     t + 2^N >= 2^(N-1), i.e. t >= -2^(N-1), i.e. when t fits:
//     bad = !sign(d) = sign ^ 1.
//
// So the true difference does not fit exactly when sign(d) XOR borrow; and
// where it fits, s(d) = t. That is what makes the uses below sound: each
// one computes a function of s(d) (a signed comparison, a sign extension,
// a signed division...), so on every run the re-check lets pass it sees
// the true difference. A store, a return, a call argument, an unsigned
// comparison, a zext, `lshr`, `udiv` or plain arithmetic read u(d), which
// for a < b is 2^N + t, not t: a wrap the re-check would hide, so any such
// use keeps the plain check. clang's own signed check (ssub.with.overflow)
// would be wrong here: it reads a and b as signed and fires on a = 2^63.
//
//===----------------------------------------------------------------------===//
#include "idioms/SignedRecheck.h"

#include "idioms/Rules.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace wrapidiom {

namespace {

/// Is V the sign extension of a value that may be negative? The sext of a
/// value known non-negative (`unsigned long c = !flag;` is the sext of a
/// zext of an i1) is its zero extension: an unsigned value like any other.
/// An arithmetic shift right by a constant is the sign extension of a
/// narrower value too (`ashr x, c` is sext(trunc(x >> c))): clang emits it
/// only for a signed C value, e.g. PHYS_PFN(adj_start) of a `long`, which
/// the macro then casts to unsigned long.
bool isSignedExtension(const Value *V, const DataLayout &DL,
                       const Instruction &At) {
  const Value *Narrow;
  uint64_t Shift;
  if (const auto *SE = dyn_cast<SExtInst>(V))
    Narrow = SE->getOperand(0);
  else if (!match(V, m_AShr(m_Value(Narrow), m_ConstantInt(Shift))) ||
           Shift == 0)
    return false;
  return !isKnownNonNegative(Narrow, SimplifyQuery(DL, &At));
}

/// The index of the sign-extended operand of an unsigned add (either
/// addend, not both) or sub (the subtrahend, the minuend not
/// sign-extended); else -1.
int signedOffsetOperand(const WithOverflowInst &WO) {
  const DataLayout &DL = WO.getDataLayout();
  bool LS = isSignedExtension(WO.getLHS(), DL, WO),
       RS = isSignedExtension(WO.getRHS(), DL, WO);
  switch (WO.getIntrinsicID()) {
  case Intrinsic::uadd_with_overflow:
    if (LS != RS)
      return LS ? 0 : 1;
    return -1;
  case Intrinsic::usub_with_overflow:
    return RS && !LS ? 1 : -1;
  default:
    return -1;
  }
}

/// An equality test reads the same bits whatever the sign: it may stand
/// beside signed reads (`if (!d) ...; if (d < 0) ...`), but it is no
/// evidence of a signed quantity. `ip - 1 != addr` with a kernel address
/// (top bit set) is an unsigned difference whose sign bit is set without
/// a borrow: re-checked as signed it would be reported, wrongly.
bool isSignAgnosticRead(const Instruction &I) {
  const auto *Cmp = dyn_cast<ICmpInst>(&I);
  return Cmp && Cmp->isEquality();
}

/// A use that reads the difference as signed and yields a value that is a
/// function of its signed value (see the header comment): no need to
/// follow it further.
bool isSignedRead(const Instruction &I, unsigned OpNo) {
  if (const auto *Cmp = dyn_cast<ICmpInst>(&I))
    return Cmp->isSigned();
  switch (I.getOpcode()) {
  case Instruction::SExt:
  case Instruction::SIToFP:
  case Instruction::SDiv:
  case Instruction::SRem:
    return true;
  case Instruction::AShr:
    return OpNo == 0; // the shifted value, not the amount
  default:
    break;
  }
  if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::smin:
    case Intrinsic::smax:
    case Intrinsic::sadd_with_overflow: // checked signed arithmetic:
    case Intrinsic::ssub_with_overflow: // its own check reports what the
    case Intrinsic::smul_with_overflow: // signed value overflows to
      return true;
    case Intrinsic::abs:
      return OpNo == 0;
    default:
      break;
    }
  }
  return false;
}

/// Uses that pass the value on unchanged as far as its signed reading is
/// concerned (trunc keeps the low bits, read as signed further on): their
/// own uses must be signed reads.
bool passesOn(const Instruction &I, unsigned OpNo) {
  switch (I.getOpcode()) {
  case Instruction::Trunc:
  case Instruction::Freeze:
  case Instruction::PHI:
    return true;
  case Instruction::Select:
    return OpNo != 0;
  default:
    return false;
  }
}

} // namespace

// Dead-value takes a result nothing reads; equality alone says nothing of
// sign. Each value is visited once.
bool readOnlyAsSigned(const WithOverflowInst &WO) {
  SmallVector<const Value *, 8> Work;
  SmallPtrSet<const Value *, 8> Seen;
  for (const User *U : WO.users()) {
    const auto *EV = dyn_cast<ExtractValueInst>(U);
    if (!EV || EV->getNumIndices() != 1)
      return false;
    if (EV->getIndices()[0] == 1)
      continue; // the overflow bit: the check itself
    if (Seen.insert(EV).second)
      Work.push_back(EV);
  }
  unsigned Reads = 0;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        return false;
      if (isInstrumentation(*I))
        continue; // another check reporting the value
      if (isSignedRead(*I, U.getOperandNo())) {
        ++Reads;
        continue;
      }
      if (isSignAgnosticRead(*I))
        continue;
      if (!passesOn(*I, U.getOperandNo()))
        return false;
      if (Seen.insert(I).second)
        Work.push_back(I);
    }
  }
  return Reads > 0;
}

namespace {

/// The checked arithmetic of an unsigned add or sub check, if it is one a
/// re-check can rebuild.
const WithOverflowInst *recheckable(const OverflowCheck &P) {
  if (P.Combined || P.Signed || !P.Arith ||
      (P.Op != CheckOp::Add && P.Op != CheckOp::Sub))
    return nullptr;
  return dyn_cast<WithOverflowInst>(P.Arith);
}

} // namespace

/// signed-offset's row: the operand that is the sign extension (on the
/// promoted function; in the function itself it may be the load of a local
/// holding it: the same value, whose sign the re-check tests).
bool signedOffset(RuleInput &In) {
  const WithOverflowInst *WO = recheckable(In.C);
  int Off = WO ? signedOffsetOperand(*WO) : -1;
  if (Off < 0)
    return false;
  In.Args.Operand = unsigned(Off);
  return true;
}

/// signed-difference's row: a subtraction of two values neither of which
/// is sign-extended, whose difference every use reads as signed.
bool signedDifference(RuleInput &In) {
  const WithOverflowInst *WO = recheckable(In.C);
  return WO && WO->getIntrinsicID() == Intrinsic::usub_with_overflow &&
         !isa<SExtInst>(WO->getLHS()) && !isa<SExtInst>(WO->getRHS()) &&
         readOnlyAsSigned(*WO);
}

void markNoSanitize(Value *V) {
  if (auto *I = dyn_cast<Instruction>(V))
    I->setMetadata(LLVMContext::MD_nosanitize,
                   MDNode::get(I->getContext(), {}));
}

Value *extendAs(IRBuilder<> &B, Value *V, Type *WideTy, bool Signed,
                const Twine &Name) {
  Value *E = Signed ? B.CreateSExt(V, WideTy, Name)
                    : B.CreateZExt(V, WideTy, Name);
  markNoSanitize(E);
  return E;
}

Value *outOfType(IRBuilder<> &B, Value *True, Type *NarrowTy, bool Signed,
                 const Twine &Prefix) {
  Type *WideTy = True->getType();
  Value *Bad;
  if (Signed) {
    Value *Low = B.CreateTrunc(True, NarrowTy, Prefix + ".low");
    Value *Back = B.CreateSExt(Low, WideTy, Prefix + ".back");
    Bad = B.CreateICmpNE(Back, True, Prefix + ".out");
    markNoSanitize(Low);
    markNoSanitize(Back);
  } else {
    Value *High = B.CreateLShr(True, NarrowTy->getScalarSizeInBits(),
                               Prefix + ".high");
    Bad = B.CreateICmpNE(High, Constant::getNullValue(WideTy),
                         Prefix + ".out");
    markNoSanitize(High);
  }
  markNoSanitize(Bad);
  return Bad;
}

void replaceOverflowBit(
    const OverflowCheck &C,
    function_ref<Value *(IRBuilder<> &B, WithOverflowInst &WO, Value *Ov)>
        Build) {
  auto *WO = dyn_cast_or_null<WithOverflowInst>(C.Arith);
  if (!WO || C.Combined)
    return;
  // The places where the condition reads this operation's overflow bit:
  // the branch itself, or the !nosanitize i1 glue clang builds it from
  // (xor true; and/or/select with llvm.allow.ubsan.check). Only the bit is
  // replaced, so such guards keep their meaning.
  SmallVector<Use *, 2> Sites;
  SmallVector<Instruction *, 4> Work{C.Branch};
  SmallPtrSet<Instruction *, 8> Seen{C.Branch};
  while (!Work.empty()) {
    Instruction *G = Work.pop_back_val();
    for (Use &U : G->operands()) {
      if (match(U.get(), m_ExtractValue<1>(m_Specific(WO)))) {
        Sites.push_back(&U);
        continue;
      }
      auto *Op = dyn_cast<Instruction>(U.get());
      if (!Op || !Op->getType()->isIntegerTy(1) ||
          !Op->hasMetadata(LLVMContext::MD_nosanitize) ||
          !(isa<SelectInst>(Op) || Op->getOpcode() == Instruction::Xor ||
            Op->getOpcode() == Instruction::And ||
            Op->getOpcode() == Instruction::Or))
        continue;
      if (Seen.insert(Op).second)
        Work.push_back(Op);
    }
  }
  if (Sites.empty())
    return; // cannot happen: the check was found through this bit
  // Right after the arithmetic, which dominates every site (and its
  // operands dominate it).
  IRBuilder<> B(WO->getNextNode());
  B.SetCurrentDebugLocation(cast<Instruction>(Sites.front()->get())
                                ->getDebugLoc());
  Value *Ov = B.CreateExtractValue(WO, 1, "recheck.ov");
  markNoSanitize(Ov);
  Value *Bad = Build(B, *WO, Ov);
  if (auto *OvI = dyn_cast<Instruction>(Ov);
      OvI && OvI != Bad && OvI->use_empty())
    OvI->eraseFromParent(); // a condition built without the bit
  SmallPtrSet<Instruction *, 2> Old;
  for (Use *U : Sites) {
    Old.insert(cast<Instruction>(U->get()));
    U->set(Bad);
  }
  for (Instruction *E : Old) // clang's own extractvalue, now unused
    if (E->use_empty())
      E->eraseFromParent();
}

namespace {

/// ov XOR (Signed < 0), Signed the value whose sign decides.
void recheckSign(const OverflowCheck &C,
                 function_ref<Value *(IRBuilder<> &B, WithOverflowInst &WO)>
                     SignedValue) {
  replaceOverflowBit(C, [&](IRBuilder<> &B, WithOverflowInst &WO,
                            Value *Ov) -> Value * {
    Value *Signed = SignedValue(B, WO);
    Value *Neg = B.CreateICmpSLT(
        Signed, Constant::getNullValue(Signed->getType()), "recheck.neg");
    Value *Bad = B.CreateXor(Ov, Neg, "recheck.out");
    markNoSanitize(Neg);
    markNoSanitize(Bad);
    return Bad;
  });
}

} // namespace

void recheckSignedOffset(const OverflowCheck &C, const Decision &D) {
  // off < 0, through its sext: the operand the decision found to be one on
  // the promoted function (at -O0 here perhaps the load of a local that
  // holds the sext's value).
  recheckSign(C, [&](IRBuilder<> &, WithOverflowInst &WO) {
    return WO.getArgOperand(D.Args.Operand);
  });
}

void recheckSignedDifference(const OverflowCheck &C, const Decision &) {
  recheckSign(C, [](IRBuilder<> &B, WithOverflowInst &WO) {
    Value *Diff = B.CreateExtractValue(&WO, 0, "recheck.diff");
    markNoSanitize(Diff);
    return Diff;
  });
}

} // namespace wrapidiom
