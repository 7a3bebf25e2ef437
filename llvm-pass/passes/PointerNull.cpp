//===- PointerNull.cpp - Let a null base take an offset -------------------===//
//
// Part of wrapidiom. See PointerNull.h.
//
//===----------------------------------------------------------------------===//
#include "passes/PointerNull.h"
#include "checks/OverflowCheck.h"
#include "RemarkSchema.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

#define DEBUG_TYPE "wrap-idiom"

ALWAYS_ENABLED_STATISTIC(NumNullPartsAllowed,
                         "pointer checks whose null part lets a null base "
                         "take an offset (-wrap-idiom-null-offset=allow)");

namespace wrapidiom {

namespace {

/// clang's null part: `icmp eq (icmp ne ptr B, null), (icmp ne iN R, 0)`,
/// with R the computed address as an integer.
/// `icmp ne X, 0` (or null): sets Of to X.
bool isNonNull(Value *V, Value *&Of) {
  auto *Cmp = dyn_cast<ICmpInst>(V);
  if (!Cmp || Cmp->getPredicate() != ICmpInst::ICMP_NE ||
      !match(Cmp->getOperand(1), m_Zero()))
    return false;
  Of = Cmp->getOperand(0);
  return true;
}

/// R is the address clang computed from Base: ptrtoint(Base) + offset.
bool isAddressOf(Value *R, Value *Base) {
  return R->getType()->isIntegerTy() && Base->getType()->isPointerTy() &&
         match(R, m_c_Add(m_PtrToInt(m_Specific(Base)), m_Value()));
}

/// clang 22's null part: `icmp eq (icmp ne ptr B, null), (icmp ne iN R, 0)`.
bool isNullPart(Value *V, Value *&Base, Value *&Result) {
  auto *Eq = dyn_cast<ICmpInst>(V);
  return Eq && Eq->getPredicate() == ICmpInst::ICMP_EQ &&
         isNonNull(Eq->getOperand(0), Base) &&
         isNonNull(Eq->getOperand(1), Result) && isAddressOf(Result, Base);
}

/// The conjuncts of a check's condition (`and` of !nosanitize values).
void conjuncts(Value *V, SmallVectorImpl<Instruction *> &Out, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 || !I->getMetadata(LLVMContext::MD_nosanitize))
    return;
  Value *A, *B;
  if (match(I, m_LogicalAnd(m_Value(A), m_Value(B)))) {
    conjuncts(A, Out, Depth + 1);
    conjuncts(B, Out, Depth + 1);
    return;
  }
  Out.push_back(I);
}

} // namespace

PreservedAnalyses PointerNullPass::run(Function &F,
                                       FunctionAnalysisManager &FAM) {
  bool Changed = false;
  for (OverflowCheck &C : findOverflowChecks(F)) {
    if (C.Op != CheckOp::Ptr)
      continue;
    auto *Cond = dyn_cast<Instruction>(C.Branch->getCondition());
    if (!Cond)
      continue;
    // The condition holds when the check passes; clang branches to the
    // handler on false.
    if (C.PassSuccessor != 0)
      continue;
    SmallVector<Instruction *, 4> Parts;
    conjuncts(Cond, Parts, 0);
    // clang 22 (C): one conjunct, (B != null) == (R != 0). clang 19: two,
    // B != null and R != 0 (a null base fails even with a zero offset).
    Instruction *Part = nullptr, *BaseLeaf = nullptr;
    Value *Base = nullptr, *Result = nullptr;
    for (Instruction *P : Parts)
      if (isNullPart(P, Base, Result)) {
        Part = P;
        break;
      }
    if (!Part)
      for (Instruction *P : Parts) {
        Value *B = nullptr;
        if (!isNonNull(P, B) || !B->getType()->isPointerTy())
          continue;
        for (Instruction *Q : Parts) {
          Value *R = nullptr;
          if (Q != P && isNonNull(Q, R) && isAddressOf(R, B)) {
            BaseLeaf = P, Part = Q, Base = B, Result = R;
            break;
          }
        }
        if (Part)
          break;
      }
    if (!Part)
      continue;
    IRBuilder<> B(Part);
    Value *BaseNull = B.CreateICmpEQ(
        Base, Constant::getNullValue(Base->getType()), "wrap.null.base");
    Value *ResNonNull = B.CreateICmpNE(
        Result, Constant::getNullValue(Result->getType()), "wrap.null.res");
    Value *Allowed = B.CreateOr(BaseNull, ResNonNull, "wrap.null.ok");
    MDNode *NoSan = Part->getMetadata(LLVMContext::MD_nosanitize);
    for (Value *V : {BaseNull, ResNonNull, Allowed})
      if (auto *I = dyn_cast<Instruction>(V))
        I->setMetadata(LLVMContext::MD_nosanitize, NoSan);
    Part->replaceAllUsesWith(Allowed);
    if (BaseLeaf)
      BaseLeaf->replaceAllUsesWith(ConstantInt::getTrue(F.getContext()));
    for (Instruction *Dead : {Part, BaseLeaf})
      if (Dead && Dead->use_empty())
        Dead->eraseFromParent();
    ++NumNullPartsAllowed;
    Changed = true;
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(remark::PassName,
                                        remark::name::NullOffsetAllowed,
                                        C.Branch)
             << "pointer-overflow check: a null base may take an offset "
                "(-wrap-idiom-null-offset=allow); wrap and a non-null base "
                "producing null stay checked";
    });
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace wrapidiom
