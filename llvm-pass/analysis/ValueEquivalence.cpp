//===- ValueEquivalence.cpp - When two IR values are the same value -------===//
//
// Part of wrapidiom. See ValueEquivalence.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/ValueEquivalence.h"

#include "analysis/MemoryFacts.h"
#include "checks/OverflowCheck.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace wrapidiom {

namespace {

/// Bounds that keep the walks linear in practice; running out of budget only
/// ever makes two values "different", which keeps a check.
constexpr unsigned MaxValueDepth = 6;

/// Can I write the memory L reads? Only a store or call can, and the UBSan
/// runtime (the handler blocks between the two loads of `a` in
/// `a + b < a`) writes no program memory. Where this quick answer is "yes",
/// LLVM's alias analysis (MemoryFacts) may still prove "no": a store to
/// another field of the same object, a helper that writes nothing.
bool mayClobber(const Instruction &I, const LoadInst &L) {
  if (!I.mayWriteToMemory())
    return false;
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    if (isInertCall(*Call))
      return false;
  } else if (const auto *SI = dyn_cast<StoreInst>(&I)) {
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
  MemoryFacts *MF = MemoryFacts::of(L);
  return !MF || MF->mayWrite(I, L);
}

/// Does every path from First to Second avoid an instruction for which
/// Writes holds? Walks backwards from Second; reaching the entry without
/// passing First means First does not dominate Second.
bool noWriteBetween(const Instruction &First, const Instruction &Second,
                    function_ref<bool(const Instruction &)> Writes) {
  unsigned Budget = MaxScannedLoadDistance;
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
      if (--Budget == 0 || Writes(*I))
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

bool noClobberBetween(const LoadInst &First, const LoadInst &Second) {
  return noWriteBetween(First, Second, [&](const Instruction &I) {
    return mayClobber(I, First);
  });
}

bool sameOperands(const Value *A0, const Value *A1, const Value *B0,
                  const Value *B1, bool Commutative, const DataLayout &DL,
                  unsigned Depth);

/// Are A and B the same value at the point of the later one?
bool sameValueImpl(const Value *A, const Value *B, const DataLayout &DL,
                   unsigned Depth) {
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
        !sameValueImpl(LA->getPointerOperand(), LB->getPointerOperand(), DL,
                   Depth + 1))
      return false;
    return noClobberBetween(*LA, *LB) || noClobberBetween(*LB, *LA);
  }
  // Two calls of one helper on equal arguments: the same value when the
  // helper writes nothing, and, if it reads memory, nothing writes what it
  // may read in between (MemoryFacts.h).
  if (const auto *CA = dyn_cast<CallInst>(IA)) {
    const auto *CB = cast<CallInst>(IB);
    MemoryFacts *MF = MemoryFacts::of(*CA);
    if (!MF || !CA->getCalledFunction() ||
        CA->getCalledOperand() != CB->getCalledOperand() ||
        CA->arg_size() != CB->arg_size() || CB->hasOperandBundles())
      return false;
    CallEffect E = MF->effectOf(*CA);
    if (E == CallEffect::Unknown)
      return false;
    for (unsigned I = 0, N = CA->arg_size(); I != N; ++I)
      if (!sameValueImpl(CA->getArgOperand(I), CB->getArgOperand(I), DL,
                         Depth + 1))
        return false;
    if (E == CallEffect::Pure)
      return true;
    auto Between = [&](const CallInst &First, const CallInst &Second) {
      return noWriteBetween(First, Second, [&](const Instruction &I) {
        return MF->mayWriteFor(I, First);
      });
    };
    return Between(*CA, *CB) || Between(*CB, *CA);
  }
  // The same field of two *.with.overflow results: the remoteproc shape
  // computes `off + size` twice. Commutative operations may swap operands.
  if (const auto *EA = dyn_cast<ExtractValueInst>(IA)) {
    const auto *EB = cast<ExtractValueInst>(IB);
    const auto *WA = dyn_cast<WithOverflowInst>(EA->getAggregateOperand());
    const auto *WB = dyn_cast<WithOverflowInst>(EB->getAggregateOperand());
    if (!WA || !WB || WA->getIntrinsicID() != WB->getIntrinsicID() ||
        EA->getIndices() != EB->getIndices())
      return false;
    return sameOperands(WA->getLHS(), WA->getRHS(), WB->getLHS(),
                        WB->getRHS(), WA->isCommutative(), DL, Depth);
  }
  if (const auto *GA = dyn_cast<GetElementPtrInst>(IA)) {
    const auto *GB = cast<GetElementPtrInst>(IB);
    if (GA->getSourceElementType() != GB->getSourceElementType())
      return false;
  } else if (const auto *BA = dyn_cast<BinaryOperator>(IA)) {
    return sameOperands(BA->getOperand(0), BA->getOperand(1),
                        IB->getOperand(0), IB->getOperand(1),
                        BA->isCommutative(), DL, Depth);
  } else if (!isa<CastInst>(IA)) {
    return false;
  }
  // Pure instructions: equal operands give equal results.
  if (IA->getNumOperands() != IB->getNumOperands())
    return false;
  for (unsigned I = 0, E = IA->getNumOperands(); I != E; ++I)
    if (!sameValueImpl(IA->getOperand(I), IB->getOperand(I), DL, Depth + 1))
      return false;
  return true;
}

