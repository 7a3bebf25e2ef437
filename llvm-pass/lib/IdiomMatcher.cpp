//===- IdiomMatcher.cpp - Decide whether a wrap is intentional and handled ===//
//
// Part of wrapidiom. All reasoning happens on the promoted shadow of the
// function (ShadowFunction), so locals are SSA values; what is left in
// memory (fields, globals) is compared load by load, proving that nothing
// can write the location between the two loads.
//
//===----------------------------------------------------------------------===//
#include "IdiomMatcher.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wrapidiom {

StringRef idiomName(Idiom I) {
  switch (I) {
  case Idiom::None:
    return "none";
  case Idiom::AddCompare:
    return "add-compare";
  case Idiom::SubCompare:
    return "sub-compare";
  case Idiom::PtrCompare:
    return "ptr-compare";
  case Idiom::Ignorelist:
    return "ignorelist";
  }
  return "?";
}

StringRef idiomDescription(Idiom I) {
  switch (I) {
  case Idiom::None:
    return "no idiom";
  case Idiom::AddCompare:
    return "the sum is only compared with an addend";
  case Idiom::SubCompare:
    return "the difference is only compared with its minuend";
  case Idiom::PtrCompare:
    return "the pointer sum is only compared with its base";
  case Idiom::Ignorelist:
    return "an ignorelist entry names it";
  }
  return "?";
}

namespace {

/// Bounds that keep the matcher linear in practice; running out of budget
/// only ever keeps a check.
constexpr unsigned MaxValueDepth = 6;
constexpr unsigned MaxScannedInstructions = 512;

/// Casts that preserve the order of values, so that a comparison of two
/// casted values is a comparison of the originals. Truncations do not.
bool isOrderPreservingCast(const Value *V, const DataLayout &DL) {
  const auto *Cast = dyn_cast<CastInst>(V);
  if (!Cast)
    return false;
  switch (Cast->getOpcode()) {
  case Instruction::ZExt:
  case Instruction::SExt:
    return true;
  case Instruction::BitCast:
    return Cast->getSrcTy()->isIntOrPtrTy() && Cast->getDestTy()->isIntOrPtrTy();
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
    return DL.getTypeSizeInBits(Cast->getSrcTy()) ==
           DL.getTypeSizeInBits(Cast->getDestTy());
  default:
    return false;
  }
}

/// Can I write the memory L reads? Only a store or call can, and the UBSan
/// runtime (the handler blocks between the two loads of `a` in
/// `a + b < a`) writes no program memory.
bool mayClobber(const Instruction &I, const LoadInst &L) {
  if (!I.mayWriteToMemory())
    return false;
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    if (isUBSanRuntimeCall(*Call))
      return false;
    if (const auto *II = dyn_cast<IntrinsicInst>(Call)) {
      switch (II->getIntrinsicID()) {
      case Intrinsic::lifetime_start:
      case Intrinsic::lifetime_end:
      case Intrinsic::assume:
      case Intrinsic::allow_ubsan_check:
        return false;
      default:
        break;
      }
    }
    return true;
  }
  if (const auto *SI = dyn_cast<StoreInst>(&I)) {
    // A pointer the function received (or a global) cannot point into one
    // of the function's own stack slots.
    const Value *StoreObj = getUnderlyingObject(SI->getPointerOperand());
    const Value *LoadObj = getUnderlyingObject(L.getPointerOperand());
    if (StoreObj != LoadObj &&
        ((isa<AllocaInst>(StoreObj) &&
          (isa<Argument>(LoadObj) || isa<GlobalValue>(LoadObj))) ||
         (isa<AllocaInst>(LoadObj) &&
          (isa<Argument>(StoreObj) || isa<GlobalValue>(StoreObj))) ||
         (isa<AllocaInst>(StoreObj) && isa<AllocaInst>(LoadObj))))
      return false;
  }
  return true;
}

/// Does every path from First to Second avoid writes to the loaded memory?
/// Walks backwards from Second; reaching the entry without passing First
/// means First does not dominate Second.
bool noClobberBetween(const LoadInst &First, const LoadInst &Second) {
  unsigned Budget = MaxScannedInstructions;
  SmallVector<std::pair<const BasicBlock *, const Instruction *>, 8> Work;
  SmallPtrSet<const BasicBlock *, 8> Visited;
  // (block, instruction to scan backwards from, exclusive)
  Work.push_back({Second.getParent(), &Second});
  while (!Work.empty()) {
    auto [BB, From] = Work.pop_back_val();
    bool ReachedFirst = false;
    for (const Instruction *I = From ? From->getPrevNode() : &BB->back(); I;
         I = I->getPrevNode()) {
      if (I == &First) {
        ReachedFirst = true;
        break;
      }
      if (--Budget == 0 || mayClobber(*I, First))
        return false;
    }
    if (ReachedFirst)
      continue;
    if (pred_empty(BB))
      return false;
    for (const BasicBlock *Pred : predecessors(BB))
      if (Visited.insert(Pred).second)
        Work.push_back({Pred, nullptr});
  }
  return true;
}