/// (A0 op A1) and (B0 op B1) have equal operands, in order or swapped.
/// Division could trap, but it would have trapped at the first one already.
bool sameOperands(const Value *A0, const Value *A1, const Value *B0,
                  const Value *B1, bool Commutative, const DataLayout &DL,
                  unsigned Depth) {
  if (sameValueImpl(A0, B0, DL, Depth + 1) &&
      sameValueImpl(A1, B1, DL, Depth + 1))
    return true;
  return Commutative && sameValueImpl(A0, B1, DL, Depth + 1) &&
         sameValueImpl(A1, B0, DL, Depth + 1);
}

/// The shape sameValueImpl() compares, hashed: whatever it would call equal
/// at Depth hashes equal. Leaves it compares by identity hash by identity.
hash_code shapeImpl(const Value *V, unsigned Depth,
                    SmallVectorImpl<const Instruction *> &Loads) {
  const auto *I = dyn_cast<Instruction>(V);
  hash_code Identity = hash_value(V);
  if (Depth >= MaxValueDepth || !I)
    return Identity;
  hash_code Head = hash_combine(I->getOpcode(), I->getType());
  if (const auto *L = dyn_cast<LoadInst>(I)) {
    if (!L->isSimple())
      return Identity;
    Loads.push_back(L);
    return hash_combine(Head,
                        shapeImpl(L->getPointerOperand(), Depth + 1, Loads));
  }
  if (const auto *Call = dyn_cast<CallInst>(I)) {
    if (!Call->getCalledFunction())
      return Identity;
    Loads.push_back(Call);
    hash_code H = hash_combine(Head, Call->getCalledOperand());
    for (const Value *Arg : Call->args())
      H = hash_combine(H, shapeImpl(Arg, Depth + 1, Loads));
    return H;
  }
  auto Pair = [&](const Value *A, const Value *B, bool Commutative) {
    hash_code HA = shapeImpl(A, Depth + 1, Loads);
    hash_code HB = shapeImpl(B, Depth + 1, Loads);
    if (Commutative && size_t(HB) < size_t(HA))
      std::swap(HA, HB);
    return hash_combine(Head, HA, HB);
  };
  if (const auto *EV = dyn_cast<ExtractValueInst>(I)) {
    const auto *WO = dyn_cast<WithOverflowInst>(EV->getAggregateOperand());
    if (!WO)
      return Identity;
    return hash_combine(Pair(WO->getLHS(), WO->getRHS(), WO->isCommutative()),
                        WO->getIntrinsicID(),
                        hash_combine_range(EV->idx_begin(), EV->idx_end()));
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(I))
    return Pair(BO->getOperand(0), BO->getOperand(1), BO->isCommutative());
  hash_code H = Head;
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(I))
    H = hash_combine(H, GEP->getSourceElementType());
  else if (!isa<CastInst>(I))
    return Identity;
  for (const Value *Op : I->operands())
    H = hash_combine(H, shapeImpl(Op, Depth + 1, Loads));
  return H;
}

} // namespace

hash_code valueShape(const Value *V,
                     SmallVectorImpl<const Instruction *> &Loads) {
  return shapeImpl(V, 0, Loads);
}

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

bool sameValue(const Value *A, const Value *B, const DataLayout &DL) {
  return sameValueImpl(A, B, DL, 0);
}

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

} // namespace wrapidiom