/// Are A and B the same value at the point of the later one?
bool sameValue(const Value *A, const Value *B, const DataLayout &DL,
               unsigned Depth = 0) {
  if (A == B)
    return true;
  if (Depth >= MaxValueDepth || A->getType() != B->getType())
    return false;
  const auto *IA = dyn_cast<Instruction>(A);
  const auto *IB = dyn_cast<Instruction>(B);
  if (!IA || !IB || IA->getOpcode() != IB->getOpcode())
    return false;
  if (const auto *LA = dyn_cast<LoadInst>(IA)) {
    const auto *LB = cast<LoadInst>(IB);
    if (!LA->isSimple() || !LB->isSimple() ||
        !sameValue(LA->getPointerOperand(), LB->getPointerOperand(), DL,
                   Depth + 1))
      return false;
    return noClobberBetween(*LA, *LB) || noClobberBetween(*LB, *LA);
  }
  if (const auto *GA = dyn_cast<GetElementPtrInst>(IA)) {
    const auto *GB = cast<GetElementPtrInst>(IB);
    if (GA->getSourceElementType() != GB->getSourceElementType())
      return false;
  } else if (!isa<CastInst>(IA) && !isa<BinaryOperator>(IA)) {
    return false;
  }
  // Pure instructions: equal operands give equal results. Division could
  // trap, but it would have trapped at A already.
  if (IA->getNumOperands() != IB->getNumOperands())
    return false;
  for (unsigned I = 0, E = IA->getNumOperands(); I != E; ++I)
    if (!sameValue(IA->getOperand(I), IB->getOperand(I), DL, Depth + 1))
      return false;
  return true;
}

/// The casts between an arithmetic result and the comparison that uses it,
/// innermost first.
using CastChain = SmallVector<const CastInst *, 2>;

/// Peel from X the same casts the result went through, outermost first, so
/// that X can be compared with an operand of the arithmetic. Constants are
/// narrowed when the narrowing is exact.
const Value *peelLikeChain(const Value *X, const CastChain &Chain) {
  for (auto It = Chain.rbegin(), E = Chain.rend(); It != E; ++It) {
    const CastInst *Cast = *It;
    if (const auto *XC = dyn_cast<CastInst>(X)) {
      if (XC->getOpcode() != Cast->getOpcode() ||
          XC->getSrcTy() != Cast->getSrcTy())
        return nullptr;
      X = XC->getOperand(0);
      continue;
    }
    const auto *CI = dyn_cast<ConstantInt>(X);
    auto *SrcTy = dyn_cast<IntegerType>(Cast->getSrcTy());
    if (!CI || !SrcTy)
      return nullptr;
    if (Cast->getOpcode() != Instruction::ZExt &&
        Cast->getOpcode() != Instruction::SExt)
      return nullptr;
    APInt Narrow = CI->getValue().trunc(SrcTy->getBitWidth());
    APInt Back = Cast->getOpcode() == Instruction::ZExt
                     ? Narrow.zext(CI->getBitWidth())
                     : Narrow.sext(CI->getBitWidth());
    if (Back != CI->getValue())
      return nullptr;
    X = ConstantInt::get(SrcTy, Narrow);
  }
  return X;
}

/// How a comparison relates to the wrap of an operation.
struct WrapTestSpec {
  bool SignedOp;                         // signed arithmetic: signed compare
  SmallVector<const Value *, 2> Against; // what the result may be compared with
  const char *ResultNoun;                // "sum", "difference", "pointer"
  const char *AgainstNoun;               // "an addend", "its minuend", ...
};

/// Is Cmp, which compares (casts of) the result with X, a wrap test?
bool isWrapTest(const ICmpInst &Cmp, unsigned ResultOperand,
                const CastChain &Chain, const WrapTestSpec &Spec,
                const DataLayout &DL, std::string &Why) {
  if (!Cmp.isRelational()) {
    Why = std::string("the ") + Spec.ResultNoun +
          " is tested for equality, which is not a wrap test";
    return false;
  }
  // The predicate as it applies to the uncasted values: a comparison of
  // zero-extended values is an unsigned comparison of the originals; sign
  // extension preserves both orders.
  bool Unsigned = Cmp.isUnsigned();
  for (const CastInst *Cast : Chain)
    if (Cast->getOpcode() == Instruction::ZExt)
      Unsigned = true;
  if (Unsigned == Spec.SignedOp) {
    Why = std::string("the ") + Spec.ResultNoun + " is compared " +
          (Unsigned ? "unsigned" : "signed") + ", the operation is " +
          (Spec.SignedOp ? "signed" : "unsigned");
    return false;
  }
  const Value *X = peelLikeChain(Cmp.getOperand(1 - ResultOperand), Chain);
  if (X)
    for (const Value *Candidate : Spec.Against)
      if (sameValue(X, Candidate, DL))
        return true;
  Why = std::string("the ") + Spec.ResultNoun +
        " is compared with a value that is not " + Spec.AgainstNoun;
  return false;
}

/// Every use of Result (through order-preserving casts) must be a wrap test
/// as Spec describes, and there must be at least one.
bool onlyUsedByWrapTests(const Value *Result, const WrapTestSpec &Spec,
                         const DataLayout &DL, std::string &Why) {
  struct Item {
    const Value *V;
    CastChain Chain;
  };
  SmallVector<Item, 4> Work{{Result, {}}};
  unsigned Tests = 0;
  while (!Work.empty()) {
    Item Cur = Work.pop_back_val();
    for (const Use &U : Cur.V->uses()) {
      const auto *User = cast<Instruction>(U.getUser());
      if (isOrderPreservingCast(User, DL)) {
        Item Next{User, Cur.Chain};
        Next.Chain.push_back(cast<CastInst>(User));
        Work.push_back(std::move(Next));
        continue;
      }
      if (const auto *Cmp = dyn_cast<ICmpInst>(User)) {
        if (!isWrapTest(*Cmp, U.getOperandNo(), Cur.Chain, Spec, DL, Why))
          return false;
        ++Tests;
        continue;
      }
      Why = std::string("the ") + Spec.ResultNoun + " is also used by '" +
            User->getOpcodeName() + "'";
      return false;
    }
  }
  if (Tests == 0) {
    Why = std::string("no wrap test compares the ") + Spec.ResultNoun +
          " with " + Spec.AgainstNoun;
    return false;
  }
  return true;
}

/// The value the arithmetic produces (field 0 of {iN, i1}), or null if the
/// aggregate is used in any other way.
const Value *arithmeticResult(const IntrinsicInst &Arith, std::string &Why) {
  const Value *Result = nullptr;
  for (const User *U : Arith.users()) {
    const auto *EV = dyn_cast<ExtractValueInst>(U);
    if (!EV || EV->getNumIndices() != 1) {
      Why = "the overflow intrinsic's result is used whole";
      return nullptr;
    }
    if (*EV->idx_begin() != 0)
      continue; // the overflow bit: the check itself
    if (Result) {
      Why = "the result is extracted twice";
      return nullptr;
    }
    Result = EV;
  }
  if (!Result)
    Why = "the result is unused";
  return Result;
}

} // namespace

Decision IdiomMatcher::decide(const OverflowCheck &C) {
  Decision D;
  if (C.Combined || !C.arithmetic()) {
    D.Reason = "the check's condition could not be attributed to a single "
               "operation";
    return D;
  }
  const DataLayout &DL = F.getParent()->getDataLayout();

  if (C.Op == CheckOp::Ptr) {
    WrapTestSpec Spec{false, {C.GEP->getPointerOperand()}, "pointer",
                      "its base"};
    if (onlyUsedByWrapTests(C.GEP, Spec, DL, D.Reason))
      D.Kind = Idiom::PtrCompare;
    return D;
  }

  const Value *Result = arithmeticResult(*C.Arith, D.Reason);
  if (!Result)
    return D;
  const Value *LHS = C.Arith->getArgOperand(0);
  const Value *RHS = C.Arith->getArgOperand(1);
  switch (C.Op) {
  case CheckOp::Add: {
    WrapTestSpec Spec{C.Signed, {LHS, RHS}, "sum", "an addend"};
    if (onlyUsedByWrapTests(Result, Spec, DL, D.Reason))
      D.Kind = Idiom::AddCompare;
    break;
  }
  case CheckOp::Sub: {
    WrapTestSpec Spec{C.Signed, {LHS}, "difference", "its minuend"};
    if (onlyUsedByWrapTests(Result, Spec, DL, D.Reason))
      D.Kind = Idiom::SubCompare;
    break;
  }
  case CheckOp::Mul:
    D.Reason = "no idiom proves a multiplication's wrap is handled";
    break;
  case CheckOp::Neg:
    D.Reason = "no idiom proves a negation's wrap is handled";
    break;
  case CheckOp::Ptr:
    break;
  }
  return D;
}

} // namespace wrapidiom
